"""Piece emblems drawn as vector shapes: the picture a variant's data names for a piece (``emblem`` of the
piece or of its service, one of :data:`gibson_core.pieces.EMBLEMS`), drawn by the project, no image files.

Each emblem is a list of shapes in a unit square (0..1 both ways, y down). :func:`draw_emblem` draws it three
times larger than asked and scales it down smoothly, which anti-aliases the edges; callers cache the result
(piece sprites are made once per look and size).
"""

from __future__ import annotations

import math

import pygame

from gibson_core.pieces import EMBLEMS

# Shapes: ("poly", points), ("circle", (x, y), r), ("ellipse", (x, y, w, h)), ("line", (x1, y1), (x2, y2), w),
# ("ring", (x, y), r, w). Widths and radii are fractions of the square's side.
_PLANE = [("poly", [(0.47, 0.08), (0.53, 0.08), (0.55, 0.35), (0.95, 0.46), (0.95, 0.54), (0.55, 0.52), (0.53, 0.8),
                    (0.68, 0.88), (0.68, 0.93), (0.32, 0.93), (0.32, 0.88), (0.47, 0.8), (0.45, 0.52), (0.05, 0.54),
                    (0.05, 0.46), (0.45, 0.35)])]
_HULL = [(0.04, 0.55), (0.96, 0.55), (0.84, 0.78), (0.14, 0.78)]
_PERSON = [("circle", (0.5, 0.2), 0.12), ("poly", [(0.3, 0.36), (0.7, 0.36), (0.66, 0.66), (0.34, 0.66)]),
           ("poly", [(0.35, 0.64), (0.48, 0.64), (0.46, 0.94), (0.36, 0.94)]),
           ("poly", [(0.52, 0.64), (0.65, 0.64), (0.64, 0.94), (0.54, 0.94)])]

SHAPES: dict[str, list] = {
    "soldier": _PERSON + [("line", (0.78, 0.1), (0.66, 0.72), 0.05)],
    "officer": _PERSON + [("poly", [(0.34, 0.1), (0.66, 0.1), (0.7, 0.17), (0.3, 0.17)]),
                          ("poly", [(0.24, 0.36), (0.36, 0.36), (0.36, 0.42), (0.24, 0.42)]),
                          ("poly", [(0.64, 0.36), (0.76, 0.36), (0.76, 0.42), (0.64, 0.42)])],
    "scout": [("ellipse", (0.08, 0.3, 0.84, 0.4)), ("circle", (0.5, 0.5), 0.13, "hole"), ("circle", (0.5, 0.5), 0.07)],
    "sapper": [("line", (0.25, 0.1), (0.62, 0.62), 0.08),
               ("poly", [(0.52, 0.58), (0.72, 0.44), (0.92, 0.78), (0.8, 0.92)])],
    "spy": [("ellipse", (0.06, 0.36, 0.88, 0.16)), ("poly", [(0.28, 0.42), (0.34, 0.1), (0.66, 0.1), (0.72, 0.42)]),
            ("ellipse", (0.2, 0.58, 0.6, 0.22)), ("ellipse", (0.3, 0.64, 0.14, 0.08), "hole"),
            ("ellipse", (0.56, 0.64, 0.14, 0.08), "hole")],
    "gun": [("poly", [(0.1, 0.5), (0.8, 0.08), (0.92, 0.26), (0.24, 0.7)]), ("circle", (0.4, 0.7), 0.22),
            ("circle", (0.4, 0.7), 0.1, "hole"), ("circle", (0.4, 0.7), 0.05),
            ("line", (0.1, 0.93), (0.9, 0.93), 0.07)],
    "aircraft": _PLANE,
    "bomber": _PLANE + [("circle", (0.27, 0.6), 0.07), ("circle", (0.73, 0.6), 0.07),
                        ("poly", [(0.02, 0.42), (0.98, 0.42), (0.98, 0.56), (0.02, 0.56)])],
    "airship": [("ellipse", (0.04, 0.26, 0.8, 0.34)), ("poly", [(0.78, 0.43), (0.97, 0.24), (0.97, 0.62)]),
                ("poly", [(0.34, 0.6), (0.56, 0.6), (0.54, 0.74), (0.36, 0.74)])],
    "seaplane": _PLANE + [("ellipse", (0.14, 0.62, 0.26, 0.1)), ("ellipse", (0.6, 0.62, 0.26, 0.1))],
    "balloon": [("circle", (0.5, 0.36), 0.28), ("line", (0.3, 0.56), (0.42, 0.78), 0.03),
                ("line", (0.7, 0.56), (0.58, 0.78), 0.03), ("poly", [(0.4, 0.78), (0.6, 0.78), (0.58, 0.94), (0.42, 0.94)])],
    "ship": [("poly", _HULL), ("poly", [(0.28, 0.4), (0.7, 0.4), (0.7, 0.56), (0.28, 0.56)]),
             ("poly", [(0.4, 0.24), (0.5, 0.24), (0.5, 0.42), (0.4, 0.42)]),
             ("line", (0.62, 0.4), (0.86, 0.3), 0.05)],
    "submarine": [("ellipse", (0.04, 0.5, 0.92, 0.24)), ("poly", [(0.42, 0.34), (0.6, 0.34), (0.62, 0.54), (0.4, 0.54)]),
                  ("line", (0.52, 0.36), (0.52, 0.16), 0.04), ("line", (0.5, 0.17), (0.62, 0.17), 0.04)],
    "carrier": [("poly", [(0.02, 0.5), (0.98, 0.5), (0.88, 0.74), (0.1, 0.74)]),
                ("poly", [(0.64, 0.3), (0.78, 0.3), (0.78, 0.52), (0.64, 0.52)]),
                ("line", (0.08, 0.46), (0.6, 0.46), 0.04)],
    "boat": [("poly", [(0.14, 0.62), (0.88, 0.62), (0.74, 0.82), (0.24, 0.82)]), ("line", (0.48, 0.64), (0.48, 0.16), 0.05),
             ("poly", [(0.51, 0.18), (0.82, 0.5), (0.51, 0.5)])],
    "minelayer": [("poly", _HULL), ("poly", [(0.22, 0.38), (0.56, 0.38), (0.56, 0.56), (0.22, 0.56)]),
                  ("circle", (0.74, 0.36), 0.11), ("line", (0.6, 0.36), (0.88, 0.36), 0.04),
                  ("line", (0.74, 0.22), (0.74, 0.5), 0.04)],
    "searchlight": [("poly", [(0.36, 0.58), (0.94, 0.08), (0.98, 0.42)]), ("circle", (0.34, 0.6), 0.2),
                    ("circle", (0.34, 0.6), 0.1, "hole"), ("poly", [(0.22, 0.8), (0.46, 0.8), (0.52, 0.94), (0.16, 0.94)])],
    "mine": [("circle", (0.5, 0.52), 0.26)] + [
        ("line", (0.5 + 0.2 * math.cos(a), 0.52 + 0.2 * math.sin(a)), (0.5 + 0.4 * math.cos(a), 0.52 + 0.4 * math.sin(a)),
         0.06) for a in (k * math.pi / 4 for k in range(8))],
    "flag": [("line", (0.24, 0.08), (0.24, 0.94), 0.06), ("poly", [(0.27, 0.1), (0.9, 0.28), (0.27, 0.52)]),
             ("line", (0.12, 0.94), (0.4, 0.94), 0.06)],
}

SUPERSAMPLE = 3
_CACHE: dict[tuple, pygame.Surface] = {}


def emblem_names() -> tuple[str, ...]:
    """Every emblem this front end draws (all of ``gibson_core.pieces.EMBLEMS``)."""
    return tuple(name for name in EMBLEMS if name in SHAPES)


def emblem_surface(name: str, size: tuple[int, int], color) -> pygame.Surface | None:
    """The emblem ``name`` in ``color`` on a transparent surface of ``size`` (None for no emblem)."""
    shapes = SHAPES.get(name)
    if not shapes or min(size) < 4:
        return None
    key = (name, size, tuple(pygame.Color(color)))
    found = _CACHE.get(key)
    if found is not None:
        return found
    side = min(size)
    big = pygame.Surface((side * SUPERSAMPLE, side * SUPERSAMPLE), pygame.SRCALPHA)
    _paint(big, shapes, side * SUPERSAMPLE, pygame.Color(color))
    small = pygame.transform.smoothscale(big, (side, side))
    out = pygame.Surface(size, pygame.SRCALPHA)
    out.blit(small, small.get_rect(center=(size[0] // 2, size[1] // 2)))
    if len(_CACHE) > 2000:
        _CACHE.clear()
    _CACHE[key] = out
    return out


def draw_emblem(surface: pygame.Surface, name: str, rect: pygame.Rect, color) -> None:
    """Draw the emblem ``name`` centred in ``rect`` (nothing for an unknown name or an empty one)."""
    img = emblem_surface(name, rect.size, color)
    if img is not None:
        surface.blit(img, rect)


def _paint(surface: pygame.Surface, shapes: list, side: int, color: pygame.Color) -> None:
    clear = pygame.Color(0, 0, 0, 0)

    def pt(p):
        return (p[0] * side, p[1] * side)
    for shape in shapes:
        kind = shape[0]
        hole = shape[-1] == "hole"
        col = clear if hole else color
        if kind == "poly":
            pygame.draw.polygon(surface, col, [pt(p) for p in shape[1]])
        elif kind == "circle":
            pygame.draw.circle(surface, col, pt(shape[1]), shape[2] * side)
        elif kind == "ring":
            pygame.draw.circle(surface, col, pt(shape[1]), shape[2] * side, max(1, int(shape[3] * side)))
        elif kind == "ellipse":
            x, y, w, h = shape[1]
            pygame.draw.ellipse(surface, col, pygame.Rect(x * side, y * side, w * side, h * side))
        elif kind == "line":
            width = max(1, int(shape[3] * side))
            a, b = pt(shape[1]), pt(shape[2])
            pygame.draw.line(surface, col, a, b, width)
            for end in (a, b):
                pygame.draw.circle(surface, col, end, width / 2)
