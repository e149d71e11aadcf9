"""The launcher's ways into learning a game: its Rules, its Lessons and the Review of a saved game."""

from __future__ import annotations

import pygame

from .. import theme
from ..widgets import Button, Modal, PickDialog


class Notice(Modal):
    """A message in a dialog (why lessons or a record cannot open); any key or click closes it."""

    def __init__(self, title: str, text: str):
        super().__init__(title)
        self.text = text

    def handle_event(self, event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONUP):
            self.closed = True
        return True

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        body = self.rect.inflate(-32, -70).move(0, 20)
        theme.blit_wrapped(surface, self.text, body, 19)


def learning_buttons(launcher, w: int, h: int) -> list:
    """Rules, Lessons and Review buttons for the launcher, in the left column under the list of variants."""
    ok = launcher.variant is not None
    specs = [("Rules (F1)", lambda: show_rules(launcher), ok, pygame.K_F1),
             ("Lessons", lambda: open_course(launcher), ok, pygame.K_l),
             ("Review game", lambda: open_review(launcher), True, None)]
    top = 70 + 48 * len(launcher.names) + 24
    out = []
    for i, (label, action, enabled, key) in enumerate(specs):
        b = Button(label, action, enabled=enabled, key=key)
        b.rect = pygame.Rect(20, top + i * 46, 260, 38)
        out.append(b)
    return out


def show_rules(launcher) -> None:
    """The Rules screen of the chosen variant, over the launcher."""
    from ..rules import RulesDialog

    launcher.open_modal(RulesDialog(launcher.variant))


def open_course(launcher) -> None:
    """The chosen variant's first lesson (the launcher says why when there is none)."""
    from .lessons import open_lessons

    why = open_lessons(launcher.app, launcher.config.variant, launcher.config)
    if why:
        launcher.open_modal(Notice("Lessons", why))


def open_review(launcher) -> None:
    """Pick a saved game to step through."""
    from .. import storage
    from .review import open_record

    def pick(name: str) -> None:
        why = open_record(launcher.app, storage.game_path(name), launcher.config)
        if why:
            launcher.open_modal(Notice("Review", why))
    launcher.open_modal(PickDialog("Review a saved game", storage.game_names(), pick))
