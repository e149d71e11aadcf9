"""Records and set-up files with wrong fields: a RecordError that names the field, never a traceback."""

import json

import pytest

from gibson_core import load_variant
from gibson_core.ai import make_agent
from gibson_core.errors import RecordError, SetupError
from gibson_core.match import play_match
from gibson_core.record import load_record, parse_record
from gibson_core.setup import load_setup, save_setup, validate_setup


@pytest.fixture(scope="module")
def good():
    variant = load_variant("dover-patrol", {"ply-limit": 40})
    record, _state = play_match(variant, [make_agent("random"), make_agent("random")], seed=3)
    return json.loads(record.to_json())


def _replayed(data):
    return parse_record(json.dumps(data), "g.json").replay()


@pytest.mark.parametrize(("field", "value", "words"), [
    ("options", [1], "options: expected a mapping"),
    ("options", {"ply-limit": "forty"}, "ply-limit"),
    ("options", {"ply-limit": -5}, "ply-limit"),
    ("variant", 7, "variant: expected a variant name"),
    ("variant", "x" * 20_000_000, "too large for a game record"),
    ("variant", "x" * 2_000_000, "variant: expected a variant name of at most"),
    ("variant", "Dover-Patrol", "did you mean 'dover-patrol'"),
    ("result", "blue", "result: expected a mapping"),
    ("result", {"winner": 5, "reason": "x"}, "result.winner"),
    ("result", {"winner": "green", "reason": "x"}, "result.winner: dover-patrol has no player 'green'"),
    ("tokens", {"flag:blue": 5}, "tokens.flag:blue: expected a list"),
    ("tokens", {"flag:blue": [5]}, "tokens.flag:blue: expected parts like"),
    ("tokens", {"flag:blue": ["z99", 0, False]}, "not a square"),
    ("tokens", {"flag:blue": ["c3", 10**6, False]}, "no piece of this game"),
    ("tokens", {"nope": ["c3"]}, "has no such token"),
    ("first", 1, "first: expected a player name"),
    ("first", "green", "first: dover-patrol has no player 'green'"),
    ("seed", "x", "seed: expected"),
    ("moves", "e5-e6", "moves: expected a list"),
    ("moves", [5], r"moves\[0\]: expected a move"),
    ("moves", ["e5-e6"], "ply 1"),
    ("setups", [], "setups: expected a mapping"),
    ("setups", {"blue": {"a1": 5}}, r"setups.blue.a1: expected a piece id"),
])
def test_every_field_is_checked_with_its_name(good, field, value, words):
    bad = dict(good, **{field: value})
    with pytest.raises(RecordError, match=words) as err:
        _replayed(bad)
    assert len(str(err.value)) < 400


def test_a_setup_for_a_player_the_variant_lacks_is_refused(good):
    bad = dict(good, setups={**good["setups"], "green": good["setups"]["blue"]})
    with pytest.raises(RecordError, match="setups: dover-patrol has no player 'green'"):
        _replayed(bad)


@pytest.mark.parametrize("text", ["[" * 100_000, "{\"format\": " + "9" * 5000 + "}", "not json", "null", "[]"])
def test_malformed_json_is_a_record_error(text):
    with pytest.raises(RecordError):
        parse_record(text)


def test_a_huge_record_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(" " * 5_000_000)
    with pytest.raises(RecordError, match="too large"):
        load_record(path)


def test_a_good_record_still_replays(good):
    assert _replayed(good).ply == len(good["moves"])


# -- set-up files ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tri():
    return load_variant("tri-tactics")


@pytest.mark.parametrize(("text", "words"), [
    ("pieces: [a, b]\n", "pieces: expected a mapping"),
    ("pieces: {a1: [Bn]}\n", "pieces.a1: expected a piece id"),
    ("player: green\npieces: {a1: Bn}\n", "has no player 'green'"),
    ("variant: lattaque\npieces: {a1: Bn}\n", "is for 'lattaque'"),
    ("a: &a [1, *a]\npieces: {}\n", "refers to a value that contains it"),
    ("pieces: {a1: Bn\n", "not valid YAML"),
    ("pieces: !!python/object:os.system {}\n", "is not allowed"),
])
def test_bad_setup_files_name_the_problem_in_one_line(tmp_path, tri, text, words):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises((RecordError, SetupError), match=words) as err:
        load_setup(path, tri, "blue")
    assert "\n" not in str(err.value)


def test_setups_with_wrong_types_or_twice_the_same_square(tri, tmp_path):
    with pytest.raises(SetupError, match="same square"):
        validate_setup(tri, "blue", {"a1": "Bn", "A1": "Bn"})
    with pytest.raises(SetupError, match="as text"):
        validate_setup(tri, "blue", {"a1": ["Bn"]})
    with pytest.raises(SetupError, match="not a player"):
        validate_setup(tri, ["blue"], {})
    from gibson_core.setup import random_setup

    setup = random_setup(tri, "blue", 1)
    save_setup(tmp_path / "ok.yaml", tri, "blue", setup)
    assert load_setup(tmp_path / "ok.yaml", tri) == ("blue", setup)
