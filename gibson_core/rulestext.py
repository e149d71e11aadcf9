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


# -- the rules as a document (the window's Rules screen) -------------------------------------------------
RULES_PAGE = "rules.md"  # beside a variant's YAML, package data (the built-in ones are docs/rules/ pages)

FAMILY_RULES = (
    "A piece attacks after it moves, from its new square, an orthogonally adjacent enemy piece; it never "
    "attacks from where it stands.",
    "Both pieces in a fight are revealed; the winner stays where it stands.",
    "A move that wins by arriving ends the game at once and cannot carry an attack.",
    "A player with no legal move loses.",
)


def movement_words(piece_type) -> str:
    """How a piece type moves and attacks, in words."""
    m = piece_type.movement
    words = {
        "step": "moves one square orthogonally",
        "diagonal": "moves one square diagonally",
        "jump": f"always moves exactly {m.distance} squares in a straight line, over anything",
        "slide": "moves any distance in a straight line over empty squares",
        "none": "never moves",
    }.get(m.kind, m.kind)
    if m.kind == "slide" and m.long_needs_attack:
        words = "moves one square, or slides any distance in a straight line when it then attacks"
    if piece_type.confined_to:
        words += f", never leaving its {piece_type.confined_to.replace('-', ' ')}"
    if not piece_type.can_attack:
        words += "; never attacks"
    elif piece_type.attack == "diagonal":
        words += "; attacks diagonally"
    for action in piece_type.actions:
        kind = action.get("kind") if isinstance(action, dict) else str(action)
        if kind == "illuminate":
            words += f"; may Illuminate instead of moving (reveals enemy pieces within {action.get('radius', 1)})"
        elif kind == "fire":
            only = " revealed" if action.get("revealed_only") else ""
            words += f"; may Fire instead of moving at{only} pieces exactly {action.get('range')} squares away"
        else:
            words += f"; may {kind} instead of moving"
    for effect in piece_type.effects:
        kind = effect.get("kind") if isinstance(effect, dict) else str(effect)
        if kind == "destroy":
            words += "; destroys enemy pieces that end their move next to it"
        elif kind == "reveal":
            words += "; reveals enemy pieces that end their move next to it"
    return words


def rules_document(variant, page: str | None = None) -> list[tuple[str, str]]:
    """The rules of a variant as blocks ``(kind, text)``, kind one of ``h1``, ``h2``, ``p``, ``li``: built
    from the data (pieces with counts and movement, terrain, combat rules in order, how to win, options),
    then the variant's rules page (markdown, see :func:`rules_page`) when it has one."""
    data = variant.data
    out: list[tuple[str, str]] = [("h1", variant.title), ("p", " ".join(str(variant.description).split())),
                                  ("p", f"Board {variant.grid.files}x{variant.grid.ranks}; {variant.piece_count} "
                                        f"pieces a side; players {' and '.join(variant.players)}.")]
    out.append(("h2", "Pieces"))
    for t in variant.types:
        extra = [f"value {t.value:g}"] if t.value is not None else []
        extra += [f"native to the {t.element}"] if t.element else []
        head = f"{t.name} ({t.id}) x{t.count}" + (f", {t.service}" if t.service else "")
        desc = f" {t.description}" if t.description else ""
        out.append(("li", f"{head}{' (' + ', '.join(extra) + ')' if extra else ''}: {movement_words(t)}.{desc}"))
    terrain = data.get("terrain") or {}
    if terrain:
        out.append(("h2", "Terrain"))
        for kind in terrain.values():
            element = kind.get("element")
            if isinstance(element, dict):
                element = ", ".join(f"{v} for {k} pieces" if k != "else" else f"{v} for the others"
                                    for k, v in element.items())
            bits = [f"element {element}"] if element else []
            bits += ["impassable"] if kind.get("passable") is False else []
            bits += ["a piece may cross it but not stay"] if kind.get("transit") else []
            out.append(("li", f"{kind.get('name', '?')}: {'; '.join(bits) or 'open'}"))
    if variant.grid.walls:
        out.append(("li", "Walls between squares block moves, attacks and effects; only a jump goes over them."))
    combat = data.get("combat") or {}
    out.append(("h2", "Combat"))
    rules = combat.get("rules") or []
    if rules:
        out.append(("p", "When a piece attacks, both are revealed and the first of these rules that fits decides:"))
        out += [("li", f"{i}. {r.get('name', '')}") for i, r in enumerate(rules, start=1)]
    if combat.get("table"):
        out.append(("p", "Otherwise the Value Table decides (key T in play). Its symbols:"))
        out += [("li", f"{sym}: {words}") for sym, words in marks_legend(variant)]
    elif combat.get("values"):
        out.append(("p", "Otherwise the higher value wins and equal values remove both."))
    out.append(("h2", "How to win"))
    for entry in data.get("win") or []:
        via = f", coming by the {entry['via']}" if entry.get("via") else ""
        pieces = " or ".join(_piece_words(variant, p) for p in entry.get("pieces") or [])
        place = _terrain_name(variant, entry.get("arrive"))
        text = _a(pieces)
        out.append(("li", f"{text[0].upper()}{text[1:]} reaching the enemy {place}{via} wins the game."))
    if data.get("flags"):
        out.append(("li", "Bring the enemy Flag to your own Base while your own Flag is there."))
    for tid in data.get("lose_when_removed") or []:
        out.append(("li", f"Take the enemy {_type_name(variant, tid)}: losing it loses the game."))
    left = data.get("draw_when_none_left")
    if left:
        out.append(("li", f"Drawn when neither side has any {' or '.join(_piece_words(variant, p) for p in left)} "
                          "left."))
    out.append(("h2", "Family rules (unless this game's rules say otherwise)"))
    out += [("li", text) for text in FAMILY_RULES]
    if variant.option_specs:
        out.append(("h2", "Options"))
        for name, spec in variant.option_specs.items():
            out.append(("li", f"{name} (default {spec.get('default')}): {spec.get('description', '')}"))
    if page:
        out.append(("h2", "Rules page"))
        out += markdown_blocks(page)
    return out


def _terrain_name(variant, key) -> str:
    kind = (variant.data.get("terrain") or {}).get(key)
    return kind.get("name", key) if isinstance(kind, dict) else str(key)


def _piece_words(variant, selector) -> str:
    """A type's name, or ``<tag> piece`` for a tag or service."""
    try:
        return variant.type_of(selector).name
    except KeyError:
        return f"{selector} piece"


def _a(words: str) -> str:
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def _type_name(variant, tid) -> str:
    try:
        return variant.type_of(tid).name
    except KeyError:
        return str(tid)


def rules_page(variant_name: str) -> str | None:
    """The rules page shipped beside a registered variant's YAML (``rules.md``), else None."""
    from pathlib import Path

    from .plugins import variant_specs

    spec = variant_specs().get(variant_name)
    path = Path(spec.path).parent / RULES_PAGE if spec else None
    try:
        return path.read_text(encoding="utf-8") if path and path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def _inline(text: str) -> str:
    """Markdown inline markup removed: links keep their text, code and emphasis their words."""
    import re

    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return text.replace("**", "").replace("`", "")


def markdown_blocks(text: str) -> list[tuple[str, str]]:
    """A simple markdown page as blocks: headings, bullet items (with their continuation lines), paragraphs."""
    out: list[tuple[str, str]] = []
    kind, buf = "", []

    def flush() -> None:
        if buf:
            out.append((kind, _inline(" ".join(buf))))
        buf.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("#"):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            out.append(("h1" if level == 1 else "h2", _inline(stripped.lstrip("#").strip())))
        elif stripped[:2] in ("- ", "* "):
            flush()
            kind = "li"
            buf.append(stripped[2:])
        else:
            if not buf:
                kind = "p"
            buf.append(stripped)
    flush()
    return out
