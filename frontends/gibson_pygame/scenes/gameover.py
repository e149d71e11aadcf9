"""The game-over screen: the result in words and the whole board revealed, with Play again."""

from __future__ import annotations

import pygame

from .. import theme
from ..narrate import result_text
from ..widgets import Button
from .position import ALL, PositionScene


class GameOverScene(PositionScene):
    """Full reveal of a finished game."""

    def __init__(self, app, session, viewer: str):
        super().__init__(app, session, ALL)
        self.seat = viewer

    def play_again(self) -> None:
        """New set-ups, same game and opponent."""
        from .setup import start_game

        start_game(self.app, self.session.config)

    def menu(self) -> None:
        """Back to the launcher."""
        from .launcher import LauncherScene

        self.app.switch(LauncherScene(self.app, self.session.config))

    def save(self) -> None:
        """Save the finished game's record."""
        from .play import save_game_dialog

        save_game_dialog(self, f"{self.variant.name}-final")

    def resize(self, size) -> None:
        super().resize(size)
        p = self.panel
        bw = (p.width - 36) // 3
        self.buttons = []
        for i, (label, action, key) in enumerate([("Play again", self.play_again, pygame.K_RETURN),
                                                  ("Save", self.save, None), ("Menu", self.menu, pygame.K_ESCAPE)]):
            b = Button(label, action, key=key)
            b.rect = pygame.Rect(p.left + 12 + i * (bw + 6), 120, bw, 36)
            self.buttons.append(b)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_position(surface)
        p = self.panel
        pygame.draw.rect(surface, theme.PANEL, p)
        x = p.left + 12
        result = self.session.result()
        theme.blit_text(surface, "Game over", (x, 12), 30, theme.ACCENT, True)
        if result:
            winner, reason = result
            col = theme.TEXT if winner is None else theme.player_color(self.variant.players, winner)
            theme.blit_wrapped(surface, result_text(winner, reason), pygame.Rect(x, 48, p.width - 24, 66), 22, col)
        theme.blit_fit(surface, self.message or "every piece revealed", (x, 166), 18, p.width - 24,
                       theme.BAD if self.message and self.message_bad else theme.TEXT_DIM, anchor="topleft")
        self.draw_panel(surface, 192)
        if self.modal is None:
            self.draw_hover(surface)
