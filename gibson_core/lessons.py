"""Lessons: small positions that teach one rule each, written as data beside a variant's YAML.

A variant package may ship ``lessons.yaml`` next to its rules file::

    variant: tri-tactics
    lessons:
      - title: Attack after moving
        prompt: Move the Battalion up to e6 and attack the Brigade on e7 from there.
        position: {e5: blue Bn, e7: red Bde, a1: blue Bn, l12: red Bn}   # a conformance-vector position
        to_move: blue
        moves: [e5-e6xe7]                  # the move (or moves) the lesson asks for
        hint: A piece attacks after moving, from its new square.
        expect: {position: {e6: blue Bn, a1: blue Bn, l12: red Bn}}       # checked by the tests

The position uses the conformance-vector format (``gibson_core.check``): ``position``, ``to_move``,
``options`` and any variant-specific vector keys (Dover Patrol's ``flags``). ``before`` lists moves played
silently to reach the lesson's position (a Ship's way up a river); ``hidden`` lists the enemy pieces left face
down (every other piece is shown, as a teacher would lay the position out); ``note`` is optional extra
commentary. What happened, and the rule that decided it, is never written in the lesson: the window shows
the engine's own events and their reasons. ``expect`` uses the vectors' expectations (``position``,
``winner``, ``revealed``, ``legal_count`` and variant keys), checked after each listed move.

:func:`load_lessons` validates a file like a variant file: errors are :class:`VariantError` naming the
file, the key path and the line.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from . import events as ev
from .check import CASE_KEYS, build_case_state, check_expectations
from .errors import GibsonError, IllegalMoveError, NotationError, Problem, VariantError
from .moves import Move
from .plugins import load_variant, variant_specs
from .state import GameState
from .yamlfile import YamlDoc, read_yaml

LESSONS_FILE = "lessons.yaml"
LESSON_KEYS = {"title", "prompt", "position", "to_move", "options", "before", "moves", "hint", "note", "hidden",
               "expect"}
REQUIRED = ("title", "prompt", "position", "moves", "hint")
MAX_LESSONS = 200  # a file is read whole; this bounds the work of validating it


@attrs.frozen
class Lesson:
    """One lesson: where it starts, what to try, the accepted moves and a hint for a wrong one."""

    variant: str
    title: str
    prompt: str
    hint: str
    answers: tuple  # Move
    case: dict = attrs.field(repr=False)  # position, to_move, options and variant keys, as a vector case
    before: tuple = ()  # Move, played silently to reach the position
    hidden: tuple = ()  # squares of enemy pieces left face down
    note: str = ""
    expect: dict = attrs.field(factory=dict, repr=False)

    @property
    def player(self) -> str:
        """The side the learner plays."""
        return self.start().player

    def start(self) -> GameState:
        """A fresh state at the lesson's position: the case built, ``before`` played, pieces shown."""
        state = build_case_state(self.variant, self.case)
        for move in self.before:
            state.play(move)
        hidden = {state.grid.index[s] for s in self.hidden}
        for pid in range(1, len(state.owner)):
            sq = state.square[pid]
            if sq >= 0 and sq not in hidden:
                state.reveal(pid, [], "lesson")
        return state

    def is_answer(self, move: Move) -> bool:
        """True when ``move`` is one the lesson asks for."""
        return move in self.answers

    def attempt(self, state: GameState, move: Move, by: str | None = None) -> tuple[bool, tuple]:
        """Try ``move`` submitted ``by`` a player on ``state`` (from :meth:`start`): ``(True, events)`` when it
        is an answer (then it is played), ``(False, ())`` for any other move, which is not played."""
        if not self.is_answer(move):
            return False, ()
        return True, state.play(move, by=by)


def reasons(events) -> list[str]:
    """The engine's own words for what a ply did: every reason its events give, in order, once each."""
    out: list[str] = []
    for e in events:
        text = ""
        if isinstance(e, ev.TokenMoved):
            text = f"{e.token} Flag: {e.reason}" if e.reason else ""
        elif isinstance(e, ev.Removed | ev.Retreated | ev.GameOver):
            text = e.reason
        elif isinstance(e, ev.Revealed) and e.reason not in ("", "combat", "lesson"):
            text = f"{e.type} on {e.square} revealed: {e.reason}"
        if text and text not in out:
            out.append(text)
    return out


def deciding_rule(state: GameState, events) -> str:
    """Which rule decided the fight of the ply whose ``events`` these are, in words ("" when the ply had no
    fight): the variant's combat rule by its number and name, the Value Table, or the values."""
    if not any(isinstance(e, ev.Attacked) for e in events) or state.last_outcome is None:
        return ""
    rule = state.last_outcome.rule
    if rule == "table":
        return "the Value Table"
    if rule == "values":
        return "the values: the higher wins, equal values remove both"
    names = [r.get("name") for r in (state.variant.data.get("combat") or {}).get("rules") or [] if isinstance(r, dict)]
    return f"combat rule {names.index(rule) + 1}: {rule}" if rule in names else rule


def lessons_path(variant_name: str) -> Path | None:
    """Where a registered variant's lessons file would be (beside its YAML), or None if it has none."""
    spec = variant_specs().get(variant_name)
    if spec is None:
        return None
    path = Path(spec.path).parent / LESSONS_FILE
    return path if path.is_file() else None


def load_lessons(variant_name: str) -> list[Lesson]:
    """The lessons of a registered variant (``[]`` when it ships none); VariantError for a bad file."""
    path = lessons_path(variant_name)
    return [] if path is None else read_lessons(path, variant_name)


def read_lessons(path: str | Path, variant_name: str | None = None) -> list[Lesson]:
    """Read and validate a lessons file; every problem is reported at once with file, key path and line."""
    doc = read_yaml(path)
    problems: list[Problem] = []
    data = doc.data
    if not isinstance(data, dict):
        raise VariantError(doc.problem((), "a lessons file is a mapping with 'variant' and 'lessons'"))
    for key in sorted(set(data) - {"variant", "lessons"}, key=str):
        problems.append(doc.problem((key,), f"unknown key {str(key)[:40]!r} (keys: variant, lessons)"))
    name = data.get("variant")
    if not isinstance(name, str):
        problems.append(doc.problem(("variant",), "expected the name of a registered variant"))
    elif variant_name is not None and name != variant_name:
        problems.append(doc.problem(("variant",), f"expected 'variant: {variant_name}', got {str(name)[:40]!r}"))
    elif name not in variant_specs():
        problems.append(doc.problem(("variant",), f"unknown variant {str(name)[:40]!r}"))
    items = data.get("lessons")
    if not isinstance(items, list) or not items:
        problems.append(doc.problem(("lessons",), "expected a list of lessons"))
    elif len(items) > MAX_LESSONS:
        problems.append(doc.problem(("lessons",), f"at most {MAX_LESSONS} lessons in a file"))
    if problems:
        raise VariantError(problems)
    load_variant(name)
    out = []
    for i, item in enumerate(items):
        lesson = _lesson(doc, name, ("lessons", i), item, problems)
        if lesson is not None:
            out.append(lesson)
    if problems:
        raise VariantError(problems)
    return out


def _text(doc: YamlDoc, path: tuple, value, problems: list, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        problems.append(doc.problem(path, "expected some text"))
        return ""
    return " ".join(value.split())


def _moves(doc: YamlDoc, path: tuple, value, problems: list) -> tuple:
    if value is None:
        return ()
    if not isinstance(value, list):
        problems.append(doc.problem(path, "expected a list of moves in notation"))
        return ()
    out = []
    for j, text in enumerate(value):
        try:
            out.append(Move.parse(str(text)))
        except NotationError as exc:
            problems.append(doc.problem(path + (j,), str(exc)))
    return tuple(out)


def _lesson(doc: YamlDoc, variant_name: str, path: tuple, item, problems: list) -> Lesson | None:
    if not isinstance(item, dict):
        problems.append(doc.problem(path, "a lesson is a mapping (title, prompt, position, moves, hint...)"))
        return None
    before_count = len(problems)
    for key in REQUIRED:
        if key not in item:
            problems.append(doc.problem(path, f"missing key {key!r}"))
    variant = load_variant(variant_name)
    case = {k: v for k, v in item.items() if k in CASE_KEYS - {"name", "moves", "expect"} or k not in LESSON_KEYS}
    title = _text(doc, path + ("title",), item.get("title"), problems)
    prompt = _text(doc, path + ("prompt",), item.get("prompt"), problems)
    hint = _text(doc, path + ("hint",), item.get("hint"), problems)
    note = _text(doc, path + ("note",), item.get("note"), problems, required=False)
    answers = _moves(doc, path + ("moves",), item.get("moves"), problems)
    if "moves" in item and not answers and len(problems) == before_count:
        problems.append(doc.problem(path + ("moves",), "a lesson needs at least one move to ask for"))
    before = _moves(doc, path + ("before",), item.get("before"), problems)
    hidden = item.get("hidden") or []
    if not isinstance(hidden, list) or any(str(s) not in variant.grid.index for s in hidden):
        problems.append(doc.problem(path + ("hidden",), "expected a list of squares"))
        hidden = []
    expect = item.get("expect") or {}
    if not isinstance(expect, dict):
        problems.append(doc.problem(path + ("expect",), "expected a mapping of vector expectations"))
        expect = {}
    if not isinstance(item.get("options", {}), dict):
        problems.append(doc.problem(path + ("options",), "expected a mapping {option: value}"))
    if not isinstance(item.get("position"), dict):
        problems.append(doc.problem(path + ("position",), "expected a mapping {square: '<player> <piece id>'}"))
    if len(problems) > before_count:
        return None
    lesson = Lesson(variant_name, title, prompt, hint, answers, case, before, tuple(str(s) for s in hidden), note,
                    expect)
    plain = {k: v for k, v in case.items() if k in CASE_KEYS}
    try:
        state = build_case_state(variant_name, plain)
    except GibsonError as exc:
        problems.append(doc.problem(path + ("position",), f"cannot set up the position: {exc}"))
        return None
    for key in sorted(case.keys() - plain.keys(), key=str):  # variant keys (Dover Patrol's flags): the variant's hook decides
        try:
            state = build_case_state(variant_name, {**plain, key: case[key]})
        except GibsonError as exc:
            problems.append(doc.problem(path + (key,), str(exc)))
    if len(problems) > before_count:
        return None
    state = build_case_state(variant_name, case)
    for j, move in enumerate(before):
        try:
            state.play(move)
        except IllegalMoveError as exc:
            problems.append(doc.problem(path + ("before", j), f"{move} cannot be played: {exc.reason}"))
            return None
    state = lesson.start()
    legal = set(state.legal_moves())
    for j, move in enumerate(answers):
        if move not in legal:
            problems.append(doc.problem(path + ("moves", j), f"{move} is not legal in the lesson's position: "
                                        f"{state.explain_illegal(move)}"))
    return lesson if len(problems) == before_count else None


def check_lesson(lesson: Lesson) -> str:
    """Play every answer of a lesson through the engine: "" when each one is legal, says what happened
    (an event with a reason, or the end of the game) and meets the lesson's ``expect``; else the problem."""
    for move in lesson.answers:
        state = lesson.start()
        try:
            events = state.play(move)
        except IllegalMoveError as exc:
            return f"{lesson.title}: {move} was refused: {exc.reason}"
        if not reasons(events) and not lesson.expect:
            return f"{lesson.title}: {move} did nothing a rule explains (no event with a reason, no 'expect')"
        problem = check_expectations(state, lesson.expect, lesson.variant)
        if problem:
            return f"{lesson.title}: after {move}: {problem}"
    return ""
