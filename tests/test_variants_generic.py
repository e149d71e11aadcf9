"""Generic tests, run for every registered variant (and each of its boolean options)."""

import json
import random

import pytest
from conftest import OUTSIDE_PACKAGES, outside_variants

from gibson_core import GameState, Move, load_variant, variant_names
from gibson_core.bench import new_game, random_playout
from gibson_core.observe import observe
from gibson_core.record import GameRecord, parse_record, player_record
from gibson_core.setup import random_setup


@pytest.fixture(scope="module", autouse=True)
def _outside():
    """The tutorial's data-only game and the test-only Skirmish are tested like installed variants."""
    with outside_variants():
        yield


def _configurations():
    with outside_variants():
        names = variant_names()
        assert all(name in names for _f, _p, listed in OUTSIDE_PACKAGES for name in listed)
        specs = {name: load_variant(name).option_specs for name in names}
    for name in names:
        yield pytest.param(name, {}, id=name)
        for option, spec in specs[name].items():
            if spec.get("default") is False and not spec.get("extension"):
                yield pytest.param(name, {option: True}, id=f"{name}+{option}")


CONFIGS = list(_configurations())


def _full(state: GameState) -> tuple:
    return (state.board[:], state.square[:], state.revealed[:], state.moved[:], state.track[:], dict(state.tokens),
            state.to_move, state.ply, state.result, [m for m, _ in state.history], state.shuttle, state.quiet)


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_random_games_end_with_a_result(name, options):
    variant = load_variant(name, {**options, "ply-limit": 2000} if "ply-limit" in load_variant(name).options else options)
    for seed in range(20):
        rng = random.Random(seed)
        state = new_game(variant, rng)
        random_playout(state, rng)
        assert state.outcome() is not None, f"{name} seed {seed} did not end"
        assert state.legal_moves() == []


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_push_then_pop_restores_an_equal_state_at_every_ply(name, options):
    variant = load_variant(name, options)
    rng = random.Random(7)
    state = new_game(variant, rng)
    for _ in range(400):
        moves = state.legal_moves()
        if not moves:
            break
        before = _full(state)
        legal_before = [str(m) for m in moves]
        for move in moves[:: max(1, len(moves) // 8)]:
            state.push(move)
            state.pop()
            assert _full(state) == before
            assert [str(m) for m in state.legal_moves()] == legal_before
        state.push(rng.choice(moves))


def _permuted_twin(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """The same game with the opponent's unrevealed pieces' types shuffled among themselves."""
    twin = state.copy()
    hidden = [pid for pid in state.pids[1 - viewer] if not state.revealed[pid]]
    types = [state.ptype[pid] for pid in hidden]
    rng.shuffle(types)
    twin.ptype = state.ptype[:]
    for pid, t in zip(hidden, types, strict=True):
        twin.ptype[pid] = t
    return twin


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_hidden_enemy_types_change_nothing_a_player_sees(name, options):
    """Observations and player records (a saved game for one player) are equal for a twin whose opponent
    pieces that are still hidden have their types shuffled."""
    variant = load_variant(name, options)
    rng = random.Random(11)
    state = new_game(variant, rng)
    random_playout(state, rng, 60)
    for viewer, player in enumerate(variant.players):
        twin = _permuted_twin(state, viewer, random.Random(3))
        assert observe(state, player) == observe(twin, player)
        mine = json.dumps(player_record(state, player), sort_keys=True)
        assert mine == json.dumps(player_record(twin, player), sort_keys=True)


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_a_record_round_trips(name, options):
    variant = load_variant(name, options)
    rng = random.Random(5)
    setups = {p: random_setup(variant, p, rng) for p in variant.players}
    state = GameState.from_setups(variant, setups, variant.players[1])
    random_playout(state, rng, 150)
    record = GameRecord.from_state(state, setups, seed=5, first=variant.players[1])
    again = parse_record(record.to_json())
    assert again == record
    replayed = again.replay()
    assert replayed.position() == state.position()
    assert [str(m) for m, _ in replayed.history] == [str(m) for m, _ in state.history]
    assert replayed.outcome() == state.outcome()


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_cached_moves_equal_a_fresh_enumeration(name, options):
    """The per-piece move cache never serves a stale move: at every ply, and after every pop, the legal
    moves equal those of a state that never cached anything."""
    variant = load_variant(name, options)
    rng = random.Random(13)
    state = new_game(variant, rng)
    for ply in range(600):
        moves = state.legal_moves()
        fresh = state.copy()
        fresh._piece_moves.clear()
        fresh._slider_reads.clear()
        assert sorted(map(str, moves)) == sorted(map(str, fresh.legal_moves())), f"ply {ply}"
        if not moves:
            break
        state.push(rng.choice(moves))
        if ply % 7 == 3:
            state.pop()


def _hidden_swapped(variant, setups: dict, owner: str, rng: random.Random) -> dict:
    """The same set-ups with ``owner``'s piece types shuffled among their squares."""
    squares = list(setups[owner])
    types = [setups[owner][sq] for sq in squares]
    rng.shuffle(types)
    return {**setups, owner: dict(zip(squares, types, strict=True))}


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_quiet_play_shows_nothing_of_the_opponents_hidden_pieces(name, options):
    """Two games whose set-ups differ only in the opponent's hidden types, played with the same moves and no
    attack: until something is revealed on the board, the player sees exactly the same in both (events,
    removal reasons, tokens, legal moves included)."""
    variant = load_variant(name, options)
    for seed in range(4):
        rng = random.Random(seed)
        viewer, opponent = variant.players
        setups = {p: random_setup(variant, p, rng) for p in variant.players}
        a = GameState.from_setups(variant, setups, variant.players[seed % 2])
        b = GameState.from_setups(variant, _hidden_swapped(variant, setups, opponent, rng), variant.players[seed % 2])
        for _ in range(300):
            common = sorted({str(m) for m in a.legal_moves() if not m.is_attack}
                            & {str(m) for m in b.legal_moves() if not m.is_attack})
            if not common or a.outcome() is not None or b.outcome() is not None:
                break
            move = Move.parse(rng.choice(common))
            a.push(move)
            b.push(move)
            if any(e.__class__.__name__ == "Revealed" for s in (a, b) for e in s.history[-1][1]):
                break
            assert observe(a, viewer) == observe(b, viewer)
