"""Moves as value objects with a text notation that round-trips.

``e5-e6``       the piece on e5 moves to e6
``e5-e6xe7``    it moves to e6, then attacks the enemy piece on e7
``e5xe6``       it attacks by moving onto the enemy's square e6 (``attack_mode: onto``; a slider may come
                from further along the line: ``e1xe6``); the winner occupies e6
``d5@``         the piece on d5 illuminates (an action instead of a move)
``c4*f6``       the piece on c4 fires at f6
``c4>c5``       the piece on c4 hands a Flag to the piece on c5
"""

from __future__ import annotations

import re

import attrs

from .errors import NotationError, quote
from .grid import parse_square_name

MOVE = "move"
ILLUMINATE = "illuminate"
FIRE = "fire"
HANDOVER = "handover"

_ACTION_SIGNS = {ILLUMINATE: "@", FIRE: "*", HANDOVER: ">"}
_SQ = r"[a-z]\d{1,2}"
_PATTERNS = (
    (re.compile(rf"^({_SQ})-({_SQ})(?:x({_SQ}))?$"), MOVE),
    (re.compile(rf"^({_SQ})x({_SQ})$"), "onto"),
    (re.compile(rf"^({_SQ})@$"), ILLUMINATE),
    (re.compile(rf"^({_SQ})\*({_SQ})$"), FIRE),
    (re.compile(rf"^({_SQ})>({_SQ})$"), HANDOVER),
)


def _square(value: str | None) -> str | None:
    if value is None:
        return None
    parse_square_name(value)  # NotationError for anything but a square name
    return value.strip().lower()


@attrs.frozen(repr=False)
class Move:
    """One turn: a move (with an optional attack) or an action that replaces the move.

    Squares are algebraic names. ``dest`` is set for moves only; ``target`` is the attacked square of a
    move, or the square an action aims at (fire, hand-over). A move onto the enemy's square (``e4xe5``) has
    ``dest == target``: the attacker's destination, should it win, is the defender's square.
    """

    origin: str = attrs.field(converter=_square)
    dest: str | None = attrs.field(default=None, converter=_square)
    target: str | None = attrs.field(default=None, converter=_square)
    kind: str = attrs.field(default=MOVE)

    @kind.validator
    def _check_kind(self, _attr, value):
        if value not in (MOVE, ILLUMINATE, FIRE, HANDOVER):
            raise NotationError(f"unknown move kind {quote(value, 20)}")
        if value == MOVE and self.dest is None:
            raise NotationError(f"a move needs a destination: {self.origin}-?")
        if value in (FIRE, HANDOVER) and self.target is None:
            raise NotationError(f"a {value} action needs a target square")

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in notation; raises NotationError naming the text when it is malformed."""
        if not isinstance(text, str):
            raise NotationError(f"a move is written as text like e5-e6, not {quote(text, 30)}")
        cleaned = text.strip().lower()
        for pattern, kind in _PATTERNS:
            m = pattern.match(cleaned)
            if not m:
                continue
            if kind == MOVE:
                return cls(m.group(1), m.group(2), m.group(3), MOVE)
            if kind == "onto":
                return cls(m.group(1), m.group(2), m.group(2), MOVE)
            if kind == ILLUMINATE:
                return cls(m.group(1), None, None, ILLUMINATE)
            return cls(m.group(1), None, m.group(2), kind)
        raise NotationError(
            f"cannot read move {quote(text, 30)}: expected e5-e6, e5-e6xe7, e5xe6, d5@, c4*f6 or c4>c5"
        )

    @property
    def is_attack(self) -> bool:
        """True for a move that carries an attack."""
        return self.kind == MOVE and self.target is not None

    @property
    def is_onto(self) -> bool:
        """True for an attack by moving onto the enemy's square (``e4xe5``)."""
        return self.kind == MOVE and self.target is not None and self.target == self.dest

    @property
    def is_action(self) -> bool:
        """True for an action that replaces a move (illuminate, fire, hand-over)."""
        return self.kind != MOVE

    def __str__(self) -> str:
        if self.kind == MOVE:
            if self.target is not None and self.target == self.dest:
                return f"{self.origin}x{self.target}"
            return f"{self.origin}-{self.dest}" + (f"x{self.target}" if self.target else "")
        if self.kind == ILLUMINATE:
            return f"{self.origin}@"
        return f"{self.origin}{_ACTION_SIGNS[self.kind]}{self.target}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"
