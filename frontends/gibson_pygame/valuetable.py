"""The Value Table overlay (key T): who beats whom, read from the variant's compiled combat data.

Rows attack, columns defend. A cell shows the winner's id, ``X`` when both go, ``.`` when nothing
happens (or a piece is only driven back) and ``?`` when conditional rules (terrain, coastline...) decide; where the variant's data has a
printed table its own cell text is shown. Hovering a row or column names what that type beats, loses to
and ties with.
"""

from __future__ import annotations

import pygame

from gibson_core.valuetable import attacks, cell_result, marks_legend, printed_cells, summary
from gibson_core.valuetable import symbol as _symbol

from . import theme
from .widgets import Modal

__all__ = ["ValueTableDialog", "attacks", "cell_result", "printed_cells", "summary"]

_COLOURS = {"win": "#3d7a3d", "lose": "#8a3232", "both": "#6b5a2a", "none": "#30353c", "depends": "#4b3d6b"}


class ValueTableDialog(Modal):
    """The overlay; T or Escape closes it."""

    def __init__(self, variant):
        super().__init__(f"{variant.title}: value table (row attacks column)")
        self.variant = variant
        self.printed = printed_cells(variant)
        self.legend = marks_legend(variant)
        self.hover: int | None = None
        self.cell = 20
        self.origin = (0, 0)

    def place(self, size) -> None:
        w, h = size
        self.rect = pygame.Rect(20, 20, w - 40, h - 40)
        n = len(self.variant.types)
        self.cell = max(14, min(44, (self.rect.width - 120) // (n + 1), (self.rect.height - 190) // (n + 1)))
        self.origin = (self.rect.left + 20 + 3 * self.cell, self.rect.top + 56 + self.cell)

    def _index_at(self, pos) -> int | None:
        n = len(self.variant.types)
        x, y = pos
        col = (x - self.origin[0]) // self.cell
        row = (y - self.origin[1]) // self.cell
        if 0 <= row < n and x >= self.rect.left:
            return row
        if 0 <= col < n and y >= self.rect.top:
            return col
        return None

    def handle_event(self, event) -> bool:
        super().handle_event(event)
        if event.type == pygame.KEYDOWN and event.key == pygame.K_t:
            self.closed = True
        if event.type == pygame.MOUSEMOTION:
            self.hover = self._index_at(event.pos)
        if event.type == pygame.MOUSEBUTTONUP and not self.rect.collidepoint(event.pos):
            self.closed = True
        return True

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        v, c = self.variant, self.cell
        ox, oy = self.origin
        size = max(10, int(c * 0.5))
        for i, t in enumerate(v.types):
            hot = i == self.hover
            fg = theme.ACCENT if hot else theme.TEXT
            row_label = t.id if t.value is None else f"{t.id} ({t.value:g})"  # value-ranked games show ranks
            theme.blit_text(surface, row_label, (ox - 6, oy + i * c + c // 2), size, fg, hot, anchor="midright")
            theme.blit_fit(surface, t.id, (ox + i * c + c // 2, oy - 4), size, c - 2, fg, hot, anchor="midbottom")
        for a in range(len(v.types)):
            if not attacks(v.types[a]):
                r = pygame.Rect(ox, oy + a * c, len(v.types) * c - 1, c - 1)
                pygame.draw.rect(surface, theme.BACKGROUND, r)
                theme.blit_text(surface, "never attacks", r.center, size, theme.TEXT_DIM, anchor="center")
                continue
            for d in range(len(v.types)):
                r = pygame.Rect(ox + d * c, oy + a * c, c - 1, c - 1)
                col = theme.color(_COLOURS[cell_result(v, a, d)])
                if self.hover in (a, d):
                    col = theme.mix(col, theme.TEXT, 0.2)
                pygame.draw.rect(surface, col, r)
                theme.blit_fit(surface, _symbol(v, a, d, self.printed), r.center, size, c - 3)
        self._draw_legend(surface, ox + len(v.types) * c + 24)
        y = oy + len(v.types) * c + 10
        if self.hover is not None:
            t = v.types[self.hover]
            rank = "" if t.value is None else f", value {t.value:g}"
            theme.blit_text(surface, f"{t.name} ({t.id}{rank}) attacking:", (self.rect.left + 20, y), 20, theme.ACCENT)
            y += 22
            if not attacks(t):
                theme.blit_text(surface, "never attacks", (self.rect.left + 30, y), 18)
            for label, ids in summary(v, self.hover).items():
                if ids:
                    theme.blit_text(surface, f"{label}: {', '.join(ids)}", (self.rect.left + 30, y), 18)
                    y += 20
        else:
            theme.blit_text(surface, "Hover a piece type to see what it beats, loses to and ties with. "
                            "Green: the row wins; red: it loses; brown: both removed; purple: terrain rules decide.",
                            (self.rect.left + 20, y), 18, theme.TEXT_DIM)

    def _draw_legend(self, surface: pygame.Surface, x: int) -> None:
        """What every symbol of the table means (:func:`gibson_core.valuetable.marks_legend`), right of the
        table, or under it when the window is narrow."""
        width = self.rect.right - 20 - x
        y = self.origin[1] - self.cell
        if width < 220:
            x, width = self.rect.left + 20, self.rect.width - 40
            y = self.origin[1] + len(self.variant.types) * self.cell + 110
        bottom = self.rect.bottom - 10
        theme.blit_text(surface, "Legend", (x, y), 20, theme.ACCENT)
        y += 24
        sym_w = 12 + max((theme.font(18, True).size(sym)[0] for sym, _w in self.legend), default=0)
        for sym, words in self.legend:
            if y + 16 > bottom:
                break
            theme.blit_text(surface, sym, (x, y), 18, theme.ACCENT, True)
            y = theme.blit_wrapped(surface, words, pygame.Rect(x + sym_w, y, width - sym_w, bottom - y), 17) + 4
