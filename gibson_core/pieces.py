"""Piece types (immutable, from a variant's data) and pieces as a player sees them."""

from __future__ import annotations

import attrs

STEP = "step"  # one square orthogonally
DIAGONAL = "diagonal"  # one square diagonally
JUMP = "jump"  # exactly `distance` squares in a straight line, over anything (walls included)
SLIDE = "slide"  # any number of squares in a straight line over empty squares
IMMOBILE = "none"  # never moves
MOVE_KINDS = (STEP, DIAGONAL, JUMP, SLIDE, IMMOBILE)
ATTACK_PATTERNS = ("orthogonal", "diagonal", "none")
# How a piece attacks (``attack_mode``): after its move, from the square it moved to, against an adjacent enemy
# (the family rule, ``e4-e5xe6``), or by moving onto the enemy's square, the winner occupying it (``e4xe5``).
AFTER_MOVE = "after-move"
ONTO = "onto"
ATTACK_MODES = (AFTER_MOVE, ONTO)
# Where a sliding piece may attack after its run (``slide_attack``): any neighbour its ``attack`` pattern
# allows (the family rule), only the next square in the line of its run, or only after a one-square move.
ANY_SIDE = "any-side"
IN_LINE = "in-line"
SLIDE_ATTACKS = (ANY_SIDE, IN_LINE, "none")


@attrs.frozen
class Movement:
    """How a piece type moves: a kind, a jump distance, and whether a long slide must end in an attack."""

    kind: str = STEP
    distance: int = 2
    long_needs_attack: bool = False


# The pictures a front end may draw on a piece's face (``emblem`` of a piece or a service in the data).
EMBLEMS = ("soldier", "officer", "scout", "sapper", "spy", "gun", "aircraft", "bomber", "airship", "seaplane",
           "balloon", "ship", "submarine", "carrier", "boat", "minelayer", "searchlight", "mine", "flag")


@attrs.frozen
class PieceType:
    """One kind of piece as the variant's data defines it.

    ``tags`` holds the id, the service and every tag the data gives (a selector such as ``Ship`` or
    ``Infantry`` matches a type by tag). ``element`` is the native element (``land``, ``sea`` or None for
    pieces that are never out of their element). ``value`` orders numbered pieces; ``number`` is the label
    a value table uses to name the winner. ``attack_mode`` is ``after-move`` or ``onto`` (the variant's
    default unless the piece overrides it); ``slide_attack`` is where a slider may attack after its run
    (``any-side``, ``in-line`` or ``none``).
    """

    id: str
    name: str
    count: int
    service: str = ""
    element: str | None = None
    tags: frozenset = frozenset()
    value: float | None = None
    number: int | None = None
    movement: Movement = Movement()
    attack: str = "orthogonal"
    attack_mode: str = AFTER_MOVE
    slide_attack: str = ANY_SIDE
    confined_to: str | None = None
    effects: tuple = ()
    actions: tuple = ()
    color: str = "#888888"
    description: str = ""
    emblem: str = ""  # the picture a front end draws on the piece's face (one of EMBLEMS; "" for none)

    @property
    def mobile(self) -> bool:
        """False for pieces that never move (Mines, Balloons, Flags)."""
        return self.movement.kind != IMMOBILE

    @property
    def can_attack(self) -> bool:
        """False for pieces that never attack."""
        return self.attack != "none"

    @property
    def label(self) -> str:
        """Short label for boards: the id."""
        return self.id


@attrs.frozen
class Piece:
    """A piece as one player sees it: ``type`` is None when the piece is hidden from that player.

    ``handle`` is a stable number for the piece, assigned from its starting square (never from its type),
    so a player can follow an unknown enemy piece as it moves without learning anything hidden.
    """

    handle: int
    owner: str
    square: str
    type: str | None
    revealed: bool = False
    moved: bool = False
