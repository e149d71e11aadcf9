"""The conformance-vector runner behind ``gibson check`` (format: docs/vectors.md)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import attrs

from .errors import GibsonError, IllegalMoveError, VariantError, quote
from .moves import Move
from .plugins import load_variant
from .state import GameState
from .yamlfile import read_yaml

CASE_KEYS = {"name", "position", "to_move", "moves", "expect", "options"}
#: How the vector format writes a drawn result (player names can never be this word).
DRAW = "draw"
EXPECT_KEYS = {"illegal", "position", "winner", "legal_count", "revealed"}


@attrs.frozen
class CaseResult:
    """One case's verdict: ``problem`` is empty when it passed."""

    file: str
    name: str
    problem: str = ""

    @property
    def passed(self) -> bool:
        return not self.problem


def vector_options(variant_name: str, case_options: dict | None) -> dict:
    """Options for a vector case: the engine extensions off, then the case's own options."""
    base = load_variant(variant_name)
    options = {name: (0 if isinstance(spec.get("default"), int) and not isinstance(spec.get("default"), bool) else False)
               for name, spec in base.option_specs.items() if spec.get("extension")}
    options.update(case_options or {})
    return options


def build_case_state(variant_name: str, case: dict) -> GameState:
    """The starting state of a case: its options, position, side to move and variant-specific keys."""
    variant = load_variant(variant_name, vector_options(variant_name, case.get("options")))
    state = GameState.from_position(variant, case.get("position") or {}, case.get("to_move"))
    for key, value in case.items():
        if key in CASE_KEYS:
            continue
        handled = state._has.get("gibson_vector_setup") and state._hooks.gibson_vector_setup(
            state=state, key=key, value=value)
        if not handled:
            raise GibsonError(f"case key {quote(key)} is not known to {variant_name}")
    return state


def _snapshot(state: GameState) -> tuple:
    return (state.position(), state.to_move, state.ply, state.result, dict(state.tokens), state.revealed[:],
            state.moved[:], state.track[:], state.shuttle, state.quiet, len(state.history))


def _undo_problem(state: GameState, start: tuple, count: int) -> str:
    """After a case's moves: popping them all must give the starting state back exactly, and pushing them
    again the same end (every vector is a push/pop test too). "" when it does."""
    end = _snapshot(state)
    moves = [state.pop() for _ in range(count)][::-1]
    if _snapshot(state) != start:
        return "popping the moves did not restore the starting position exactly"
    for move in moves:
        state.push(move)
    if _snapshot(state) != end:
        return "pushing the moves again after popping them gave a different position"
    return ""


def run_case(variant_name: str, case: dict) -> str:
    """Run one case; returns "" when it passes, else what was expected and what happened."""
    state = build_case_state(variant_name, case)
    expect = case.get("expect") or {}
    moves = [Move.parse(str(m)) for m in case.get("moves") or []]
    if expect.get("illegal"):
        if not moves:
            return "an 'illegal' case needs at least one move"
        for i, move in enumerate(moves[:-1]):
            try:
                state.play(move)
            except IllegalMoveError as exc:
                return f"move {i + 1} ({move}) should be legal but was refused: {exc.reason}"
        before = _snapshot(state)
        try:
            state.play(moves[-1])
        except IllegalMoveError as exc:
            if not exc.reason:
                return f"{moves[-1]} was refused without a reason"
            if _snapshot(state) != before:
                return f"refusing {moves[-1]} changed the game"
            return ""
        return f"expected {moves[-1]} to be illegal, but it was played"
    start = _snapshot(state)
    for i, move in enumerate(moves):
        try:
            state.play(move)
        except IllegalMoveError as exc:
            return f"move {i + 1} ({move}) was refused: {exc.reason}"
    undo = _undo_problem(state, start, len(moves))
    return "; ".join(p for p in (undo, check_expectations(state, expect, variant_name)) if p)


EXPECT_SHAPES = {"position": (dict, "expected a mapping of squares to '<player> <piece>'"),
                 "revealed": (list, "expected a list of squares"),
                 "legal_count": (int, "expected a whole number")}


def check_expectations(state: GameState, expect: dict, variant_name: str) -> str:
    """Compare a state with a case's ``expect`` (position, winner, legal_count, revealed and variant keys):
    "" when everything holds, else what was expected and what was found."""
    problems = [f"{key}: {words}" for key, (kind, words) in EXPECT_SHAPES.items()
                if key in expect and expect[key] is not None and not isinstance(expect[key], kind)
                or key == "revealed" and isinstance(expect.get(key), list)
                and not all(isinstance(s, str) for s in expect[key])]
    if problems:  # a wrong shape (from a vector or lessons file) is a failed expectation with words
        return "; ".join(problems)
    if "position" in expect:
        want = {str(k).lower(): " ".join(str(v).split()) for k, v in (expect["position"] or {}).items()}
        got = state.position()
        if want != got:
            missing = {k: v for k, v in want.items() if got.get(k) != v}
            extra = {k: v for k, v in got.items() if want.get(k) != v}
            problems.append(f"position: expected {missing or '{}'} but found {extra or '{}'}")
    if "winner" in expect:
        result = state.outcome()
        got = (DRAW if result.is_draw else result.winner) if result else None
        if got != expect["winner"]:
            why = f" ({result.reason})" if result else ""
            problems.append(f"winner: expected {expect['winner']}, got {got}{why}")
    if "legal_count" in expect:
        state.outcome()
        got = len({str(m) for m in state.legal_moves()})
        if got != expect["legal_count"]:
            shown = " ".join(sorted(str(m) for m in state.legal_moves()))
            problems.append(f"legal_count: expected {expect['legal_count']}, got {got}: {shown}")
    if "revealed" in expect:
        want = {s.lower() for s in expect["revealed"] or []}
        got = {state.grid.names[state.square[pid]] for pid in range(1, len(state.owner))
               if state.square[pid] >= 0 and state.revealed[pid]}
        if want != got:
            problems.append(f"revealed: expected {sorted(want)}, got {sorted(got)}")
    for key, value in expect.items():
        if key in EXPECT_KEYS:
            continue
        actual = state._hooks.gibson_vector_expect(state=state, key=key) if state._has.get("gibson_vector_expect") else None
        if actual is None:
            problems.append(f"expect key {quote(key)} is not known to {variant_name}")
        elif actual != value:
            problems.append(f"{key}: expected {value}, got {actual}")
    return "; ".join(problems)


def run_file(path: str | Path) -> list[CaseResult]:
    """Run every case of a vector file. A file that cannot be read gives one failing result."""
    path = str(path)
    try:
        doc = read_yaml(path)
        data = doc.data
        if not isinstance(data, dict) or "variant" not in data or not isinstance(data.get("cases"), list):
            return [CaseResult(path, "<file>", "a vector file is a mapping with 'variant' and a list of 'cases'")]
        variant_name = data["variant"]
        load_variant(variant_name)
    except (GibsonError, VariantError) as exc:
        return [CaseResult(path, "<file>", str(exc))]
    results = []
    for i, case in enumerate(data["cases"]):
        name = str(case.get("name", f"case {i + 1}")) if isinstance(case, dict) else f"case {i + 1}"
        try:
            problem = run_case(variant_name, case) if isinstance(case, dict) else "a case is a mapping"
        except GibsonError as exc:
            problem = f"error: {exc}"
        except Exception as exc:  # a crash in the engine is a failing case, reported, not a traceback
            problem = f"engine crashed: {type(exc).__name__}: {exc}"
        results.append(CaseResult(path, name, problem))
    return results


def run_files(paths: Iterable[str | Path]) -> list[CaseResult]:
    """Run several vector files in order."""
    out: list[CaseResult] = []
    for path in paths:
        out.extend(run_file(path))
    return out
