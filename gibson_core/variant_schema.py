"""The declared shape of a variant file: every key the loader accepts, with its type and range.

:func:`check_shape` runs over a (merged) variant document before any rule is compiled, so a wrong type at any
key path is a VariantError problem naming file, key path and line, and the compiler can rely on the types
it reads. docs/reference.md documents each key; the key lists in ``variant.py``, ``effects.py`` and
``tokens.py`` are the keys of these records (a test keeps them equal).
"""

from __future__ import annotations

from .pieces import EMBLEMS
from .schema import Flag, Lazy, ListOf, MapOf, Maybe, Number, OneOf, Record, Text, Whole

NAME = Text(max_len=100, what="a name")
WORD = Text(max_len=100, what="a word")
ID = Text(max_len=30, what="a piece id")
COLOR = Text(max_len=40, what="a colour (#rrggbb or a name)")
PARAGRAPH = Text(max_len=4000)
SQUARE = Text(max_len=20, what="a square (e5) or a rectangle (a1-g3)")
SELECTOR = OneOf(Text(max_len=100, what="a piece selector (an id, a tag, any, value>=N)"),
                 ListOf(Lazy(lambda: SELECTOR, "a piece selector or a list of them", "any")),
                 what="a piece selector or a list of them")
SQUARES = OneOf(SQUARE, ListOf(OneOf(SQUARE, ListOf(SQUARE))), what="a square, a rectangle or a list of them")
MAX_SQUARES = 26  # a board has at most 26 files (and 99 ranks): no reach, radius or range needs more

BOARD = Record({
    "files": Whole(1, 26), "ranks": Whole(1, 99), "default": NAME, "cells": MapOf(SQUARES, "a mapping of terrain to squares"),
    "walls": ListOf(ListOf(SQUARE, length=2, what="a pair of squares"), what="a list of square pairs"),
}, "board key")

TERRAIN = Record({
    "name": NAME, "element": OneOf(WORD, MapOf(WORD, "a mapping of piece tags to elements"), what="an element or a mapping tag -> element"),
    "passable": Flag(), "transit": Flag(), "color": COLOR, "stroke": COLOR,
}, "terrain key")

PLAYER_SQUARES = MapOf(SQUARES, "a mapping of players to squares")

OVERLAY = Record({
    "type": WORD, "path": NAME, "squares": ListOf(SQUARE), "zone": NAME, "color": COLOR,
    "width": Number(0, 60), "label": NAME, "between": ListOf(Whole(0, 99), length=2, what="two rank numbers"),
    "colors": MapOf(COLOR, "a mapping of players to colours"),
}, "overlay key")

EMBLEM = Text(max_len=40, choices=EMBLEMS)
SERVICE = Record({"color": COLOR, "tags": ListOf(NAME), "emblem": EMBLEM}, "service key")
SETUP = Record({"zone": NAME, "exclude": ListOf(NAME)}, "setup key")

EFFECT_REASON = Text(max_len=400, fields=("piece", "source"))
EFFECT = Record({
    "kind": WORD, "reach": WORD, "radius": Whole(0, MAX_SQUARES), "targets": SELECTOR, "spare": SELECTOR,
    "backfire": SELECTOR, "cause": WORD, "reason": EFFECT_REASON, "backfire_reason": EFFECT_REASON,
}, "effect key")
ACTION = Record({
    "kind": WORD, "radius": Whole(0, MAX_SQUARES), "range": Whole(0, 99), "targets": SELECTOR,
    "revealed_only": Flag(), "reveal_self": Flag(), "reason": EFFECT_REASON,
}, "action key")
MOVE = OneOf(WORD, Record({
    "kind": WORD, "distance": Whole(1, 99, what="a whole number of squares from 1 to 99"), "long_needs_attack": Flag(),
}, "move key"), what="a movement (step, slide, ...) or a mapping with kind")

PIECE = Record({
    "id": ID, "name": NAME, "count": Whole(0, 10_000), "service": NAME, "element": WORD, "tags": ListOf(NAME),
    "value": Number(-1e6, 1e6), "number": Whole(0, 10**6), "move": MOVE, "attack": WORD, "attack_mode": WORD,
    "slide_attack": WORD, "confined_to": NAME,
    "effects": ListOf(EFFECT), "actions": ListOf(OneOf(WORD, ACTION, what="an action kind or a mapping")),
    "color": COLOR, "description": PARAGRAPH, "emblem": EMBLEM,
}, "piece key", extra=("remove",))

RULE_REASON = Text(max_len=400, fields=("attacker", "defender", "first", "second"))
RULE = Record({
    "name": NAME, "pair": ListOf(SELECTOR, length=2, what="two selectors [first, second]"), "attacker": SELECTOR,
    "defender": SELECTOR, "when": ListOf(Text(max_len=100, what="a condition")), "result": WORD,
    "reason": RULE_REASON,
}, "combat rule key")
TABLE = Record({
    "columns": ListOf(ID), "rows": MapOf(ListOf(OneOf(Text(max_len=30), Whole(0, 10**6), what="a cell")),
                                         "a mapping of piece ids to rows of cells"),
    "asymmetric": Flag(),
}, "value table key")
COMBAT = Record({
    "rules": ListOf(RULE), "values": Flag(), "table": TABLE, "marks": MapOf(PARAGRAPH, "a mapping of marks to texts"),
    "asymmetric": Flag(),
}, "combat key")

WIN = Record({
    "arrive": NAME, "pieces": SELECTOR, "via": NAME, "owner": Text(choices=("enemy", "own")),
    "reason": Text(max_len=400, fields=("piece",)),
}, "win key")

OPTION = Record({
    "description": PARAGRAPH, "default": OneOf(Flag(), Whole(0, 10**9), Text(max_len=200), what="true/false, a whole number or text"),
    "extension": Flag(), "overrides": Lazy(lambda: VARIANT, "a mapping of variant keys", "map"),
    "hooks": Text(max_len=200, what="a module path"),
}, "option key")

FLAGS = Maybe(Record({
    "base": NAME, "cannot_carry": SELECTOR, "mined_when": ListOf(WORD), "mined_pickup": SELECTOR,
    "leave_enemy_base": Flag(),
}, "flags key"))

VARIANT = Record({
    "name": Text(max_len=60, what="a variant name"), "title": NAME, "description": PARAGRAPH,
    "players": ListOf(Text(max_len=30, what="a player name"), length=2, what="two player names"),
    "board": BOARD, "terrain": MapOf(TERRAIN, "a mapping of terrain kinds"),
    "zones": MapOf(PLAYER_SQUARES, "a mapping of zone names"), "paths": MapOf(PLAYER_SQUARES, "a mapping of path names"),
    "overlays": ListOf(OVERLAY, what="a list of overlays"), "services": MapOf(SERVICE, "a mapping of services"),
    "setup": SETUP, "pieces": ListOf(PIECE, what="a list of pieces"), "combat": COMBAT, "transit_forfeit": Flag(),
    "win": ListOf(WIN, what="a list of win conditions"), "lose_when_removed": SELECTOR, "lose_when_only_left": SELECTOR,
    "draw_when_none_left": SELECTOR, "compulsory_attack": Flag(), "options": MapOf(OPTION, "a mapping of options"),
    "extends": Text(max_len=200, what="a variant name or a YAML path"),
    "rename": MapOf(ID, "a mapping of old piece ids to new ones"), "flags": FLAGS,
    "counts": MapOf(Whole(0, 10_000), "a mapping of piece ids to counts"), "attack_mode": WORD,
}, "top-level key")


def check_shape(doc) -> list:
    """Every problem of type, range or unknown key in a variant document (a YamlDoc), as Problems."""
    problems: list = []
    VARIANT.check(doc.data, (), lambda path, message: problems.append(doc.problem(path, message)))
    return problems


def record_keys(record: Record) -> tuple:
    """The keys a record accepts (for the key lists the docs test reads)."""
    return tuple(record.fields)
