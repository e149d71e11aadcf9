"""Classes of bad input found by the QA pass: wrong-shaped arguments to the public constructors, hostile
JSON in every reader of untrusted JSON, a path of one square, and wrong-shaped expectations. Each ends in a
Gibson error with words, and a refused input changes no game in progress."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gibson_core import GameState, GibsonError, load_variant
from gibson_core.check import check_expectations
from gibson_core.errors import VariantError
from gibson_core.net.protocol import decode_server_message, parse_client_message
from gibson_core.options import OptionText, decode_text
from gibson_core.plugins import variant_specs
from gibson_core.record import parse_record
from gibson_core.setup import mirror_setup, random_setup
from gibson_core.variant import compile_variant
from gibson_core.yamlfile import YamlDoc, read_yaml

SHAPES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                   st.lists(st.text(max_size=3), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@pytest.fixture(scope="module")
def game():
    variant = load_variant("lattaque")
    rng = random.Random(2)
    return GameState.from_setups(variant, {p: random_setup(variant, p, rng) for p in variant.players})


@settings(derandomize=True, database=None, deadline=None, max_examples=60)
@given(value=SHAPES)
def test_public_constructors_refuse_any_wrong_shape_with_a_gibson_error(game, value):
    variant = game.variant
    before = (game.position(), game.ply, game.player)
    calls = [lambda: GameState(variant, value), lambda: GameState.from_setups(variant, value),
             lambda: GameState.from_position(variant, value), lambda: random_setup(variant, value),
             lambda: random_setup(variant, "blue", value if not isinstance(value, (int, type(None))) else "x"),
             lambda: mirror_setup(variant, value),
             lambda: GameState.from_setups(variant, {p: random_setup(variant, p, 1) for p in variant.players},
                                           None, value if value else [1])]
    for call in calls:
        try:
            call()
        except GibsonError as exc:
            assert len(str(exc)) < 300
    assert (game.position(), game.ply, game.player) == before


HOSTILE_JSON = ["[" * 100_000 + "]" * 100_000, '{"type": "hello", "id": ' + "9" * 5000 + "}",
                '{"a": ' + "[" * 5000 + "]" * 5000 + "}", "1e99999", "NaN", '"\\ud800"']


@pytest.mark.parametrize("text", HOSTILE_JSON, ids=range(len(HOSTILE_JSON)))
def test_hostile_json_is_a_gibson_error_in_every_reader(text, tmp_path, monkeypatch):
    for read in (parse_client_message, decode_server_message, parse_record):
        try:
            read(text)
        except GibsonError as exc:
            assert len(str(exc)) < 400
    assert isinstance(decode_text(OptionText(text)), (str, int, float, list, dict))
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    from gibson_pygame.savegame import read_save

    path = tmp_path / "g.json"
    for doc in (text, json.dumps({"format": "gibson-save/1", "sealed": text})):
        path.write_text(doc)
        with pytest.raises(GibsonError):
            read_save(path)


@pytest.mark.parametrize("squares", ["a1", [], ["f4"]])
def test_a_path_needs_two_squares_and_a_known_player(squares):
    spec = variant_specs()["tri-tactics"]
    doc = read_yaml(spec.path)
    for player, value in (("blue", squares), ("green", ["f4", "f3"])):
        data = json.loads(json.dumps(doc.data))
        data["paths"]["river"][player] = value
        with pytest.raises(VariantError, match="paths.river"):
            compile_variant(YamlDoc(data, doc.lines, doc.file), None, spec)


@pytest.mark.parametrize("expect", [{"position": True}, {"position": ["a1"]}, {"revealed": "a1"},
                                    {"revealed": [1]}, {"legal_count": "many"}])
def test_a_wrong_shaped_expectation_is_a_failed_check_with_words(game, expect):
    problem = check_expectations(game, expect, "lattaque")
    assert problem.startswith(next(iter(expect))) and "expected" in problem


def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, (*path, i))


LESSON_DOCS = {spec.name: read_yaml(Path(spec.path).parent / "lessons.yaml")
               for spec in variant_specs().values() if (Path(spec.path).parent / "lessons.yaml").is_file()}
LESSON_PATHS = [(name, p) for name, doc in sorted(LESSON_DOCS.items()) for p in _paths(doc.data) if p]
WRONG = st.sampled_from([None, True, 0, -1, 1.5, "", "two", "a1", "a1-a2", "zz99", [], [1], ["a1-a2"], {}, {"a": 1},
                         {"blue": "a1"}, "x" * 300])


@settings(derandomize=True, database=None, deadline=None, max_examples=40)
@given(where=st.sampled_from(LESSON_PATHS), value=WRONG)
def test_any_value_at_any_key_path_of_a_shipped_lessons_file(where, value):
    import tempfile

    import yaml

    from gibson_core.lessons import check_lesson, read_lessons

    name, path = where
    data = json.loads(json.dumps(LESSON_DOCS[name].data))
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "lessons.yaml"
        file.write_text(yaml.safe_dump(data))
        try:
            for lesson in read_lessons(file, name):
                lesson.start()
                check_lesson(lesson)
        except GibsonError as exc:
            assert len(str(exc)) < 5000


@pytest.mark.parametrize("flags", [True, {"a": 1}, [1]])
def test_wrong_flags_in_a_lesson_are_refused_with_words(flags):
    import yaml

    from gibson_core.lessons import read_lessons

    doc = LESSON_DOCS["dover-patrol"]
    data = json.loads(json.dumps(doc.data))
    lesson = next(item for item in data["lessons"] if "flags" in item)
    lesson["flags"] = flags
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "lessons.yaml"
        file.write_text(yaml.safe_dump(data))
        with pytest.raises(GibsonError, match="flags"):
            for item in read_lessons(file, "dover-patrol"):
                item.start()


@pytest.mark.parametrize("value", [[1], True, b"1", 2.5, {"a": 1}])
def test_rl_environments_refuse_wrong_types_with_gibson_errors(value):
    pytest.importorskip("gymnasium")
    import gibson_rl  # noqa: F401  (registers the environments)
    import gymnasium
    from gibson_rl.core import Episode

    calls = [lambda: Episode(value), lambda: Episode("lattaque", value), lambda: Episode("lattaque").reset(value),
             lambda: gymnasium.make("gibson/lattaque-v0", opponent=value)]
    for call in calls:
        with pytest.raises(GibsonError):
            call()


@pytest.mark.parametrize("url", [None, "notaurl", "http://x", "ws://h:0", "ws://h:99999", "x" * 5000])
def test_the_client_library_refuses_a_wrong_address_before_dialling(url):
    from gibson_core.net.client import GameClient

    with pytest.raises(GibsonError, match="server address") as err:
        GameClient(url)
    assert len(str(err.value)) < 200
