"""A small declarative type language for data files: each key's kind, range and known sub-keys, checked in
one pass before any rule code reads the data, so a wrong type anywhere is a problem with a key path, never a
TypeError deep in the loader.

    PIECE = Record({"id": Text(max_len=20), "count": Whole(0, 10_000), "tags": ListOf(Text())})
    PIECE.check(value, ("pieces", 3), add)   # add(path, message) for each problem

Types: :class:`Text` (optionally a template with named fields), :class:`Whole`, :class:`Number`,
:class:`Flag` (true/false), :class:`ListOf`, :class:`MapOf`, :class:`Record` (known keys, unknown ones
reported), :class:`OneOf`, :class:`Maybe` (or null) and :class:`Lazy` (for recursive shapes).
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from typing import Any

from .errors import quote

Add = Callable[[tuple, str], None]


def describe(value: Any) -> str:
    """A short description of a value for messages: ``text 'abc'``, ``the number 5``, ``a list``..."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {quote(value)}"
    if isinstance(value, str):
        return f"text {quote(value)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def shape(value: Any) -> str:
    """``"list"``, ``"map"`` or ``"scalar"``."""
    return "list" if isinstance(value, list) else "map" if isinstance(value, dict) else "scalar"


class Type:
    """A kind of value. ``check`` reports problems through ``add`` and returns whether the value fits; it
    visits each value once (so checking is linear in the size of the data, whatever the nesting)."""

    what = "a value"
    shape = "scalar"

    def check(self, value: Any, path: tuple, add: Add) -> bool:
        return True if self.fits(value) else self.refuse(value, path, add)

    def refuse(self, value: Any, path: tuple, add: Add) -> bool:
        """Report that ``value`` is not of this type; False."""
        add(path, f"expected {self.what}, got {describe(value)}")
        return False

    def fits(self, value: Any) -> bool:  # pragma: no cover - every type overrides it or check
        raise NotImplementedError


class Text(Type):
    """A string of at most ``max_len`` characters; ``choices`` limits it to some words; ``fields`` makes it a
    template that may use only ``{field}`` placeholders (no format specs, conversions, attributes or
    indexes, which could exhaust memory or reach into objects)."""

    def __init__(self, max_len: int = 2000, choices: tuple | None = None, fields: tuple | None = None,
                 what: str | None = None):
        self.max_len, self.choices, self.fields = max_len, choices, fields
        self.what = what or ("one of " + ", ".join(choices) if choices else "text")

    def check(self, value, path, add) -> bool:
        if not isinstance(value, str):
            return self.refuse(value, path, add)
        if len(value) > self.max_len:
            add(path, f"expected {self.what} of at most {self.max_len:,} characters, got {len(value):,}")
            return False
        if self.choices is not None and value not in self.choices:
            return self.refuse(value, path, add)
        if self.fields is not None:
            problem = template_problem(value, self.fields)
            if problem:
                add(path, problem)
                return False
        return True

    def fits(self, value) -> bool:
        return self.check(value, (), _ignore)


def template_problem(text: str, fields: tuple) -> str | None:
    """Why ``text`` is not a template using only ``{field}`` for the given fields, or None when it is."""
    allowed = " ".join("{" + f + "}" for f in fields) or "no {placeholders}"
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        return f"not a valid template ({exc}); it may use only {allowed}"
    for _literal, field, spec, conversion in parts:
        if field is None:
            continue
        if field not in fields or spec or conversion:
            shown = "{" + field + ("!" + conversion if conversion else "") + (":" + spec if spec else "") + "}"
            return f"{quote(shown, 40)} is not allowed in this text; it may use only {allowed}"
    return None


class Whole(Type):
    """An integer (not true/false) from ``lo`` to ``hi``."""

    def __init__(self, lo: int = 0, hi: int = 10**9, what: str | None = None):
        self.lo, self.hi = lo, hi
        self.what = what or f"a whole number from {lo:,} to {hi:,}"

    def fits(self, value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.lo <= value <= self.hi


class Number(Type):
    """A finite int or float (not true/false) from ``lo`` to ``hi``."""

    def __init__(self, lo: float = -1e9, hi: float = 1e9):
        self.lo, self.hi = lo, hi
        self.what = f"a number from {lo:g} to {hi:g}"

    def fits(self, value) -> bool:
        return (isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
                and self.lo <= value <= self.hi)


class Flag(Type):
    """``true`` or ``false``."""

    what = "true or false"

    def fits(self, value) -> bool:
        return isinstance(value, bool)


class ListOf(Type):
    """A list whose items are all of one type (``length``: exactly that many)."""

    shape = "list"

    def __init__(self, item: Type, length: int | None = None, what: str | None = None):
        self.item, self.length = item, length
        self.what = what or (f"a list of {length}" if length else "a list")

    def check(self, value, path, add) -> bool:
        if not isinstance(value, list) or (self.length is not None and len(value) != self.length):
            return self.refuse(value, path, add)
        ok = True
        for i, item in enumerate(value):
            ok = self.item.check(item, path + (i,), add) and ok
        return ok


class MapOf(Type):
    """A mapping from text keys (names chosen by the author) to values of one type."""

    shape = "map"

    def __init__(self, value: Type, what: str = "a mapping", key_len: int = 100):
        self.value, self.what, self.key_len = value, what, key_len

    def check(self, value, path, add) -> bool:
        if not isinstance(value, dict):
            return self.refuse(value, path, add)
        ok = True
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > self.key_len:
                add(path + (key,), f"expected a name of at most {self.key_len} characters as key, got {describe(key)}")
                ok = False
                continue
            ok = self.value.check(item, path + (key,), add) and ok
        return ok


class Record(Type):
    """A mapping with known keys, each of its own type; an unknown key is a problem that lists the known ones
    (``what`` names the kind of key in that message: "piece key", "top-level key")."""

    shape = "map"

    def __init__(self, fields: dict[str, Type], what: str = "key", extra: tuple = ()):
        self.fields, self.key_what, self.extra = fields, what, extra
        self.what = f"a mapping ({', '.join(list(fields)[:4])}{', ...' if len(fields) > 4 else ''})"

    def check(self, value, path, add) -> bool:
        if not isinstance(value, dict):
            return self.refuse(value, path, add)
        ok = True
        for key, item in value.items():
            kind = self.fields.get(key) if isinstance(key, str) else None
            if kind is None:
                if key not in self.extra:
                    known = ", ".join(self.fields)
                    add(path + (key,), f"unknown {self.key_what} {quote(str(key), 40)} (known: {known})")
                    ok = False
                continue
            ok = kind.check(item, path + (key,), add) and ok
        return ok


class OneOf(Type):
    """One of several types, chosen by the value's shape: a list is checked by the list type, a mapping by the
    mapping type (at most one of each), a scalar by the first scalar type that fits."""

    shape = "any"

    def __init__(self, *types: Type, what: str | None = None):
        self.what = what or " or ".join(t.what for t in types)
        types = tuple(inner for t in types for inner in (t.types if isinstance(t, OneOf) else (t,)))
        self.types = types
        for kind in ("list", "map"):
            assert sum(t.shape == kind for t in types) <= 1, "OneOf takes at most one list and one mapping type"

    def check(self, value, path, add) -> bool:
        here = shape(value)
        for kind in self.types:
            if kind.shape == here and here != "scalar":
                return kind.check(value, path, add)
            if kind.shape == "scalar" == here and kind.fits(value):
                return True
        return self.refuse(value, path, add)


class Maybe(OneOf):
    """A value of the type, or null."""

    def __init__(self, kind: Type):
        super().__init__(kind, _Null(), what=f"{kind.what} or null")


class _Null(Type):
    what = "null"

    def fits(self, value) -> bool:
        return value is None


class Lazy(Type):
    """A type given by a function, for recursive shapes (selectors in lists, overrides of the whole file)."""

    def __init__(self, make: Callable[[], Type], what: str, shape: str):
        self.make, self.what, self.shape = make, what, shape

    def check(self, value, path, add) -> bool:
        return self.make().check(value, path, add)


def _ignore(_path: tuple, _message: str) -> None:
    return None
