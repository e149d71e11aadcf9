"""Drawing a variant's board from its data: terrain colours, overlays (rivers along paths), walls on
edges, zones (H.Q., aerodromes, harbours), file and rank labels, pieces and highlights.

:class:`BoardView` fits the board into any rectangle (the window is resizable) and turns it so the
viewing player's set-up zone is at the bottom. The static layer is cached per size, so a frame costs
one blit plus the pieces.
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from . import theme
from .emblems import draw_emblem


def home_at_top(variant, player: str | None) -> bool:
    """True when ``player``'s set-up squares lie in the upper half of the board (so the view turns round)."""
    if player not in variant.players:
        return False
    squares = variant.setup_squares.get(player) or ()
    if not squares:
        return variant.players.index(player) == 1
    mean_rank = sum(sq // variant.grid.files for sq in squares) / len(squares)
    return mean_rank > (variant.grid.ranks - 1) / 2


class BoardView:
    """Geometry and drawing of one variant's board inside a rectangle, seen from one side."""

    def __init__(self, variant, flipped: bool = False, labels: bool = True):
        self.variant = variant
        self.grid = variant.grid
        self.flipped = flipped
        self.labels = labels
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.cell = 1
        self.origin = (0, 0)
        self._static: pygame.Surface | None = None
        self._static_key: tuple | None = None
        self._static_pos = (0, 0)

    # -- geometry ----------------------------------------------------------------------------------
    def fit(self, area: pygame.Rect) -> None:
        """Lay the board out in ``area`` (square cells, centred, room for labels)."""
        g = self.grid
        margin_units = 0.7 if self.labels else 0.0
        cell = int(min(area.width / (g.files + margin_units), area.height / (g.ranks + margin_units)))
        self.cell = max(4, cell)
        margin = int(self.cell * margin_units)
        w, h = g.files * self.cell, g.ranks * self.cell
        x = area.left + margin + (area.width - margin - w) // 2
        y = area.top + (area.height - margin - h) // 2
        self.origin = (x, y)
        self.rect = pygame.Rect(x, y, w, h)

    def _view_coords(self, sq: int) -> tuple[int, int]:
        f, r = self.grid.coords(sq)
        if self.flipped:
            return self.grid.files - 1 - f, r
        return f, self.grid.ranks - 1 - r

    def square_rect(self, sq: int) -> pygame.Rect:
        """The screen rectangle of a square."""
        col, row = self._view_coords(sq)
        return pygame.Rect(self.origin[0] + col * self.cell, self.origin[1] + row * self.cell, self.cell, self.cell)

    def square_center(self, sq: int) -> tuple[int, int]:
        """The screen centre of a square."""
        return self.square_rect(sq).center

    def square_at(self, pos) -> int | None:
        """The square under a screen position, or None off the board."""
        if not self.rect.collidepoint(pos):
            return None
        col = (pos[0] - self.origin[0]) // self.cell
        row = (pos[1] - self.origin[1]) // self.cell
        f = self.grid.files - 1 - col if self.flipped else col
        r = row if self.flipped else self.grid.ranks - 1 - row
        return r * self.grid.files + f

    # -- static layer ------------------------------------------------------------------------------
    def draw_board(self, surface: pygame.Surface, zones: bool = True) -> None:
        """Terrain, overlays, zones, walls and labels (cached between frames of the same size)."""
        key = (tuple(self.rect), self.cell, self.flipped, zones, surface.get_size(), theme.palette)
        if self._static is None or self._static_key != key:
            full = pygame.Surface(surface.get_size())
            full.fill(theme.BACKGROUND)
            self._draw_static(full, zones)
            margin = int(self.cell * 0.7) + 6 if self.labels else 6
            area = self.rect.inflate(2 * margin, 2 * margin).clip(full.get_rect())
            self._static = full.subsurface(area).copy()  # opaque and only the board's size: a cheap blit
            if pygame.display.get_surface() is not None:
                self._static = self._static.convert()
            self._static_pos = area.topleft
            self._static_key = key
        surface.blit(self._static, self._static_pos)

    def _draw_static(self, surface: pygame.Surface, zones: bool) -> None:
        v, g = self.variant, self.grid
        line = max(1, self.cell // 40)
        for sq in range(g.size):
            kind = v.kinds.get(v.cell_kind[sq])
            r = self.square_rect(sq)
            surface.fill(theme.color(kind.color if kind else "#777777"), r)
            pygame.draw.rect(surface, theme.color(kind.stroke if kind else "#555555"), r, line)
        self._draw_paths(surface)
        self._draw_rank_lines(surface)
        if zones:
            self._draw_zones(surface)
        self._draw_walls(surface)
        pygame.draw.rect(surface, theme.WALL, self.rect.inflate(4, 4), 2)
        if self.labels:
            self._draw_labels(surface)

    # -- overlays (the variant's render hints) -----------------------------------------------------
    def overlays(self, kind: str) -> list[dict]:
        """The variant's overlays of one type (``river``, ``zone``, ``line``, ``walls``, ``flags``...)."""
        return [o for o in self.variant.data.get("overlays") or [] if isinstance(o, dict) and o.get("type") == kind]

    def _width(self, overlay: dict, default: float) -> int:
        """An overlay's line width (given for a 60-pixel square) at the current size."""
        try:
            return max(2, int(float(overlay.get("width", default)) * self.cell / 60))
        except (TypeError, ValueError):
            return max(2, int(default * self.cell / 60))

    def _draw_paths(self, surface: pygame.Surface) -> None:
        """Overlays that follow a path of squares (rivers): a line through the square centres."""
        v = self.variant
        for overlay in v.data.get("overlays") or []:
            if not isinstance(overlay, dict) or overlay.get("type") in ("zone", "line", "walls", "flags"):
                continue
            col = theme.color(overlay.get("color", "#3a6e9e"))
            width = self._width(overlay, 8)
            lines = []
            if overlay.get("path") in v.paths:
                lines = list(v.paths[overlay["path"]].values())
            elif isinstance(overlay.get("squares"), list):
                lines = [[v.grid.index[s] for s in overlay["squares"] if s in v.grid.index]]
            for squares in lines:
                points = [self.square_center(sq) for sq in squares]
                if len(points) >= 2:
                    pygame.draw.lines(surface, col, False, points, width)
                for p in points:
                    pygame.draw.circle(surface, col, p, width // 2)

    def _draw_rank_lines(self, surface: pygame.Surface) -> None:
        """``line`` overlays: a line across the board between two ranks (``between: [6, 7]``)."""
        g = self.grid
        for overlay in self.overlays("line"):
            ranks = overlay.get("between")
            if not (isinstance(ranks, list) and len(ranks) == 2 and all(isinstance(r, int) for r in ranks)):
                continue
            low = min(ranks) - 1
            if not 0 <= low < g.ranks - 1:
                continue
            a, b = self._edge_points(self.square_rect(low * g.files), low * g.files, 0, 1)
            y = a[1]
            pygame.draw.line(surface, theme.color(overlay.get("color", "#888888")), (self.rect.left, y),
                             (self.rect.right - 1, y), self._width(overlay, 2))

    def zone_marks(self) -> list[tuple[str, frozenset, pygame.Color, int]]:
        """(label, squares, colour, width) of each zone to outline: the variant's ``zone`` overlays, or when
        it has none, every zone but the set-up zone, in its owner's colour."""
        v = self.variant
        marks = []
        declared = self.overlays("zone")
        if declared:
            for overlay in declared:
                name = overlay.get("zone")
                for squares in v.zones.get(name, {}).values():
                    if squares:
                        marks.append((str(overlay.get("label", name)), squares,
                                      theme.color(overlay.get("color", "#c8a832")), self._width(overlay, 3)))
            return marks
        setup_zone = (v.data.get("setup") or {}).get("zone", "setup")
        for name, per_player in v.zones.items():
            if name == setup_zone:
                continue
            for player, squares in per_player.items():
                if squares:
                    marks.append((self._zone_name(name, squares), squares,
                                  theme.player_color(v.players, player), max(2, self.cell // 16)))
        return marks

    def _zone_name(self, name: str, squares) -> str:
        """A zone's label: the name of its terrain when the zone is all of one special terrain (H.Q.), else
        the zone's own name."""
        kinds = {self.variant.cell_kind[sq] for sq in squares}
        default = (self.variant.data.get("board") or {}).get("default")
        if len(kinds) == 1 and kinds != {default}:
            return self.variant.kinds[kinds.pop()].name
        return name.replace("_", " ").replace("-", " ").title()

    def _draw_zones(self, surface: pygame.Surface) -> None:
        """Outline the zones (H.Q.s, aerodromes, harbours) with a light halo so they read on any terrain."""
        for _label, squares, col, width in self.zone_marks():
            self._outline(surface, squares, theme.mix(col, pygame.Color("#ffffff"), 0.6), width + 2)
            self._outline(surface, squares, col, width)

    def draw_zone_labels(self, surface: pygame.Surface, occupied: set[int]) -> None:
        """Zone names on their top-left square when it is empty (drawn over the pieces layer)."""
        size = max(10, self.cell // 5)
        for label, squares, _col, width in self.zone_marks():
            first = min(squares, key=lambda sq: (self.square_rect(sq).top, self.square_rect(sq).left))
            if first in occupied:
                continue
            r = self.square_rect(first)
            rects = [self.square_rect(sq) for sq in squares]
            room = sum(x.width for x in rects if x.top == r.top) - 2 * width - 4
            img = theme.text(label, size, (240, 240, 235))
            if img.get_width() > room > 0:
                img = pygame.transform.smoothscale(img, (room, img.get_height()))
            pill = img.get_rect(topleft=(r.left + width + 2, r.top + width + 1)).inflate(4, 2)
            shade = pygame.Surface(pill.size, pygame.SRCALPHA)
            shade.fill((20, 22, 26, 150))
            surface.blit(shade, pill)
            surface.blit(img, img.get_rect(center=pill.center))

    def _outline(self, surface: pygame.Surface, squares: Iterable[int], col, width: int) -> None:
        squares = set(squares)
        g = self.grid
        for sq in squares:
            r = self.square_rect(sq)
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = g.offset(sq, df, dr)
                if n is not None and n in squares:
                    continue
                a, b = self._edge_points(r, sq, df, dr)
                pygame.draw.line(surface, col, a, b, width)

    def _edge_points(self, r: pygame.Rect, sq: int, df: int, dr: int):
        """The screen end points of the edge of square ``sq`` facing board direction (df, dr)."""
        if self.flipped:
            df, dr = -df, -dr
        if df == 1:
            return r.topright, r.bottomright
        if df == -1:
            return r.topleft, r.bottomleft
        if dr == 1:
            return r.topleft, r.topright
        return r.bottomleft, r.bottomright

    def wall_style(self) -> tuple[pygame.Color, int]:
        """Colour and width of walls: the variant's ``walls`` overlay, else thick and dark."""
        for overlay in self.overlays("walls"):
            return theme.color(overlay.get("color", "#1b1b1b")), max(4, self._width(overlay, 7))
        return theme.WALL, max(4, self.cell // 8)

    def _draw_walls(self, surface: pygame.Surface) -> None:
        g = self.grid
        col, width = self.wall_style()
        for edge in g.walls:
            a, b = sorted(edge)
            fa, ra = g.coords(a)
            fb, rb = g.coords(b)
            p, q = self._edge_points(self.square_rect(a), a, fb - fa, rb - ra)
            for c, w in ((theme.mix(col, pygame.Color("#f4f0e0"), 0.75), width + 4), (col, width)):
                pygame.draw.line(surface, c, p, q, w)
                for end in (p, q):
                    pygame.draw.circle(surface, c, end, w // 2)

    def _draw_labels(self, surface: pygame.Surface) -> None:
        g = self.grid
        size = max(10, int(self.cell * 0.38))
        for f in range(g.files):
            sq = f  # rank 1
            x = self.square_rect(sq).centerx
            theme.blit_text(surface, g.names[sq][0], (x, self.rect.bottom + 3), size, theme.TEXT_DIM,
                            anchor="midtop")
        for r in range(g.ranks):
            sq = r * g.files
            y = self.square_rect(sq).centery
            theme.blit_text(surface, str(r + 1), (self.rect.left - 5, y), size, theme.TEXT_DIM, anchor="midright")

    # -- dynamic layers ----------------------------------------------------------------------------
    def shade(self, surface: pygame.Surface, squares: Iterable[int], rgba, inset: int = 0) -> None:
        """Tint squares with a translucent colour."""
        tile = pygame.Surface((self.cell - 2 * inset, self.cell - 2 * inset), pygame.SRCALPHA)
        tile.fill(rgba)
        for sq in squares:
            surface.blit(tile, self.square_rect(sq).inflate(-2 * inset, -2 * inset))

    def ring(self, surface: pygame.Surface, squares: Iterable[int], col, width: int | None = None) -> None:
        """Draw a frame inside squares."""
        w = width or max(2, self.cell // 14)
        for sq in squares:
            pygame.draw.rect(surface, col, self.square_rect(sq).inflate(-w, -w), w, border_radius=w)

    def crosshairs(self, surface: pygame.Surface, squares: Iterable[int], col) -> None:
        """A target mark on squares (attack targets): a shape as well as a colour, for any colour vision."""
        for sq in squares:
            r = self.square_rect(sq)
            c, rad, w = r.center, int(self.cell * 0.38), max(2, self.cell // 18)
            pygame.draw.circle(surface, col, c, rad, w)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                pygame.draw.line(surface, col, (c[0] + dx * rad * 0.55, c[1] + dy * rad * 0.55),
                                 (c[0] + dx * rad * 1.2, c[1] + dy * rad * 1.2), w)

    def dots(self, surface: pygame.Surface, squares: Iterable[int], col) -> None:
        """A dot in the middle of each square (legal destinations)."""
        radius = max(3, self.cell // 7)
        for sq in squares:
            pygame.draw.circle(surface, col, self.square_center(sq), radius)

    def draw_pieces(self, surface: pygame.Surface, pieces: Iterable, viewer: str | None,
                    skip: Iterable[str] = ()) -> None:
        """Draw pieces (``gibson_core.pieces.Piece``, type None when hidden) on their squares."""
        skip = set(skip)
        for piece in pieces:
            if piece.square and piece.square not in skip:
                rect = self.square_rect(self.grid.index[piece.square])
                draw_piece(surface, self.variant, rect.inflate(-self.cell // 8, -self.cell // 8), piece, viewer)

    def draw_tokens(self, surface: pygame.Surface, tokens, pieces) -> None:
        """Tokens (Flags) as small pennants on the square their value names, or on the carrier's square."""
        where = {p.handle: p.square for p in pieces}
        colours = {}
        for overlay in self.overlays("flags"):
            colours.update(overlay.get("colors") or {})
        for i, (name, value) in enumerate(tokens):
            owner = _token_owner(name, self.variant)
            col = theme.color(colours[owner]) if owner in colours else theme.player_color(self.variant.players, owner)
            for square in token_squares(value, self.grid, where):
                draw_flag(surface, self.square_rect(self.grid.index[square]), col, i)


def _token_owner(name: str, variant) -> str:
    for player in variant.players:
        if player in str(name):
            return player
    return "yellow"


def token_squares(value, grid, where: dict) -> list[str]:
    """The squares a token's value points at: a square name, a carrier handle, or any of these in a tuple."""
    if isinstance(value, str) and value.lower() in grid.index:
        return [value.lower()]
    if isinstance(value, bool):
        return []
    if isinstance(value, int) and value in where and where[value]:
        return [where[value]]
    if isinstance(value, list | tuple):
        out = []
        for item in value:
            out.extend(token_squares(item, grid, where))
        return out[:1]
    if isinstance(value, dict):
        for key in ("carrier", "square"):
            if key in value:
                found = token_squares(value[key], grid, where)
                if found:
                    return found
    return []


def draw_flag(surface: pygame.Surface, square: pygame.Rect, col, index: int = 0) -> None:
    """A pennant on a staff in the top-left corner of a square (a second flag sits beside the first)."""
    s = max(8, int(square.width * 0.42))
    x = square.left + 4 + index * (s // 2 + 2)
    y = square.top + 3
    flag = [(x, y), (x + s, y + s // 4), (x, y + s // 2)]
    pygame.draw.line(surface, (250, 250, 245), (x, y), (x, y + s), max(2, s // 6) + 2)
    pygame.draw.line(surface, theme.WALL, (x, y), (x, y + s), max(2, s // 6))
    pygame.draw.polygon(surface, col, flag)
    pygame.draw.polygon(surface, (250, 250, 245), flag, 2)


_SPRITES: dict[tuple, pygame.Surface] = {}


def draw_piece(surface: pygame.Surface, variant, rect: pygame.Rect, piece, viewer: str | None,
               type_id: str | None = None) -> None:
    """One piece: its face (service colour, id) when its type is known, else its back; an owner rim;
    a small eye mark when it is an enemy piece the viewer knows only because it was revealed.
    Sprites are cached by look and size, so a frame costs one blit per piece."""
    owner = piece.owner if piece is not None else (viewer or variant.players[0])
    tid = type_id if type_id is not None else (piece.type if piece is not None else None)
    mark = bool(piece is not None and piece.revealed and viewer is not None and piece.owner != viewer and tid)
    key = (variant.name, id(variant), tid, owner, rect.size, mark, theme.palette)
    sprite = _SPRITES.get(key)
    if sprite is None:
        if len(_SPRITES) > 4000:
            _SPRITES.clear()
        sprite = pygame.Surface(rect.size, pygame.SRCALPHA)
        _paint_piece(sprite, variant, sprite.get_rect(), owner, tid, mark)
        if pygame.display.get_surface() is not None:
            sprite = sprite.convert_alpha()  # display format: blits several times faster
        _SPRITES[key] = sprite
    surface.blit(sprite, rect)


def _paint_piece(surface: pygame.Surface, variant, rect: pygame.Rect, owner: str, tid: str | None,
                 mark: bool) -> None:
    rim = theme.player_color(variant.players, owner)
    radius = max(2, rect.width // 6)
    border = max(2, rect.width // 12)
    if tid is None:
        pygame.draw.rect(surface, theme.mix(theme.PIECE_BACK, rim, 0.35), rect, border_radius=radius)
        inner = rect.inflate(-rect.width // 2, -rect.height // 2)
        pygame.draw.rect(surface, theme.mix(rim, theme.PIECE_BACK, 0.2), inner, max(1, border // 2),
                         border_radius=radius)
        pygame.draw.rect(surface, rim, rect, border, border_radius=radius)
        return
    ptype = variant.type_of(tid)
    face = theme.color(ptype.color)
    pygame.draw.rect(surface, face, rect, border_radius=radius)
    pygame.draw.rect(surface, rim, rect, border, border_radius=radius)
    ink = theme.readable_on(face)
    halo = pygame.Color("#111111") if ink.r > 128 else pygame.Color("#f4f4f0")
    inner = rect.inflate(-2 * border, -2 * border)
    rank = piece_rank(ptype)
    if rect.width >= 36:  # emblem above, id below, rank in the top-left corner
        band = int(inner.height * 0.34)
        art = pygame.Rect(inner.left, inner.top + 1, inner.width, inner.height - band)
        draw_emblem(surface, ptype.emblem, art.inflate(-art.width // 8, 0), theme.mix(ink, face, 0.15))
        _label(surface, tid, pygame.Rect(inner.left, inner.bottom - band - 1, inner.width, band), ink, halo)
        if rank:
            size = max(12, int(rect.height * 0.3))
            _label(surface, rank, pygame.Rect(inner.left, inner.top, inner.width // 2, size), ink, halo,
                   align="topleft")
    else:  # small: the emblem faint behind the rank (or the id) as large as it fits
        draw_emblem(surface, ptype.emblem, inner.inflate(-2, -2), theme.mix(ink, face, 0.6))
        _label(surface, rank or tid, inner, ink, halo)
    if mark:
        r = max(3, rect.width // 9)
        c = (rect.right - r - 1, rect.top + r + 1)
        pygame.draw.circle(surface, pygame.Color("#fff4c2"), c, r)
        pygame.draw.circle(surface, theme.WALL, c, r, 1)
        pygame.draw.circle(surface, theme.WALL, c, max(1, r // 2))


def piece_rank(ptype) -> str:
    """The rank a piece shows in its corner: its ``number``, else its ``value`` ("" when it has neither)."""
    value = ptype.number if ptype.number is not None else ptype.value
    if value is None or isinstance(value, bool):
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _label(surface: pygame.Surface, value: str, box: pygame.Rect, fg, halo, align: str = "center") -> None:
    """Bold text as large as ``box`` allows (the font shrinks, the letters are never squashed), with a
    one-pixel halo so it reads over the emblem and any face colour."""
    size = max(8, box.height)
    while size > 8 and theme.font(size, True).size(value)[0] > box.width:
        size -= 1
    img = theme.text(value, size, tuple(fg), True)
    shade = theme.text(value, size, tuple(halo), True)
    rect = img.get_rect(**{align: getattr(box, align)})
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        surface.blit(shade, rect.move(dx, dy))
    surface.blit(img, rect)
