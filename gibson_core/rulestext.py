"""``gibson rules VARIANT``: the pieces and the value table, readable in a terminal."""

from __future__ import annotations

from .valuetable import marks_legend, table_rows


def rules_text(variant) -> str:
    """Pieces (id, name, count, service, movement) and, when the variant has one, its value table."""
    lines = [f"{variant.title} ({variant.name})", variant.description, ""]
    lines.append(f"Board {variant.grid.files}x{variant.grid.ranks}; {variant.piece_count} pieces a side; "
                 f"players {' and '.join(variant.players)}")
    if variant.options:
        lines.append("Options: " + ", ".join(f"{k}={v}" for k, v in variant.options.items()))
    lines.append("")
    lines.append(f"{'id':<7}{'name':<28}{'count':>5}  {'service':<14}{'moves':<12}{'value':>6}")
    for t in variant.types:
        move = t.movement.kind + (f" {t.movement.distance}" if t.movement.kind == "jump" else "")
        value = "" if t.value is None else f"{t.value:g}"
        lines.append(f"{t.id:<7}{t.name:<28}{t.count:>5}  {t.service:<14}{move:<12}{value:>6}")
    lines += ["", *value_table_lines(variant)]
    rules = (variant.data.get("combat") or {}).get("rules") or []
    if rules:
        lines += ["", "Combat rules, applied in this order before the table:"]
        lines += [f"  {i}. {r.get('name', '')}" for i, r in enumerate(rules, start=1)]
    if (variant.data.get("combat") or {}).get("values"):
        lines += ["", "Numbered pieces: the higher value wins; equal values remove both."]
    return "\n".join(lines)


def value_table_lines(variant) -> list[str]:
    """The Value Table (the printed one, else the compiled results) and the legend of its symbols."""
    rows = table_rows(variant)
    ids = [tid for tid, _cells in rows]
    w = max(4, max(len(c) for c in ids) + 1)
    lines = ["Value Table (row attacks column):", " " * w + "".join(f"{c:>{w}}" for c in ids)]
    for tid, cells in rows:
        lines.append(f"{tid:<{w}}" + ("".join(f"{c:>{w}}" for c in cells) if cells else "  never attacks"))
    lines += ["", "Legend:"]
    width = max(len(sym) for sym, _words in marks_legend(variant))
    lines += [f"  {sym:<{width}}  {words}" for sym, words in marks_legend(variant)]
    return lines
