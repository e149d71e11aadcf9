"""Events: what each move did, in order, and how each player may see them.

Every event is a frozen value. Events that name a piece's type carry ``public``: whether that type is
known to both players at that moment. :func:`redact` blanks what a given player may not know.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Moved:
    """A piece moved (``handle`` is the piece's stable number)."""

    player: str
    origin: str
    dest: str
    handle: int


@attrs.frozen
class Attacked:
    """The piece on ``origin`` attacked the piece on ``target``; both are revealed by the fight."""

    player: str
    origin: str
    target: str
    attacker: str
    defender: str


@attrs.frozen
class Revealed:
    """A piece became known to both players."""

    square: str
    owner: str
    type: str
    handle: int
    reason: str = ""


@attrs.frozen
class Removed:
    """A piece left the board, and why in words. ``hidden_reason`` is what the opponent reads when the piece's
    type is not public (``reason`` may name the type)."""

    square: str
    owner: str
    type: str | None
    handle: int
    reason: str
    public: bool = True
    hidden_reason: str = "a hidden piece was removed"


@attrs.frozen
class Retreated:
    """A piece was driven back from ``origin`` to ``dest``."""

    origin: str
    dest: str
    handle: int
    reason: str = ""


@attrs.frozen
class Acted:
    """An action replaced a move: illuminate, fire, hand-over (``notation`` is the move as written)."""

    player: str
    kind: str
    notation: str


@attrs.frozen
class TokenMoved:
    """A token (a Flag) was picked up, carried, dropped or handed over; tokens are visible to both."""

    token: str
    square: str
    carrier: int | None
    reason: str = ""


@attrs.frozen
class GameOver:
    """The game ended: ``winner`` is a player name, or None for a draw."""

    winner: str | None
    reason: str


class _RevealAll:
    """The type of :data:`REVEAL_ALL`: a viewer that is not a player name, so no variant's player can ever
    be mistaken for it."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "REVEAL_ALL"

    def __reduce__(self):
        return "REVEAL_ALL"


#: The full-reveal viewer (game over, tools): sees every hidden type. Not a string, so not a player name.
REVEAL_ALL = _RevealAll()


def redact(event, viewer):
    """The event as ``viewer`` (a player name or :data:`REVEAL_ALL`) may see it: hidden types of the other
    player's pieces become None, and the reason for removing such a piece is the one that does not name it."""
    if viewer is REVEAL_ALL:
        return event
    if isinstance(event, Removed) and not event.public and event.owner != viewer:
        return attrs.evolve(event, type=None, reason=event.hidden_reason)
    return event
