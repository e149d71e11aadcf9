"""Moves are submitted by a player; reserved words never collide with player names (issue 9, section 3)."""

import random

import pytest
from conftest import refused

from gibson_core import GameState, load_variant
from gibson_core.errors import IllegalMoveError, NotationError, NotYourTurnError, UnknownPlayerError
from gibson_core.events import REVEAL_ALL
from gibson_core.observe import observe, viewer_from_text
from gibson_core.plugins import variant_names
from gibson_core.setup import random_setup
from gibson_core.textboard import render_text
from gibson_core.variant import RESERVED_NAMES


def _game(name: str, seed: int = 1) -> GameState:
    variant = load_variant(name)
    rng = random.Random(seed)
    return GameState.from_setups(variant, {p: random_setup(variant, p, rng) for p in variant.players})


@pytest.mark.parametrize("name", variant_names())
def test_a_move_out_of_turn_says_only_whose_turn_it_is(name):
    """Blue submits red's moves on red's turn: every refusal is the same words, whatever the pieces are."""
    state = _game(name)
    blue, red = state.variant.players
    state.play(state.legal_moves()[0], by=blue)
    before = (state.position(), state.ply)
    answers = set()
    for move in state.legal_moves()[:20]:  # red's own legal moves, names red's pieces
        with pytest.raises(NotYourTurnError) as err:
            state.play(move, by=blue)
        answers.add(str(err.value))
    for square in state.position():  # and moves of every piece on the board, legal or not
        with pytest.raises(NotYourTurnError) as err:
            state.play(f"{square}-{square}", by=blue)
        answers.add(str(err.value))
    assert answers == {f"it is {red}'s turn"}
    assert (state.position(), state.ply) == before


def test_a_move_by_the_side_to_move_is_explained_and_a_stranger_is_refused():
    state = _game("lattaque")
    blue = state.variant.players[0]
    mine = state.legal_moves()[0]
    with pytest.raises(IllegalMoveError) as err:
        state.play(f"{mine.origin}-{mine.origin}", by=blue)
    assert not isinstance(err.value, NotYourTurnError)
    with pytest.raises(UnknownPlayerError):
        state.play(mine, by="green")
    with pytest.raises(NotationError):
        state.play(None, by=blue)
    state.play(mine, by=blue)
    assert state.ply == 1


def test_draw_is_not_a_player_name():
    variant = load_variant("lattaque", {"ply-limit": 2})
    rng = random.Random(3)
    state = GameState.from_setups(variant, {p: random_setup(variant, p, rng) for p in variant.players})
    for _ in range(2):
        state.play(state.legal_moves()[0])
    result = state.outcome()
    assert result.is_draw and result.winner is None and result.describe().startswith("draw: ")
    assert observe(state, "blue").result == (None, result.reason)


@pytest.mark.parametrize("bad", sorted(RESERVED_NAMES) + ["Red", "RED", "two words", "", "x" * 40])
def test_reserved_or_ambiguous_player_names_are_refused(tmp_path, bad):
    from conftest import ROOT

    source = ROOT / "variants" / "gibson_lattaque" / "lattaque.yaml"
    err, _text = refused(tmp_path, source, "players: [blue, red]", f"players: [blue, '{bad}']")
    assert "players" in str(err)


def test_full_reveal_is_not_a_string():
    state = _game("lattaque")
    variant = state.variant
    assert not isinstance(REVEAL_ALL, str)
    assert viewer_from_text(variant, "all") is REVEAL_ALL
    assert viewer_from_text(variant, "red") == "red"
    for bad in ("RED", "green", "All"):
        with pytest.raises(UnknownPlayerError):
            viewer_from_text(variant, bad)
    full = observe(state, REVEAL_ALL)
    assert all(p.type is not None for p in full.pieces) and full.legal_moves == ()
    assert "?" not in render_text(state, REVEAL_ALL).split("\n    ")[0]
    assert "?" in render_text(state, "blue")


def _reachable(root, limit: int = 200_000) -> list:
    """Every object reachable from ``root`` through containers and instance attributes (bounded walk)."""
    import gc
    import types

    seen, out, todo = set(), [], [root]
    while todo and len(out) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, types.ModuleType | type | types.FunctionType):
            continue
        seen.add(id(obj))
        out.append(obj)
        todo.extend(gc.get_referents(obj))
    return out


@pytest.mark.parametrize("name", variant_names())
def test_nothing_reachable_from_a_variant_holds_game_state(name):
    """Variants are shared through the loader's cache: after games are played (actions, effects, Flags
    included), no game, and none of a game's lists (piece types above all), hangs off the variant."""
    shared = {id(obj) for obj in _reachable(load_variant(name))}
    state = _game(name, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if state.outcome() is not None:
            break
        state.push(state.random_move(rng))
        state.legal_moves()
    game_parts = {id(v) for v in vars(state).values() if id(v) not in shared} | {id(state)}
    for obj in _reachable(state.variant):
        assert not isinstance(obj, GameState)
        assert id(obj) not in game_parts or isinstance(obj, int | str | bool | type(None) | tuple), (
            f"{name}: the variant reaches a {type(obj).__name__} of a live game")


@pytest.mark.parametrize("name", variant_names())
def test_explanations_come_from_the_submitters_view(name):
    """Twins whose opponent's hidden pieces have their types shuffled explain every refused move of the side
    to move in the same words: an explanation never depends on what the submitter cannot see."""
    from test_variants_generic import _permuted_twin

    rng = random.Random(8)
    state = _game(name, seed=8)
    for _ in range(30):
        state.push(state.random_move(rng))
    me = state.to_move
    twin = _permuted_twin(state, me, random.Random(3))
    assert twin.ptype != state.ptype
    grid = state.grid
    mover = state.player
    tried = 0
    for pid in random.Random(1).sample([p for p in state.pids[me] if state.square[p] >= 0], 6):
        o = state.square[pid]
        for d in range(grid.size):
            for t in [None, *grid.orth[d]]:
                move = f"{grid.names[o]}-{grid.names[d]}" + (f"x{grid.names[t]}" if t is not None else "")
                answers = []
                for game in (state, twin):
                    try:
                        game.play(move, by=mover)
                        game.pop()
                        answers.append("legal")
                    except IllegalMoveError as exc:
                        answers.append(exc.reason)
                assert answers[0] == answers[1], move
                tried += 1
    assert tried > 500


def test_an_agent_asked_to_move_without_a_legal_move_says_so_in_a_gibson_error():
    from gibson_core.ai import make_agent
    from gibson_core.errors import NoLegalMoveError

    state = _game("lattaque")
    waiting = observe(state, state.variant.players[1])  # not red's turn: no legal move in red's view
    for name in ("random", "heuristic", "search-easy"):
        with pytest.raises(NoLegalMoveError, match="no legal move"):
            make_agent(name).choose_move(waiting, random.Random(1), 0.01)


def test_replaying_past_the_end_of_a_record_is_refused(tmp_path):
    from gibson_core.errors import RecordError
    from gibson_core.record import GameRecord

    state = _game("lattaque")
    setups = {p: {sq: t for sq, t in state.position().items() if t.startswith(p)} for p in state.variant.players}
    record = GameRecord(variant="lattaque", setups={p: {sq: t.split()[1] for sq, t in s.items()} for p, s in setups.items()},
                        moves=[])
    assert record.replay(0).ply == 0
    with pytest.raises(RecordError, match="no ply 3"):
        record.replay(3)
