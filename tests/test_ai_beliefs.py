"""Beliefs: what hidden enemy pieces can still be, from the Observation alone."""

import random
from collections import Counter

import pytest

from gibson_core.ai.beliefs import beliefs, can_travel, infer_beliefs
from gibson_core.ai.evidence import HOLD, HOLD_FLOOR, held_fire, spared_by_effects
from gibson_core.events import Moved
from gibson_core.moves import FIRE
from gibson_core.observe import observe
from gibson_core.pieces import IMMOBILE
from gibson_core.plugins import load_variant, variant_names
from gibson_core.setup import random_setup
from gibson_core.state import GameState

TRI = "tri-tactics"


def new_game(name: str, seed: int = 1, first: str | None = None) -> GameState:
    variant = load_variant(name)
    rng = random.Random(seed)
    return GameState.from_setups(variant, {p: random_setup(variant, p, rng) for p in variant.players}, first)


def play_random(state: GameState, plies: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(plies):
        if state.outcome() is not None:
            return
        state.play(rng.choice(state.legal_moves()))


def truth(state: GameState, handle: int) -> str:
    """The real type of a piece, for checking the beliefs (tests may read the truth, agents may not)."""
    return state.variant.types[state.ptype[handle]].id


@pytest.mark.parametrize("name", variant_names())
@pytest.mark.parametrize("seed", [1, 2])
def test_beliefs_are_sound_and_use_movement(name, seed):
    """After random play, every hidden enemy piece's real type is still possible, moved pieces are never
    immobile types, and the probabilities of each piece sum to one."""
    state = new_game(name, seed)
    play_random(state, 80, seed)
    variant = state.variant
    immobile = {t.id for t in variant.types if t.movement.kind == IMMOBILE}
    for player in variant.players:
        obs = observe(state, player)
        belief = infer_beliefs(obs, variant)
        hidden = [p for p in obs.enemy() if p.type is None]
        assert set(belief.allowed) == {p.handle for p in hidden}
        for piece in hidden:
            assert truth(state, piece.handle) in belief.allowed[piece.handle]
            if piece.moved:
                assert not belief.allowed[piece.handle] & immobile
        for e in (e for events in obs.events for e in events if isinstance(e, Moved)):
            if e.handle in belief.allowed:  # every type still possible could have made each of its moves
                o, d = variant.grid.index[e.origin], variant.grid.index[e.dest]
                assert all(can_travel(variant.type_of(t), variant.grid, o, d) for t in belief.allowed[e.handle])
        for handle, dist in beliefs(obs, variant).items():
            assert sum(dist.values()) == pytest.approx(1.0)
            assert set(dist) <= belief.allowed[handle]


def test_exhausted_counts_are_excluded():
    """Once every piece of a type has been seen, no hidden piece can be of it."""
    state = new_game(TRI, 3)
    variant = state.variant
    red = variant.players[1]
    armies = [pid for pid in state.alive(1) if truth(state, pid) == "Army"]
    assert len(armies) == variant.type_of("Army").count == 1
    state.revealed[armies[0]] = True  # as if the Army had fought
    obs = observe(state, variant.players[0])
    belief = infer_beliefs(obs, variant)
    assert belief.remaining["Army"] == 0
    assert armies[0] not in belief.allowed
    assert all("Army" not in allowed for allowed in belief.allowed.values())
    assert len(belief.allowed) == sum(1 for p in obs.pieces if p.owner == red) - 1


def test_revealed_piece_is_followed_when_it_moves():
    """A piece identified in combat keeps its identity by handle after it moves on."""
    state = new_game(TRI, 4, first="blue")
    variant = state.variant
    rng = random.Random(4)
    seen = None
    for _ in range(400):
        if state.outcome() is not None:
            break
        moves = state.legal_moves()
        attacks = [m for m in moves if m.is_attack]
        state.play(rng.choice(attacks or moves))
        fought = [pid for pid in state.alive(1) if state.revealed[pid]]
        if seen is None and fought:
            seen = fought[0]
        if seen is not None and state.square[seen] >= 0 and state.moved[seen]:
            start = state.square[seen]
            red_moves = [m for m in state.legal_moves() if state.player == "red"
                         and state.board[variant.grid.index[m.origin]] == seen and not m.is_attack]
            if red_moves:
                state.play(red_moves[0])
                assert state.square[seen] != start
                break
    assert seen is not None
    obs = observe(state, "blue")
    followed = next(p for p in obs.pieces if p.handle == seen)
    assert followed.type == truth(state, seen)
    assert seen not in infer_beliefs(obs, variant).allowed


def test_marginals_match_remaining_counts():
    """At the start every hidden piece has the same distribution: the army's make-up."""
    state = new_game(TRI, 5)
    variant = state.variant
    dist = beliefs(observe(state, "blue"), variant)
    total = variant.piece_count
    for d in dist.values():
        for t in variant.types:
            assert d[t.id] == pytest.approx(t.count / total)


def test_samples_respect_constraints_and_counts():
    state = new_game(TRI, 6)
    play_random(state, 60, 6)
    obs = observe(state, "blue")
    belief = infer_beliefs(obs, state.variant)
    rng = random.Random(0)
    for _ in range(20):
        sample = belief.sample(rng)
        assert set(sample) == set(belief.allowed)
        assert all(sample[h] in belief.allowed[h] for h in sample)
        assert all(n <= belief.remaining[t] for t, n in Counter(sample.values()).items())


def test_movement_kinds_limit_what_a_move_can_be():
    variant = load_variant(TRI)
    grid = variant.grid
    sl, bn = variant.type_of("SL"), variant.type_of("Bn")
    e5, e6, e8, f6 = (grid.square(s) for s in ("e5", "e6", "e8", "f6"))
    assert can_travel(sl, grid, e5, e8) and can_travel(bn, grid, e5, e6)
    assert not can_travel(bn, grid, e5, e8)
    assert not can_travel(sl, grid, e5, f6)


def fire_game(seed: int, plies: int, trigger_happy: bool) -> tuple:
    """An Aviation game of random moves (guns firing whenever they can, if ``trigger_happy``) and, per ply,
    what the truth says a hidden piece could have shot: ``(state, turns)`` with ``turns`` a list of
    ``(mover, fired, squares, revealed)``, the squares and reveal flags by piece before each move."""
    state = new_game("aviation", seed)
    rng = random.Random(seed)
    turns = []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        moves = state.legal_moves()
        fire = [m for m in moves if m.kind == FIRE]
        move = rng.choice(fire) if trigger_happy and fire else rng.choice(moves)
        turns.append((state.to_move, move.kind == FIRE, list(state.square), list(state.revealed)))
        state.play(move)
    return state, turns


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_held_fire_counts_the_turns_a_gun_could_have_shot(seed):
    """Read from the events alone, the count of each hidden piece's missed shots per gun type is exactly the
    count the true positions give: the enemy's turns without a shot on which one of our pieces of a type
    the gun targets, revealed, stood within its range of the piece."""
    state, turns = fire_game(seed, 400, trigger_happy=False)
    variant = state.variant
    guns = [(variant.types[t].id, act.range, act.targets) for t, acts in enumerate(variant.rules["effects"].actions)
            for act in acts if act.kind == FIRE]
    grid, counted = variant.grid, 0
    for me, player in enumerate(variant.players):
        obs = observe(state, player)
        hidden = [p.handle for p in obs.enemy() if p.type is None]
        expected = {}
        for mover, fired, squares, revealed in turns:
            if mover == me or fired:
                continue
            for h in hidden:
                for gid, reach, targets in guns:
                    if any(squares[q] >= 0 and revealed[q] and state.ptype[q] in targets
                           and grid.manhattan(squares[h], squares[q]) <= reach for q in state.pids[me]):
                        expected.setdefault(h, Counter())[gid] += 1
        counted += sum(sum(c.values()) for c in expected.values())
        assert held_fire(obs, variant) == {h: {g: max(HOLD_FLOOR, HOLD ** n) for g, n in c.items()}
                                           for h, c in expected.items()}
    assert counted > 0  # the game gave the guns chances to miss


def test_held_fire_points_at_the_real_guns():
    """Against an enemy whose guns always shoot when they can, every piece that held fire as a gun type is
    not of that type: the evidence moves the beliefs' weight onto the real guns."""
    gained = 0.0
    for seed in (4, 5, 6):
        state, _turns = fire_game(seed, 300, trigger_happy=True)
        variant = state.variant
        for player in variant.players:
            obs = observe(state, player)
            held = held_fire(obs, variant)
            assert all(truth(state, h) not in types for h, types in held.items())
            guns = [p.handle for p in obs.enemy() if p.type is None and truth(state, p.handle).startswith("AA")]
            plain, told = infer_beliefs(obs, variant, held=False).marginals(), infer_beliefs(obs, variant).marginals()
            gained += sum(told[h][truth(state, h)] - plain[h][truth(state, h)] for h in guns)
    assert gained > 0.1


def test_held_fire_needs_guns():
    """Variants without a fire action have nothing to read from held fire."""
    for name in ("lattaque", "dover-patrol", TRI):
        state = new_game(name, 7)
        play_random(state, 60, 7)
        assert held_fire(observe(state, state.variant.players[0]), state.variant) == {}


@pytest.mark.parametrize("name", ["dover-patrol", "aviation"])
def test_pieces_spared_by_effects_are_never_their_real_type(name):
    """After long random games, no hidden piece is ruled out of its real type by the arrivals it let pass,
    and the evidence does rule types out (Mines and Mine Layers, guns and Balloons)."""
    ruled = 0
    for seed in range(1, 7):
        state = new_game(name, seed)
        play_random(state, 500, seed)
        for player in state.variant.players:
            spared = spared_by_effects(observe(state, player), state.variant)
            assert all(truth(state, h) not in types for h, types in spared.items())
            ruled += sum(len(types) for types in spared.values())
    assert ruled > 0


def test_a_ship_afloat_beside_an_unmoved_piece_was_not_beside_a_mine():
    """Blue's Destroyer ends its move beside two of red's unmoved pieces and is still afloat: neither is a
    Mine, nor (a Mine Layer spares Destroyers) is that ruled out; beside the Mine it would have sunk. The
    twin with a Mine Sweeper (spared by Mines) learns nothing about Mines."""
    variant = load_variant("dover-patrol")
    for ship, afloat in (("Dst", True), ("MS", False)):
        state = GameState.from_position(variant, {"d5": f"blue {ship}", "a1": "blue BS", "e6": "red PV",
                                                  "c6": "red ML", "h12": "red BS", "a12": "red Mine"}, "blue")
        state.play("d5-d6")
        state.play("h12-h11")
        obs = observe(state, "blue")
        pv, ml = (state.board[variant.grid.index[sq]] for sq in ("e6", "c6"))
        spared = spared_by_effects(obs, variant)
        belief = infer_beliefs(obs, variant)
        if afloat:
            assert spared[pv] >= {"Mine"} and spared[ml] >= {"Mine"} and "ML" not in spared[pv]
            assert "Mine" not in belief.allowed[pv] and "Mine" not in belief.allowed[ml]
        else:
            assert "Mine" not in spared.get(pv, set()) and "Mine" in belief.allowed[pv]
    blown = GameState.from_position(variant, {"d5": "blue Dst", "a1": "blue BS", "e6": "red Mine",
                                              "h12": "red BS", "a12": "red Mine"}, "blue")
    blown.play("d5-d6")
    assert spared_by_effects(observe(blown, "blue"), variant) == {}
