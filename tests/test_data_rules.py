"""Attack modes, slider-attack settings and repetition rules as data (issue 13): the Skirmish vectors, the
notation, the compiled fields other engines read, and what the loader refuses."""

import pytest
from conftest import DATA_VARIANTS, outside_variants, refused

from gibson_core import GameState, Move, load_variant
from gibson_core.check import run_file
from gibson_core.errors import NotationError
from gibson_core.movegen import MoveTables
from gibson_core.variant import Repetition

SKIRMISH = DATA_VARIANTS / "gibson_skirmish" / "skirmish.yaml"


@pytest.fixture(scope="module")
def outside():
    """Skirmish and the tutorial's Forty, registered like installed variants for this module."""
    with outside_variants():
        yield


@pytest.fixture(scope="module")
def skirmish(outside):
    return load_variant("skirmish")


def test_skirmish_vectors_pass(skirmish):
    results = run_file(DATA_VARIANTS / "vectors" / "skirmish.yaml")
    assert len(results) >= 25
    assert [f"{r.name}: {r.problem}" for r in results if not r.passed] == []


def test_onto_notation_round_trips():
    move = Move.parse("e4xe5")
    assert (move.origin, move.dest, move.target, move.is_onto, move.is_attack) == ("e4", "e5", "e5", True, True)
    assert str(move) == "e4xe5" and eval(repr(move)) == move
    assert str(Move.parse("B2XB9")) == "b2xb9"
    assert not Move.parse("e4-e5xe6").is_onto and str(Move.parse("e4-e5xe6")) == "e4-e5xe6"
    with pytest.raises(NotationError, match="e5xe6"):
        Move.parse("e4xe")


def test_compiled_fields_say_every_setting(skirmish):
    """A compiled fast path reads these instead of guessing from hooks."""
    assert skirmish.attack_mode == "after-move"
    settings = {t.id: (t.attack_mode, t.slide_attack) for t in skirmish.types}
    assert settings["Kn"][0] == "onto" and settings["Sol"][0] == "after-move"
    assert [settings[i] for i in ("Sa", "Si", "Sn", "Oi", "Ow")] == [
        ("after-move", "any-side"), ("after-move", "in-line"), ("after-move", "none"), ("onto", "in-line"),
        ("onto", "none")]
    assert skirmish.repetition == Repetition(two_square=2, no_fight=0)
    special = MoveTables.for_variant(skirmish).special
    assert [special[skirmish.type_index[i]] is None for i in ("Sol", "Sa", "Kn", "Si", "Flag")] == [
        True, True, False, False, True]


def test_the_two_square_limit_is_exact_under_push_and_pop(skirmish):
    state = GameState.from_position(skirmish, {"b2": "blue Sol", "e5": "red Sol", "f1": "blue Flag"})
    for move in ("b2-b3", "e5-e4", "b3-b2", "e4-e5"):
        state.push(Move.parse(move))
    assert "b2-b3" not in map(str, state.legal_moves())
    state.pop()
    state.pop()
    assert state.shuttle[0][3] == 1 and "b3-b2" in map(str, state.legal_moves())
    state.push(Move.parse("b3-b2"))
    state.push(Move.parse("e4-e5"))
    assert "b2-b3" not in map(str, state.legal_moves())
    copy = state.copy()
    assert copy.shuttle == state.shuttle and sorted(map(str, copy.legal_moves())) == sorted(map(str, state.legal_moves()))


def test_the_two_square_rule_reads_only_the_movers_own_moves(skirmish):
    """Legality never depends on hidden types: twins differing in the opponent's types have equal moves."""
    a = GameState.from_position(skirmish, {"b2": "blue Sol", "e5": "red Sol", "d6": "red Kn"})
    b = GameState.from_position(skirmish, {"b2": "blue Sol", "e5": "red Kn", "d6": "red Sol"})
    for move in ("b2-b3", "e5-e4", "b3-b2", "e4-e5"):
        for state in (a, b):
            state.push(Move.parse(move))
    assert sorted(map(str, a.legal_moves())) == sorted(map(str, b.legal_moves()))


@pytest.mark.parametrize(("old", "new", "message"), [
    ("players: [blue, red]", "players: [blue, red]\nattack_mode: onwards", "unknown attack mode 'onwards'"),
    ("attack_mode: onto}", "attack_mode: into}", "unknown attack mode 'into'"),
    ("count: 1, attack_mode: onto}", "count: 1, slide_attack: in-line}", "only a sliding piece"),
    ("slide_attack: in-line}", "slide_attack: sideways}", "unknown slide attack 'sideways'"),
    ("attack_mode: onto, slide_attack: none}", "attack_mode: onto, slide_attack: any-side}", "in-line or none"),
    ("default: 2}", "default: two}", "expected a whole number (0: off)"),
    ("default: 2}", "default: -1}", "a whole number"),
])
def test_bad_attack_and_repetition_settings_are_refused(tmp_path, old, new, message):
    error, _text = refused(tmp_path, SKIRMISH, old, new)
    assert any(message in p.message for p in error.problems), error


@pytest.fixture(scope="module")
def forty(outside):
    return load_variant("forty", {"ply-limit": 160})


def test_agents_play_attacks_onto_squares(forty):
    """The heuristic agent scores ``e4xe5`` moves (fought from e4, won on e5) against the random one; its
    guessed worlds stay intact (a fight probe once wiped the defender off the agent's board)."""
    from gibson_core.ai import make_agent
    from gibson_core.match import play_match

    _record, state = play_match(forty, [make_agent("heuristic"), make_agent("random")], seed=5)
    assert state.outcome() is not None
    assert any(m.is_onto for m, _events in state.history)


def test_beliefs_follow_a_run_in_line(forty):
    """A hidden piece that ran four squares can only be a Scout; one that attacked onto a square and won is
    revealed; the run and the capture are public, the types behind them are not."""
    from gibson_core.ai import beliefs
    from gibson_core.observe import observe

    state = GameState.from_position(forty, {"b2": "red Sc", "e4": "red Ca", "e5": "blue Lt", "j9": "blue Sg",
                                            "a1": "red F", "j10": "blue F"}, "red")
    state.play("b2-b6")
    state.play("j9-j8")
    state.play("e4xe5")
    view = observe(state, "blue")
    scout = next(p.handle for p in view.pieces if p.square == "b6")
    assert beliefs(view, forty)[scout] == {"Sc": 1.0}
    assert next(p for p in view.pieces if p.square == "e5").type == "Ca"


def test_an_agents_world_counts_the_runs_it_saw(skirmish):
    """A world an agent builds from its Observation refuses the same moves back as the real game: the runs
    and the plies without an attack are replayed from public events only."""
    from gibson_core.ai.world import World
    from gibson_core.observe import observe

    state = GameState.from_position(skirmish, {"b2": "blue Sol", "e5": "red Kn", "f1": "blue Flag", "a6": "red Flag"})
    for move in ("b2-b3", "e5-e4", "b3-b2", "e4-e5"):
        state.play(move)
    view = observe(state, "blue")
    world = World(view, skirmish, {})
    assert sorted(map(str, world.state.legal_moves())) == sorted(map(str, view.legal_moves))
    assert "b2-b3" not in map(str, view.legal_moves)
    assert world.state.shuttle[1][1:] == state.shuttle[1][1:] and world.state.quiet == state.quiet == 4
