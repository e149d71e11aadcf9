"""L'Attaque beyond the vectors: the army and board of the rules file, set-ups, whole games, reasons."""

from collections import Counter

import pytest

from gibson_core import GameState, load_variant
from gibson_core.ai import make_agent
from gibson_core.match import play_match

ARMY = {"CC": 1, "BG": 1, "Col": 2, "Cmdt": 2, "Capt": 4, "Lt": 4, "Sgt": 4, "Sap": 4, "Sct": 8, "Spy": 1,
        "Mine": 4, "Flag": 1}


@pytest.fixture(scope="module")
def lattaque():
    return load_variant("lattaque")


def test_the_army_of_the_rules_file(lattaque):
    assert {t.id: t.count for t in lattaque.types} == ARMY and lattaque.piece_count == 36
    ranks = {t.id: t.value for t in lattaque.types if t.value is not None}
    assert sorted(ranks, key=ranks.get, reverse=True) == ["CC", "BG", "Col", "Cmdt", "Capt", "Lt", "Sgt", "Sap",
                                                          "Sct", "Spy"]
    assert not lattaque.type_of("Mine").mobile and not lattaque.type_of("Flag").mobile


def test_board_lakes_and_setup_zones(lattaque):
    grid = lattaque.grid
    assert (grid.files, grid.ranks) == (9, 10)
    lakes = sorted(grid.name(sq) for sq in range(grid.size) if not lattaque.kind_of(sq).passable)
    assert lakes == ["c5", "c6", "e5", "e6", "g5", "g6"]
    for player, ranks in (("blue", {"1", "2", "3", "4"}), ("red", {"7", "8", "9", "10"})):
        squares = {grid.name(sq) for sq in lattaque.setup_squares[player]}
        assert {s[1:] for s in squares} == ranks
        assert len(squares) == 36  # exactly the army: every square of the four ranks is used


def test_random_setups_fill_the_four_ranks(lattaque):
    import random

    agent = make_agent("random")
    setup = agent.choose_setup(lattaque, "red", random.Random(5))
    assert Counter(setup.values()) == Counter(ARMY) and len(setup) == 36


def test_fight_reasons_use_names(lattaque):
    state = GameState.from_position(lattaque, {"d5": "blue Spy", "d7": "red CC", "a1": "blue Sgt",
                                               "i10": "red Sgt"}, "blue")
    state.play("d5-d6xd7")
    assert state.last_outcome.reason == "the Spy kills the Commander-in-Chief"
    state = GameState.from_position(lattaque, {"d5": "blue Capt", "d7": "red Mine", "a1": "blue Sgt",
                                               "i10": "red Sgt"}, "blue")
    state.play("d5-d6xd7")
    assert state.last_outcome.reason == "the Captain is blown up by a Mine"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_end(lattaque, seed):
    _record, state = play_match(lattaque, [make_agent("random"), make_agent("random")], seed=seed)
    result = state.outcome()
    assert result is not None and result.winner in ("blue", "red", None)


def test_ply_limit_option():
    assert load_variant("lattaque").ply_limit == 2000
    assert load_variant("lattaque", {"ply-limit": 50}).ply_limit == 50


def test_written_only_against_the_public_api():
    """The plugin uses the hook marker and VariantSpec, nothing else of the core."""
    import inspect

    import gibson_lattaque

    imports = [line for line in inspect.getsource(gibson_lattaque).splitlines() if "import" in line]
    assert imports == ["from pathlib import Path", "from gibson_core.hookspecs import hookimpl",
                       "from gibson_core.variant import VariantSpec"]
