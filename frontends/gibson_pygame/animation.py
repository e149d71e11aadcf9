"""Short animations of the play screen: pieces slide to their new squares, a fight or a blast flashes on
its square. They only draw: the game has already moved on, input is never held up, and with the factor 0
(tests, ``gibson screenshot``, the "off" setting) nothing is ever started.
"""

from __future__ import annotations

import math

import attrs
import pygame

from gibson_core import events as ev

SLIDE_SECONDS = 0.15
FLASH_SECONDS = 0.35


@attrs.define
class Slide:
    """A piece (by handle) gliding from one square to another."""

    handle: int
    origin: int
    dest: int
    duration: float
    t: float = 0.0


@attrs.define
class Flash:
    """A burst on a square: ``fight`` (a clash) or ``blast`` (something destroyed without a fight)."""

    square: int
    kind: str
    duration: float
    t: float = 0.0


def _ease(x: float) -> float:
    x = max(0.0, min(1.0, x))
    return 1 - (1 - x) ** 3


class Animator:
    """The running animations of one board view."""

    def __init__(self):
        self.slides: list[Slide] = []
        self.flashes: list[Flash] = []

    @property
    def busy(self) -> bool:
        """True while anything is still moving."""
        return bool(self.slides or self.flashes)

    def clear(self) -> None:
        """Stop everything (undo, a new viewer)."""
        self.slides, self.flashes = [], []

    def start(self, before, after, events, grid, factor: float) -> None:
        """Animate the change from Observation ``before`` to ``after`` (``events``: the ply's, as the viewer
        saw them); nothing when ``factor`` is 0."""
        if factor <= 0 or before is None:
            return
        index = grid.index
        old = {p.handle: p.square for p in before.pieces if p.square}
        for piece in after.pieces:
            start = old.get(piece.handle)
            if start and piece.square and start != piece.square:
                self.slides.append(Slide(piece.handle, index[start], index[piece.square], SLIDE_SECONDS * factor))
        fought = set()
        for e in events:
            if isinstance(e, ev.Attacked):
                fought.add(e.target)
                self.flashes.append(Flash(index[e.target], "fight", FLASH_SECONDS * factor))
        for e in events:
            if isinstance(e, ev.Removed) and e.square in index and e.square not in fought:
                self.flashes.append(Flash(index[e.square], "blast", FLASH_SECONDS * factor * 1.4))

    def update(self, dt: float) -> None:
        """Advance every animation; finished ones are dropped."""
        for a in (*self.slides, *self.flashes):
            a.t += dt
        self.slides = [s for s in self.slides if s.t < s.duration]
        self.flashes = [f for f in self.flashes if f.t < f.duration]

    def sliding_squares(self, grid) -> set[str]:
        """Destination squares whose piece is still on its way (drawn by :meth:`draw_slides`)."""
        return {grid.names[s.dest] for s in self.slides}

    def draw_slides(self, surface: pygame.Surface, view, pieces, draw) -> None:
        """Draw each sliding piece between its squares with ``draw(surface, rect, piece)``."""
        by_handle = {p.handle: p for p in pieces}
        for s in self.slides:
            piece = by_handle.get(s.handle)
            if piece is None:
                continue
            a, b = view.square_rect(s.origin), view.square_rect(s.dest)
            k = _ease(s.t / s.duration)
            rect = a.copy()
            rect.topleft = (round(a.left + (b.left - a.left) * k), round(a.top + (b.top - a.top) * k))
            draw(surface, rect.inflate(-view.cell // 8, -view.cell // 8), piece)

    def draw_flashes(self, surface: pygame.Surface, view) -> None:
        """An expanding ring (a fight) or a starburst (a blast) on each flashing square."""
        for f in self.flashes:
            k = f.t / f.duration
            c = view.square_center(f.square)
            alpha = int(230 * (1 - k))
            size = view.cell * 2
            layer = pygame.Surface((size, size), pygame.SRCALPHA)
            mid = (size // 2, size // 2)
            if f.kind == "fight":
                radius = int(view.cell * (0.3 + 0.5 * k))
                pygame.draw.circle(layer, (255, 236, 140, alpha), mid, radius, max(2, view.cell // 10))
            else:
                for i in range(10):
                    angle = i * math.pi / 5
                    r1, r2 = view.cell * 0.15 * (1 + k), view.cell * (0.35 + 0.6 * k)
                    pygame.draw.line(layer, (255, 140, 40, alpha), (mid[0] + r1 * math.cos(angle), mid[1] + r1 *
                                     math.sin(angle)), (mid[0] + r2 * math.cos(angle), mid[1] + r2 * math.sin(angle)),
                                     max(2, view.cell // 12))
            surface.blit(layer, layer.get_rect(center=c))
