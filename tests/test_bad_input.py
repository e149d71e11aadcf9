"""Bad input gets a clear error and loses nothing: malformed variant YAML (file, key path, line),
malformed notation, illegal moves, corrupt records and set-ups."""

import json
import random
from pathlib import Path

import pytest
import yaml
from conftest import line_of, refused

from gibson_core import (
    GameState,
    IllegalMoveError,
    Move,
    NotationError,
    OptionError,
    RecordError,
    SetupError,
    VariantError,
)
from gibson_core.plugins import load_variant
from gibson_core.record import GameRecord, load_game, parse_record
from gibson_core.setup import load_setup, random_setup, validate_setup
from gibson_core.variant import load_variant_file

TRI = Path(load_variant("tri-tactics").source)


def _variant_text() -> str:
    return TRI.read_text()


def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    return path


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    error, _text = refused(tmp_path, TRI, "  files: 12", "  files: [12")
    assert "broken.yaml" in str(error) and error.line is not None


def test_missing_key_names_the_key_path(tmp_path):
    error, text = refused(tmp_path, TRI, "  - {id: Bde, name: Brigade, number: 2, count: 4,", "  - {id: Bde, number: 2, count: 4,")
    problem = error.problems[0]
    assert problem.path == "pieces[1]" and "missing key 'name'" in problem.message
    assert problem.line == line_of(text, "id: Bde")


def test_wrong_type_names_key_and_line(tmp_path):
    error, text = refused(tmp_path, TRI, "name: Division, number: 3, count: 3", "name: Division, number: 3, count: three")
    problem = error.problems[0]
    assert problem.path == "pieces[2].count" and "expected a whole number" in problem.message
    assert problem.line == line_of(text, "count: three")
    assert f"broken.yaml:{problem.line}: pieces[2].count" in str(error)


def test_unknown_piece_in_the_value_table(tmp_path):
    error, text = refused(tmp_path, TRI, "      HA:   [.,  HA,", "      Hx:   [.,  HA,")
    messages = [str(p) for p in error.problems]
    assert any("combat.table.rows.Hx" in m and "unknown piece id 'Hx'" in m for m in messages)
    hx = next(p for p in error.problems if p.path == "combat.table.rows.Hx")
    assert hx.line == line_of(text, "Hx:")


def test_counts_that_do_not_fit_the_setup_zone(tmp_path):
    error, _text = refused(tmp_path, TRI, "name: Battalion, number: 1, count: 5", "name: Battalion, number: 1, count: 9")
    assert any("do not fit" in p.message and p.path == "pieces" for p in error.problems)


def test_asymmetric_table_must_declare_itself(tmp_path):
    error, text = refused(tmp_path, TRI, "      AC:   [4,  4,  4,  X,  5,  .,  4,", "      AC:   [4,  4,  4,  X,  5,  4,  .,")
    assert any("asymmetric cell" in p.message and "AA" in p.message for p in error.problems)
    declared = text.replace("  table:\n", "  table:\n    asymmetric: true\n", 1)
    assert load_variant_file(_write(tmp_path, declared)).name == "tri-tactics"


def test_every_problem_is_reported_not_just_the_first(tmp_path):
    # Type problems are all found in one pass over the file, before the rules are compiled.
    text = _variant_text().replace("count: 5, service", "count: x, service").replace("service: Auxiliary", "service: [Nope]")
    with pytest.raises(VariantError) as err:
        load_variant_file(_write(tmp_path, text))
    assert len(err.value.problems) >= 2
    assert {p.path for p in err.value.problems} >= {"pieces[0].count", "pieces[17].service"}


def test_unknown_option_is_refused():
    with pytest.raises(OptionError, match="unknown option .no-such."):
        load_variant("tri-tactics", {"no-such": True})


@pytest.mark.parametrize("text", ["", "e5", "e5-", "e5-e6x", "e5–e6", "e5-e6-e7", "5e-6e", 42])
def test_malformed_notation(text):
    with pytest.raises(NotationError):
        Move.parse(text)


@pytest.fixture
def game():
    variant = load_variant("tri-tactics")
    rng = random.Random(2)
    setups = {p: random_setup(variant, p, rng) for p in variant.players}
    state = GameState.from_setups(variant, setups, "blue")
    state.setups = setups
    return state


def _snapshot(state):
    return (state.position(), state.to_move, state.ply, state.revealed[:], len(state.history))


@pytest.mark.parametrize(("move", "reason"), [
    ("a6-a7", "no piece on a6"),
    ("a8-a7", "red's and it is blue's turn"),
    ("a1-b2", "cannot move diagonally"),
    ("a1-a3", "one square at a time"),
    ("a1-a2", "occupied"),
    ("q1-a2", "not on this"),
])
def test_illegal_move_names_move_and_reason_and_changes_nothing(game, move, reason):
    before = _snapshot(game)
    with pytest.raises((IllegalMoveError, NotationError)) as err:
        game.play(move)
    assert reason in str(err.value)
    if isinstance(err.value, IllegalMoveError):
        assert err.value.move == move
    assert _snapshot(game) == before


def test_moves_after_the_game_ended_are_refused():
    variant = load_variant("tri-tactics")
    state = GameState.from_position(variant, {"e12": "blue Bn", "a1": "blue Bn", "l12": "red Bn"}, "blue")
    state.play("e12-f12")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.play("l12-l11")


def _record(game) -> GameRecord:
    return GameRecord(variant="tri-tactics", setups=game.setups, moves=[], first="blue")


@pytest.mark.parametrize("text", ["{", "[]", '{"format": "other"}', '{"format": "gibson-record/1"}',
                                  '{"format": "gibson-record/1", "variant": "tri-tactics", "setups": [], "moves": []}',
                                  '{"format": "gibson-record/1", "variant": "tri-tactics", "setups": {}, "moves": [1]}'])
def test_corrupt_records_are_refused(text):
    with pytest.raises(RecordError):
        parse_record(text)


def test_record_with_an_illegal_or_malformed_move_names_its_ply(tmp_path, game):
    record = _record(game)
    first = next(str(m) for m in GameState.from_setups(game.variant, record.setups, "blue").legal_moves())
    for bad, words in (("e5-e6-e7", "malformed"), ("a1-a9", "illegal")):
        record.moves = [first, bad]
        path = tmp_path / "game.json"
        record.save(path)
        with pytest.raises(RecordError, match=f"ply 2: {words}"):
            load_game(path)


def test_a_corrupt_save_does_not_touch_the_game_in_progress(tmp_path, game):
    before = _snapshot(game)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "gibson-record/1", "variant": "nope", "setups": {}, "moves": []}))
    with pytest.raises(RecordError):
        load_game(path)
    assert _snapshot(game) == before


def test_setup_errors_are_precise():
    variant = load_variant("tri-tactics")
    setup = random_setup(variant, "blue", 1)
    square = next(iter(setup))
    wrong_zone = dict(setup)
    wrong_zone["a10"] = wrong_zone.pop(square)
    with pytest.raises(SetupError, match="a10 is outside blue's set-up zone"):
        validate_setup(variant, "blue", wrong_zone)
    short = dict(setup)
    short.pop(square)
    with pytest.raises(SetupError, match="wrong number of pieces"):
        validate_setup(variant, "blue", short)
    on_hq = dict(setup)
    free = next(s for s in ("f1",) if s not in on_hq)
    on_hq[free] = on_hq.pop(square)
    with pytest.raises(SetupError, match="f1 is outside"):
        validate_setup(variant, "blue", on_hq)


def test_corrupt_setup_file(tmp_path):
    variant = load_variant("tri-tactics")
    path = tmp_path / "s.yaml"
    path.write_text("pieces: [1, 2")
    with pytest.raises(RecordError):
        load_setup(path, variant)
    path.write_text(yaml.safe_dump({"variant": "tri-tactics", "player": "blue", "pieces": {"a1": "Zz"}}))
    with pytest.raises(SetupError, match="unknown piece 'Zz'"):
        load_setup(path, variant)
