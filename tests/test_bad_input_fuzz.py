"""Property-based fuzzing of every input class: variant YAML (mutations of every shipped file at every key
path, and hostile shapes), records, set-ups, notation and command-line arguments. Only Gibson errors (or
argparse's exit 2) may come out, in bounded memory, and a refused input changes no game in progress.

The runs are derandomized (the same examples on every machine) and small enough for ``make test``. For a
long hunt, ``GIBSON_FUZZ_EXAMPLES=5000 pytest tests/test_bad_input_fuzz.py`` draws that many fresh random
examples per test instead.
"""

import contextlib
import copy
import json
import os
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gibson_core import GameState, GibsonError, Move, load_variant
from gibson_core.cli import main
from gibson_core.plugins import variant_specs
from gibson_core.record import parse_record
from gibson_core.setup import random_setup, validate_setup
from gibson_core.variant import compile_variant
from gibson_core.yamlfile import YamlDoc, parse_yaml, read_yaml

LONG = int(os.environ.get("GIBSON_FUZZ_EXAMPLES", "0"))
FUZZ = settings(derandomize=not LONG, database=None, deadline=None, max_examples=LONG or 60,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
MEMORY_LIMIT = 64_000_000

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 30), st.sampled_from([10**6, -(10**9), 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "two", "any", "a1", "a1-z99", "zz", "{attacker:>400000000}", "{piece.__class__}",
                     "{0}", "value>=3", "x" * 5000, "land", "sea", "setup", "blue", "red", "Bn", "step", "jump"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(["a", "kind", "blue", "x"]),
                                                                       inner, max_size=3)), max_leaves=8)


def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, path + (i,))


DOCS = {name: read_yaml(spec.path) for name, spec in sorted(variant_specs().items())}
PATHS = [(name, path) for name, doc in DOCS.items() for path in _paths(doc.data) if path]


def _within_memory(call):
    """Run ``call``; return what it returned or the GibsonError it raised, and its peak traced memory."""
    tracemalloc.start()
    try:
        try:
            outcome = call()
        except GibsonError as exc:
            outcome = exc
        return outcome, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@settings(FUZZ, max_examples=LONG or 120)
@given(where=st.sampled_from(PATHS), value=VALUES, option=st.booleans())
def test_any_value_at_any_key_path_of_a_shipped_variant(where, value, option):
    name, path = where
    doc = DOCS[name]
    data = copy.deepcopy(doc.data)
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    spec = variant_specs()[name]
    try:
        variant = compile_variant(YamlDoc(data, doc.lines, doc.file), None, spec)
        flags = [o for o, s in variant.option_specs.items() if isinstance(s, dict) and s.get("default") is False]
        if option and flags:
            compile_variant(YamlDoc(data, doc.lines, doc.file), {flags[0]: True}, spec)
    except GibsonError as exc:
        assert len(str(exc)) < 20_000


def _hostile_yaml(draw):
    depth = draw(st.integers(0, 120))
    fan = draw(st.integers(1, 12))
    levels = draw(st.integers(0, 10))
    tag = draw(st.sampled_from(["", "!!python/object:os.system ", "!x ", "!!binary ", "!!set ", "!!str ", "!!int "]))
    key = draw(st.sampled_from(["a", "? [a]\n", "? {a: 1}\n", "<<", "a"]))
    text = f"root: {tag}" + "[" * depth + "1" + "]" * depth + "\n"
    text += "l0: &l0 [x, y]\n" + "".join(
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * fan) + "]\n" for i in range(1, levels + 1))
    if key.startswith("?"):
        text += key + ": 1\n"
    else:
        text += f"{key}: *l0\n" + draw(st.sampled_from(["", "root: 2\n", "self: &s [*s]\n"]))
    return text


@FUZZ
@given(text=st.composite(_hostile_yaml)())
def test_hostile_yaml_shapes_end_in_bounded_memory(text):
    outcome, peak = _within_memory(lambda: parse_yaml(text, "hostile.yaml"))
    assert peak < MEMORY_LIMIT
    assert isinstance(outcome, YamlDoc | GibsonError)


@FUZZ
@given(text=st.text(max_size=300))
def test_arbitrary_text_as_a_variant_file(text):
    outcome, peak = _within_memory(lambda: parse_yaml(text, "t.yaml"))
    assert peak < MEMORY_LIMIT
    if isinstance(outcome, YamlDoc):
        with contextlib.suppress(GibsonError):
            compile_variant(outcome)


@pytest.fixture(scope="module")
def record_data():
    from gibson_core.ai import make_agent
    from gibson_core.match import play_match

    record, _ = play_match(load_variant("dover-patrol", {"ply-limit": 30}), [make_agent("random")] * 2, seed=1)
    return json.loads(record.to_json())


@FUZZ
@given(field=st.sampled_from(["variant", "setups", "moves", "options", "seed", "first", "result", "tokens"]),
       inner=st.booleans(), value=VALUES)
def test_any_value_in_any_record_field(record_data, field, inner, value):
    data = copy.deepcopy(record_data)
    if inner and isinstance(data.get(field), dict) and data[field]:
        data[field][sorted(data[field])[0]] = value
    elif inner and isinstance(data.get(field), list) and data[field]:
        data[field][0] = value
    else:
        data[field] = value
    try:
        text = json.dumps(data)
    except ValueError:
        return
    with contextlib.suppress(GibsonError):
        parse_record(text, "fuzz.json").replay()


@pytest.fixture(scope="module")
def game():
    variant = load_variant("tri-tactics")
    setups = {p: random_setup(variant, p, 9) for p in variant.players}
    state = GameState.from_setups(variant, setups, "blue")
    state.play(state.legal_moves()[0])
    return state


SQUARE_TEXT = st.one_of(st.sampled_from(["a1", "l12", "e5", "A1", " b2 ", "m1", "a0", "a13"]), st.text(max_size=6),
                        st.integers(), st.none())
PIECE_TEXT = st.one_of(st.sampled_from(["Bn", "Div", "Army", "XX", ""]), st.text(max_size=4), st.integers())


@FUZZ
@given(setup=st.dictionaries(SQUARE_TEXT, PIECE_TEXT, max_size=8), player=st.sampled_from(["blue", "red", "x", 3]))
def test_any_setup(game, setup, player):
    with contextlib.suppress(GibsonError):
        validate_setup(game.variant, player, setup)


@FUZZ
@given(text=st.one_of(st.text(max_size=20), st.sampled_from(["e5-e6", "a1-a2xa3", "d5@", "c4*f6", "c4>c5", "e5--e6"]),
                      st.integers(), st.none(), st.lists(st.text(max_size=3), max_size=2)),
       by=st.sampled_from([None, "blue", "red", "green", 5]))
def test_any_move_text_refused_changes_nothing(game, text, by):
    before = (game.position(), game.ply, game.to_move, len(game.history), dict(game.tokens), game.revealed[:])
    try:
        move = Move.parse(text)
        assert Move.parse(str(move)) == move
        game.play(move, by=by)
    except GibsonError:
        assert (game.position(), game.ply, game.to_move, len(game.history), dict(game.tokens),
                game.revealed[:]) == before
        return
    game.pop()  # a legal move: put the shared game back


class _Reached(Exception):
    """Raised where a command would start its work: every argument was accepted."""


WORK = ["gibson_core.match.play_match", "gibson_pygame.screenshot.render_position", "gibson_pygame.app.run",
        "gibson_core.bench.measure", "gibson_core.ai.arena.run_arena", "gibson_pygame.uibench.measure_frames"]
WORDS = ["tri-tactics", "dover-patrol", "Lattaque", "nope", "--option", "ply-limit=5", "ply-limit=-1",
         "first-capture=maybe", "--agents", "random,random", "random,foo", "search:iterations=2,random", "--as", "red",
         "RED", "all", "green", "--games", "0", "2", "--seconds", "-1", "0.01", "--ply", "-3", "3", "--level",
         "godlike", "hard", "--out", "/no/such/dir/x.png", "--record", "--seed", "x", "7", "--budget", "nan", "-v"]


@settings(FUZZ, max_examples=LONG or 40)
@given(command=st.sampled_from(["selfplay", "arena", "rules", "bench", "screenshot", "play", "replay", "uibench"]),
       words=st.lists(st.sampled_from(WORDS), max_size=7))
def test_any_command_line_is_refused_in_one_line_or_reaches_its_work(monkeypatch, capsys, command, words):
    import importlib

    for target in WORK:
        module, name = target.rsplit(".", 1)
        monkeypatch.setattr(importlib.import_module(module), name, _raise_reached)
    try:
        code = main([command, *words])
    except _Reached:
        return
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code in (0, 2), err
    if code == 2:
        assert err.count("\n") == 1 and "Traceback" not in err


def _raise_reached(*_args, **_kwargs):
    raise _Reached
