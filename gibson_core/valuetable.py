"""The Value Table as players read it, shared by ``gibson rules`` and the window's overlay.

Rows attack, columns defend. A cell shows the variant's printed table when its data has one, else the
compiled result: the winner's id, ``X`` when both go, ``.`` when nothing happens, ``?`` when conditional
rules (terrain, coastline...) decide. :func:`marks_legend` says what every symbol shown means, in words,
taking the variant's own marks from its data's ``combat.marks``.
"""

from __future__ import annotations

from .combat import ATTACKER, DEFENDER

WIN, LOSE, BOTH, NONE, DEPENDS = "win", "lose", "both", "none", "depends"


def cell_result(variant, a: int, d: int) -> str:
    """``win``, ``lose``, ``both``, ``none`` or ``depends`` for type ``a`` attacking type ``d``."""
    rules, base = variant.combat_cells[a][d]
    outcome = base
    for rule in rules:  # the first rule without conditions decides; one with conditions makes it depend
        if rule.conditions:
            return DEPENDS
        outcome = rule.outcome
        break
    removed = set(outcome.removed)
    if removed == {DEFENDER}:
        return WIN
    if removed == {ATTACKER}:
        return LOSE
    if removed == {ATTACKER, DEFENDER}:
        return BOTH
    return NONE


def attacks(piece_type) -> bool:
    """False for types that never attack (they never move or have no attack): their row is blank."""
    return piece_type.can_attack and piece_type.mobile


def summary(variant, a: int) -> dict[str, list[str]]:
    """What type ``a`` beats, loses to, ties with (both removed) and where it depends, when it attacks."""
    out: dict[str, list[str]] = {"beats": [], "loses to": [], "ties with": [], "depends against": []}
    if not attacks(variant.types[a]):
        return out
    key = {WIN: "beats", LOSE: "loses to", BOTH: "ties with", DEPENDS: "depends against"}
    for d, t in enumerate(variant.types):
        res = cell_result(variant, a, d)
        if res in key:
            out[key[res]].append(t.id)
    return out


def printed_cells(variant) -> dict[tuple[str, str], str]:
    """The variant's own table cells, when its data prints a table."""
    table = ((variant.data.get("combat") or {}).get("table")) or {}
    columns = table.get("columns") or []
    out = {}
    for row_id, row in (table.get("rows") or {}).items():
        if isinstance(row, list):
            for col, cell in zip(columns, row, strict=False):
                out[(row_id, col)] = "" if cell is None else str(cell)
    return out


def symbol(variant, a: int, d: int, printed: dict | None = None) -> str:
    """The text of the cell where type ``a`` attacks type ``d`` (the printed cell when there is one)."""
    ta, td = variant.types[a], variant.types[d]
    printed = printed_cells(variant) if printed is None else printed
    if (ta.id, td.id) in printed:
        return printed[(ta.id, td.id)]
    res = cell_result(variant, a, d)
    return {WIN: ta.id, LOSE: td.id, BOTH: "X", NONE: ".", DEPENDS: "?"}[res]


def table_rows(variant) -> list[tuple[str, list[str] | None]]:
    """Every row as (type id, cells), cells None for a type that never attacks."""
    printed = printed_cells(variant)
    n = len(variant.types)
    return [(t.id, [symbol(variant, a, d, printed) for d in range(n)] if attacks(t) else None)
            for a, t in enumerate(variant.types)]


def marks_legend(variant) -> list[tuple[str, str]]:
    """``[(symbol, meaning in words)]`` for every kind of symbol the variant's table shows, in a fixed
    order: piece ids, numbers, ``X``, ``.``, blanks, ``?`` and then the variant's own marks."""
    marks = {str(k): str(v) for k, v in ((variant.data.get("combat") or {}).get("marks") or {}).items()}
    shown = {cell for _tid, cells in table_rows(variant) if cells for cell in cells}
    ids = {t.id for t in variant.types}
    out: list[tuple[str, str]] = []
    if shown & ids:
        out.append(("id", "a piece's id: that piece wins and the other is removed"))
    for digit in sorted((s for s in shown if s.isdigit() and s not in marks), key=int):
        carriers = [t.id for t in variant.types if t.number == int(digit)]
        out.append((digit, f"the piece numbered {digit} wins ({', '.join(carriers)})"))
    words = {"X": "both pieces are removed", ".": "nothing happens: both stay where they are",
             "": "(blank) nothing happens: both stay where they are",
             "?": "special combat rules decide (terrain, element, coastline): see the combat rules"}
    for sym, text in words.items():
        if sym in shown and sym not in marks:
            out.append((sym, text))
    for sym, text in marks.items():
        if sym in shown:
            out.append((sym, f"{text} (a combat rule decides; where none applies, nothing happens)"))
    if any(cells is None for _tid, cells in table_rows(variant)):
        out.append(("never attacks", "a piece that cannot move or attack has no row"))
    return out
