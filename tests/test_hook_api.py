"""The state API hooks use (docs/reference.md, "The state a hook sees"): reading by names, changing through
the state's methods with push/pop exact, and hook answers checked for their shape."""

import types

import attrs
import pytest
from conftest import DATA_VARIANTS

from gibson_core import GameState, Move
from gibson_core.errors import GibsonError, PluginError
from gibson_core.hookspecs import hookimpl
from gibson_core.plugins import game_plugin_manager
from gibson_core.variant import VariantSpec, load_variant_file

SKIRMISH = DATA_VARIANTS / "gibson_skirmish" / "skirmish.yaml"
START = {"b2": "blue Sol", "d2": "blue Kn", "f1": "blue Flag", "e5": "red Sol", "d6": "red Kn", "a6": "red Flag"}


def hooked(name: str, **hooks):
    """Skirmish with rule hooks from a plugin module called ``name`` holding ``hooks``."""
    plugin = types.ModuleType(name)
    for hook, function in hooks.items():
        setattr(plugin, hook, hookimpl(function))
    spec = VariantSpec("skirmish", SKIRMISH, plugin)
    variant = load_variant_file(SKIRMISH, None, spec)
    return attrs.evolve(variant, plugin_manager=game_plugin_manager(spec, variant))


def full(state: GameState) -> tuple:
    return (state.position(), state.square[:], state.revealed[:], state.moved[:], dict(state.tokens),
            state.to_move, state.ply, state.result, state.shuttle, state.quiet, len(state.history),
            sorted(map(str, state.legal_moves())))


def test_reading_by_names():
    state = GameState.from_position(hooked("plain"), START)
    kn = state.pid_at("d2")
    assert state.owner_of(kn) == "blue" and state.type_of(kn).id == "Kn" and state.square_of(kn) == "d2"
    assert [state.square_of(p) for p in state.pieces_of("red")] == ["e5", "a6", "d6"]  # by starting square
    assert state.pieces_of("blue") == state.pieces_of(0) and state.pid_at("c3") == 0
    assert state.option("two-square") == 2
    with pytest.raises(KeyError, match="two-square"):
        state.option("three-square")


def _ferry(state, pid, square, events):
    """A piece arriving on c3 is ferried on to c5 when c5 is free."""
    if state.grid.name(square) == "c3" and not state.pid_at("c5"):
        state.move_piece(pid, "c5", events, reason="ferried across the pond")


def test_move_piece_from_a_hook_is_undone_exactly_by_pop():
    state = GameState.from_position(hooked("ferry", gibson_on_arrival=_ferry), {**START, "c2": "blue Sol"})
    before = full(state)
    state.push(Move.parse("c2-c3"))
    assert state.square_of(state.pid_at("c5")) == "c5" and "c3" not in state.position()
    assert [type(e).__name__ for e in state.history[-1][1]] == ["Moved", "Retreated"]
    middle = full(state)
    state.push(Move.parse("e5-e4"))
    assert "c5-c6" in map(str, state.legal_moves())  # the moved piece's cached moves are fresh
    state.pop()
    assert full(state) == middle
    state.pop()
    assert full(state) == before


def test_move_piece_refuses_and_changes_nothing():
    state = GameState.from_position(hooked("plain"), START)
    before = full(state)
    for square in ("d2", "c4"):
        with pytest.raises(GibsonError, match=square):
            state.move_piece(state.pid_at("b2"), square, [])
    assert full(state) == before


WRONG = [
    ("gibson_game_result", lambda state: "blue", "gibson_game_result returned 'blue'", "move"),
    ("gibson_extra_moves", lambda state, player: ["b2-b3"], "a list of Move", "generate"),
    ("gibson_filter_moves", lambda state, player, moves: set(moves), "a list of Move", "generate"),
    ("gibson_resolve_combat", lambda state, attacker, defender: "attacker", "an Outcome", "attack"),
    ("gibson_no_legal_moves", lambda state, player: ("red",), "(winner, reason)", "stuck"),
]


@pytest.mark.parametrize(("hook", "function", "words", "trigger"), WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_answer_names_the_plugin_and_the_hook(hook, function, words, trigger):
    variant = hooked("sloppy_rules", **{hook: function})
    state = GameState.from_position(variant, {"b2": "blue Sol", "b4": "red Sol", "f1": "blue Flag"})
    actions = {"move": lambda: state.push(Move.parse("b2-a2")), "generate": state.legal_moves,
               "attack": lambda: state.push(Move.parse("b2-b3xb4")),
               "stuck": GameState.from_position(variant, {"a1": "blue Flag", "f6": "red Sol"}).outcome}
    with pytest.raises(PluginError) as info:
        actions[trigger]()
    assert "sloppy_rules" in str(info.value) and hook in str(info.value) and words in str(info.value)
