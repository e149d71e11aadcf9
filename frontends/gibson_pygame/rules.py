"""The Rules screen (F1 in play, "Rules" in the launcher): a scrollable page built by
:func:`gibson_core.rulestext.rules_document` from the variant's data and the rules page shipped with it."""

from __future__ import annotations

import pygame

from gibson_core.rulestext import rules_document, rules_page

from . import theme
from .widgets import Modal

STYLE = {"h1": (30, theme.ACCENT, True, 14), "h2": (24, theme.ACCENT, True, 10), "p": (19, theme.TEXT, False, 6),
         "li": (19, theme.TEXT, False, 4)}
BULLET = 18  # indent of a bullet item


class RulesDialog(Modal):
    """The rules of one variant over the whole window; the wheel, arrow keys, Page Up/Down, Home and End
    scroll; Escape or F1 closes."""

    def __init__(self, variant):
        super().__init__(f"Rules: {variant.title}")
        self.variant = variant
        self.blocks = rules_document(variant, rules_page(variant.name))
        self.lines: list[tuple[str, str, int]] = []  # (kind, text, x indent) laid out for the width
        self.scroll = 0
        self.body = pygame.Rect(0, 0, 0, 0)

    def place(self, size) -> None:
        w, h = size
        self.rect = pygame.Rect(20, 20, w - 40, h - 40)
        self.body = pygame.Rect(self.rect.left + 24, self.rect.top + 56, self.rect.width - 64, self.rect.height - 76)
        self.lines = []
        for kind, text in self.blocks:
            size_, _fg, bold, gap = STYLE[kind]
            indent = BULLET if kind == "li" else 0
            for i, line in enumerate(theme.wrap(text, size_, self.body.width - indent, bold)):
                self.lines.append((kind, ("• " if kind == "li" and i == 0 else "") + line, indent if i == 0 or
                                   kind != "li" else indent + 12))
            self.lines.append(("gap", "", gap))
        self.scroll = min(self.scroll, self.max_scroll)

    def _height(self, kind: str, extra: int) -> int:
        return extra if kind == "gap" else STYLE[kind][0] + 3

    @property
    def content_height(self) -> int:
        """Pixels the laid-out page needs."""
        return sum(self._height(kind, x) for kind, _t, x in self.lines)

    @property
    def max_scroll(self) -> int:
        """How far the page scrolls."""
        return max(0, self.content_height - self.body.height)

    def scroll_by(self, pixels: int) -> None:
        """Scroll down (positive) or up, within the page."""
        self.scroll = max(0, min(self.max_scroll, self.scroll + pixels))

    def handle_event(self, event) -> bool:
        super().handle_event(event)
        if event.type == pygame.KEYDOWN:
            page = self.body.height - 40
            steps = {pygame.K_DOWN: 40, pygame.K_UP: -40, pygame.K_PAGEDOWN: page, pygame.K_PAGEUP: -page,
                     pygame.K_SPACE: page, pygame.K_HOME: -10**6, pygame.K_END: 10**6}
            if event.key in steps:
                self.scroll_by(steps[event.key])
            elif event.key == pygame.K_F1:
                self.closed = True
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * 48)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        theme.blit_text(surface, "wheel or arrows to scroll, Esc to close", (self.rect.right - 16, self.rect.top + 18),
                        16, theme.TEXT_DIM, anchor="topright")
        clip = surface.get_clip()
        surface.set_clip(self.body)
        y = self.body.top - self.scroll
        for kind, text, x in self.lines:
            height = self._height(kind, x)
            if kind != "gap" and y + height > self.body.top and y < self.body.bottom:
                size, fg, bold, _gap = STYLE[kind]
                theme.blit_text(surface, text, (self.body.left + x, y), size, fg, bold)
            y += height
        surface.set_clip(clip)
        if self.max_scroll:
            track = pygame.Rect(self.rect.right - 20, self.body.top, 6, self.body.height)
            pygame.draw.rect(surface, theme.PANEL_EDGE, track, border_radius=3)
            knob_h = max(30, track.height * self.body.height // self.content_height)
            knob_y = track.top + (track.height - knob_h) * self.scroll // self.max_scroll
            pygame.draw.rect(surface, theme.ACCENT, (track.left, knob_y, 6, knob_h), border_radius=3)
