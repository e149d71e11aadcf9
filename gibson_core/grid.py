"""Rectangular grids: algebraic square names, neighbour tables, straight lines and wall edges.

Squares are plain ``int`` indices ``rank * files + file`` (0-based) inside the engine and algebraic names
(``"e5"``: file letter, rank number from 1) everywhere a person reads them.
"""

from __future__ import annotations

import re

import attrs

from .errors import NotationError, quote

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SQUARE = re.compile(r"^([a-z])(\d{1,2})$")

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def parse_square_name(text: str) -> tuple[int, int]:
    """``"e5"`` -> ``(4, 4)`` (file, rank), 0-based; raises NotationError for anything else."""
    m = _SQUARE.match(text.strip().lower()) if isinstance(text, str) else None
    if not m or int(m.group(2)) < 1:
        raise NotationError(f"not a square name: {quote(text, 20)} (expected a file letter and a rank number, like e5)")
    return FILE_LETTERS.index(m.group(1)), int(m.group(2)) - 1


@attrs.frozen(eq=False)
class Grid:
    """A files x ranks board with optional wall edges between orthogonally adjacent squares.

    All neighbour tables are computed once: ``orth[sq]`` (walls respected), ``diag[sq]``, ``rays[sq]``
    (four straight lines, each stopping at a wall or the edge) and ``jumps[sq]`` (exactly two squares away in
    a straight line, walls ignored).
    """

    files: int
    ranks: int
    walls: frozenset = attrs.field(factory=frozenset)  # frozenset of frozenset({a, b}) square pairs
    names: tuple = attrs.field(init=False)
    index: dict = attrs.field(init=False)
    orth: tuple = attrs.field(init=False)
    diag: tuple = attrs.field(init=False)
    rays: tuple = attrs.field(init=False)
    jumps: tuple = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        if not (1 <= self.files <= 26 and 1 <= self.ranks <= 99):
            raise ValueError(f"a grid is 1-26 files by 1-99 ranks, not {self.files}x{self.ranks}")
        names = tuple(f"{FILE_LETTERS[s % self.files]}{s // self.files + 1}" for s in range(self.size))
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "index", {n: i for i, n in enumerate(names)})
        orth, diag, rays, jumps = [], [], [], []
        for sq in range(self.size):
            orth.append(tuple(n for n in self._steps(sq, ORTHOGONAL) if not self.wall_between(sq, n)))
            diag.append(tuple(self._steps(sq, DIAGONAL)))
            lines = []
            for df, dr in ORTHOGONAL:
                line, cur = [], sq
                while True:
                    nxt = self.offset(cur, df, dr)
                    if nxt is None or self.wall_between(cur, nxt):
                        break
                    line.append(nxt)
                    cur = nxt
                lines.append(tuple(line))
            rays.append(tuple(lines))
            jumps.append(tuple(j for df, dr in ORTHOGONAL if (j := self.offset(sq, 2 * df, 2 * dr)) is not None))
        object.__setattr__(self, "orth", tuple(orth))
        object.__setattr__(self, "diag", tuple(diag))
        object.__setattr__(self, "rays", tuple(rays))
        object.__setattr__(self, "jumps", tuple(jumps))

    @property
    def size(self) -> int:
        """Number of squares."""
        return self.files * self.ranks

    def square(self, name: str) -> int:
        """The index of a square name; NotationError when it is not on this board."""
        idx = self.index.get(name.strip().lower()) if isinstance(name, str) else None
        if idx is None:
            parse_square_name(name)  # raises the precise error for malformed names
            raise NotationError(f"square {quote(name, 20)} is not on this {self.files}x{self.ranks} board")
        return idx

    def name(self, sq: int) -> str:
        """The algebraic name of a square index."""
        return self.names[sq]

    def coords(self, sq: int) -> tuple[int, int]:
        """``(file, rank)`` of a square, 0-based."""
        return sq % self.files, sq // self.files

    def offset(self, sq: int, df: int, dr: int) -> int | None:
        """The square ``df`` files and ``dr`` ranks away, or None off the board."""
        f, r = sq % self.files + df, sq // self.files + dr
        if 0 <= f < self.files and 0 <= r < self.ranks:
            return r * self.files + f
        return None

    def _steps(self, sq: int, deltas) -> list[int]:
        return [n for df, dr in deltas if (n := self.offset(sq, df, dr)) is not None]

    def wall_between(self, a: int, b: int) -> bool:
        """True when a wall edge separates two orthogonally adjacent squares."""
        return bool(self.walls) and frozenset((a, b)) in self.walls

    def king_distance(self, a: int, b: int) -> int:
        """Chebyshev distance (king moves)."""
        return max(abs(a % self.files - b % self.files), abs(a // self.files - b // self.files))

    def manhattan(self, a: int, b: int) -> int:
        """Orthogonal-step distance."""
        return abs(a % self.files - b % self.files) + abs(a // self.files - b // self.files)

    def within_king(self, sq: int, radius: int) -> list[int]:
        """Every other square within king-move distance ``radius`` of ``sq``."""
        f0, r0 = self.coords(sq)
        return [
            r * self.files + f
            for r in range(max(0, r0 - radius), min(self.ranks, r0 + radius + 1))
            for f in range(max(0, f0 - radius), min(self.files, f0 + radius + 1))
            if (f, r) != (f0, r0)
        ]

    def rect(self, a: str, b: str) -> list[int]:
        """Every square of the rectangle with corners ``a`` and ``b`` (names), rank by rank."""
        fa, ra = self.coords(self.square(a))
        fb, rb = self.coords(self.square(b))
        return [
            r * self.files + f
            for r in range(min(ra, rb), max(ra, rb) + 1)
            for f in range(min(fa, fb), max(fa, fb) + 1)
        ]

    def squares(self, spec) -> list[int]:
        """Squares from data: a name (``"e5"``), a rectangle (``"a1-l5"``) or a list of those."""
        if isinstance(spec, str):
            if "-" in spec:
                a, b = spec.split("-", 1)
                return self.rect(a, b)
            return [self.square(spec)]
        if isinstance(spec, list | tuple):
            out: list[int] = []
            for item in spec:
                out.extend(self.squares(item))
            return out
        raise NotationError(f"not a square, a rectangle or a list of them: {quote(spec, 40)}")
