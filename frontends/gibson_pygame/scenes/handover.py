"""The hot-seat hand-over screen: nothing of the game is drawn until the next player clicks."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from .. import theme
from ..widgets import Button
from .base import Scene


class HandoverScene(Scene):
    """A blank screen naming who plays next; a click (or Space/Enter) calls ``on_ready``."""

    def __init__(self, app, player: str, players: tuple, on_ready: Callable[[], None] | None, note: str = ""):
        super().__init__(app)
        self.player, self.players, self.on_ready, self.note = player, players, on_ready, note

    def handle_event(self, event) -> None:
        clicked = event.type == pygame.MOUSEBUTTONUP and event.button == 1
        pressed = event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN)
        if (clicked or pressed) and self.on_ready is not None:
            self.on_ready()

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        col = theme.player_color(self.players, self.player)
        pygame.draw.rect(surface, col, (0, h // 2 - 90, w, 8))
        pygame.draw.rect(surface, col, (0, h // 2 + 82, w, 8))
        theme.blit_text(surface, f"Pass the screen to {self.player}", (w // 2, h // 2 - 40), 48, theme.TEXT, True,
                        anchor="center")
        if self.note:
            theme.blit_text(surface, self.note, (w // 2, h // 2 + 8), 24, theme.TEXT_DIM, anchor="center")
        if self.on_ready is not None:
            theme.blit_text(surface, f"{self.player}: click when ready", (w // 2, h // 2 + 48), 24, col,
                            anchor="center")


class ConsentScene(HandoverScene):
    """A blank hand-over screen that asks ``player`` a question (a hot-seat undo): Allow or Refuse, and
    nothing else of the game is drawn. A click elsewhere does nothing."""

    def __init__(self, app, player: str, players: tuple, question: str, on_answer: Callable[[bool], None]):
        super().__init__(app, player, players, None, note=question)
        self.on_answer = on_answer

    def resize(self, size) -> None:
        super().resize(size)
        w, h = size
        self.buttons = []
        for i, (label, answer, key) in enumerate((("Allow", True, pygame.K_y), ("Refuse", False, pygame.K_n))):
            b = Button(label, lambda a=answer: self.on_answer(a), key=key)
            b.rect = pygame.Rect(w // 2 - 170 + i * 180, h // 2 + 110, 160, 44)
            self.buttons.append(b)

    def handle_event(self, event) -> None:
        """Only the two buttons answer."""

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        w, h = surface.get_size()
        theme.blit_fit(surface, f"{self.player}: do you agree?", (w // 2, h // 2 + 48), 24, w - 40,
                       theme.player_color(self.players, self.player))
