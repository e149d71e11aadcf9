"""The hot-seat hand-over screen: nothing of the game is drawn until the next player clicks."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from .. import theme
from .base import Scene


class HandoverScene(Scene):
    """A blank screen naming who plays next; a click (or Space/Enter) calls ``on_ready``."""

    def __init__(self, app, player: str, players: tuple, on_ready: Callable[[], None], note: str = ""):
        super().__init__(app)
        self.player, self.players, self.on_ready, self.note = player, players, on_ready, note

    def handle_event(self, event) -> None:
        clicked = event.type == pygame.MOUSEBUTTONUP and event.button == 1
        pressed = event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN)
        if clicked or pressed:
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
        theme.blit_text(surface, f"{self.player}: click when ready", (w // 2, h // 2 + 48), 24, col, anchor="center")
