"""``gibson rules VARIANT``: the pieces and the value table, readable in a terminal."""

from __future__ import annotations


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
    table = (variant.data.get("combat") or {}).get("table")
    if table:
        cols = table["columns"]
        w = max(4, max(len(c) for c in cols) + 1)
        lines += ["", "Value Table (row attacks column; X both removed, . nothing, else the winner):",
                  " " * w + "".join(f"{c:>{w}}" for c in cols)]
        for row_id, row in table["rows"].items():
            lines.append(f"{row_id:<{w}}" + "".join(f"{str(c):>{w}}" for c in row))
    rules = (variant.data.get("combat") or {}).get("rules") or []
    if rules:
        lines += ["", "Combat rules, applied in this order before the table:"]
        lines += [f"  {i}. {r.get('name', '')}" for i, r in enumerate(rules, start=1)]
    if (variant.data.get("combat") or {}).get("values"):
        lines += ["", "Numbered pieces: the higher value wins; equal values remove both."]
    return "\n".join(lines)
