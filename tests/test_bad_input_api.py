"""The library API and the command line with bad input: Gibson errors with words, one line, exit 2."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import gibson_core
from gibson_core import (
    GameState,
    GibsonError,
    NotationError,
    NothingToUndoError,
    SetupError,
    UnknownPieceError,
    UnknownPlayerError,
    load_variant,
)
from gibson_core.cli import main
from gibson_core.errors import quote
from gibson_core.setup import random_setup

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def game():
    variant = load_variant("lattaque")
    return GameState.from_setups(variant, {p: random_setup(variant, p, 5) for p in variant.players}, "blue")


def test_play_none_pop_at_start_and_unknown_players(game):
    with pytest.raises(NotationError, match="a move must be"):
        game.play(None)
    with pytest.raises(NothingToUndoError, match="no move to take back"):
        game.pop()
    with pytest.raises(UnknownPlayerError, match="not a player"):
        game.variant.player_index("green")
    with pytest.raises(UnknownPieceError):
        game.piece(10_000)


def test_from_position_refuses_a_piece_on_a_lake():
    variant = load_variant("lattaque")
    lake = next(variant.grid.names[sq] for sq in range(variant.grid.size) if not variant.kind_of(sq).passable)
    with pytest.raises(SetupError, match=f"{lake} is"):
        GameState.from_position(variant, {lake: f"blue {variant.types[0].id}"})


def test_repr_of_a_variant_is_short():
    assert len(repr(load_variant("tri-tactics"))) < 200


def test_the_package_gives_the_observe_function():
    from gibson_core import observe

    assert callable(observe) and observe.__name__ == "observe"


def test_observe_does_not_import_the_ai():
    """The engine knows no agent: observe.py and state.py import nothing from gibson_core.ai."""
    for module in ("observe.py", "state.py"):
        tree = ast.parse((ROOT / "gibson_core" / module).read_text())
        imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [m for m in imported if m.startswith(("ai", ".ai", "gibson_core.ai"))], module
    assert not hasattr(gibson_core.Observation, "beliefs")


def test_quote_bounds_what_a_message_echoes():
    assert len(quote("x" * 20_000_000)) < 100 and quote("e5") == "'e5'"
    assert "bit number" in quote(10**5000)


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("rec") / "tri.json"
    assert main(["selfplay", "tri-tactics", "--option", "ply-limit=20", "--record", str(path)]) == 0
    return str(path)


CASES = [
    (["selfplay", "tri-tactics", "--agents", "foo,bar"], "unknown agent 'foo'"),
    (["selfplay", "tri-tactics", "--agents", "random"], "2 agent names"),
    (["selfplay", "tri-tactics", "--agents", "random,random,random"], "2 agent names"),
    (["selfplay", "tri-tactics", "--agents", "search:iterations=abc,random"], "iterations is a number"),
    (["arena", "tri-tactics", "--agents", "random,foo"], "unknown agent 'foo'"),
    (["selfplay", "tri-tactics", "--option", "ply-limit=[1]"], "whole number"),
    (["selfplay", "dover-patrol", "--option", "first-capture=maybe"], "on or off"),
    (["selfplay", "tri-tactics", "--option", "ply-limit=-5"], "from 0"),
    (["selfplay", "Tri-Tactics"], "did you mean 'tri-tactics'"),
    (["screenshot", "tri-tactics", "--out", "{tmp}/x.png", "--as", "green"], "not a viewer"),
    (["screenshot", "tri-tactics", "--out", "{tmp}/x.png", "--as", "RED"], "did you mean 'red'"),
    (["screenshot", "tri-tactics", "--out", "/no/such/dir/x.png"], "does not exist"),
    (["screenshot", "lattaque", "--out", "{tmp}/x.png", "--record", "{record}"], "game of 'tri-tactics', not of lattaque"),
    (["selfplay", "tri-tactics", "--record", "/no/such/dir/g.json"], "does not exist"),
    (["play", "--level", "godlike"], "unknown level 'godlike'"),
    (["replay", "{record}", "--ply", "-3"], "ply number from 0"),
    (["replay", "{record}", "--as", "green"], "not a viewer"),
    (["bench", "--seconds", "-1"], "greater than 0"),
    (["arena", "tri-tactics", "--games", "0"], "from 1"),
    (["arena", "tri-tactics", "--games", "-1"], "from 1"),
]


@pytest.mark.parametrize(("argv", "words"), CASES, ids=[" ".join(c[0][:4]) for c in CASES])
def test_bad_arguments_are_one_line_and_exit_2(capsys, tmp_path, record, argv, words):
    argv = [a.format(tmp=tmp_path, record=record) for a in argv]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusal
        code = exc.code
    captured = capsys.readouterr()
    assert code == 2 and words in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert not list(tmp_path.iterdir())  # nothing was written before the refusal


def test_replay_into_a_closed_pipe_ends_quietly(record):
    script = ("import sys; from gibson_core.cli import main; sys.exit(main(['replay', sys.argv[1], '-v']))")
    reader = subprocess.Popen([sys.executable, "-c", script, record], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.close()  # like `| head` that has read what it wanted
    _out, err = reader.communicate(timeout=120)
    assert b"Traceback" not in err and reader.returncode in (0, 1)


def test_every_refusal_is_a_gibson_error():
    assert issubclass(NothingToUndoError, GibsonError) and issubclass(UnknownPieceError, GibsonError)


def test_a_variant_with_many_problems_is_one_line_on_the_command_line(capsys, tmp_path):
    from gibson_core.cli import one_line
    from gibson_core.errors import VariantError
    from gibson_core.variant import load_variant_file

    path = tmp_path / "v.yaml"
    path.write_text("name: 5\nplayers: 3\n")
    with pytest.raises(VariantError) as err:
        load_variant_file(path)
    assert len(err.value.problems) > 1
    line = one_line(err.value)
    assert "\n" not in line and "more: gibson validate" in line
