"""The scene protocol every screen follows, with modal dialogs and button lists handled once."""

from __future__ import annotations

import pygame

from ..widgets import tooltip


class Scene:
    """A screen of the app: ``handle_event``, ``update(dt)``, ``draw(surface)``, ``on_enter``/``on_exit``.

    ``resize(size)`` lays widgets out (called on enter and when the window changes size). A scene may
    open one modal dialog (``self.modal``) that takes every event until it closes.
    """

    def __init__(self, app):
        self.app = app
        self.modal = None
        self.buttons: list = []
        self.size = (0, 0)

    def on_enter(self) -> None:
        """Called when the scene becomes current."""

    def on_exit(self) -> None:
        """Called when another scene replaces this one."""

    def resize(self, size: tuple[int, int]) -> None:
        """Lay out for a window of ``size``."""
        self.size = size
        if self.modal is not None:
            self.modal.place(size)

    def open_modal(self, modal) -> None:
        """Show a dialog over the scene."""
        self.modal = modal
        modal.place(self.size)

    def dispatch(self, event) -> None:
        """Route an event: the modal first, then buttons, then :meth:`handle_event`."""
        if self.modal is not None:
            self.modal.handle_event(event)
            if self.modal is not None and self.modal.closed:
                self.modal = None
            return
        for button in list(self.buttons):
            if button.handle_event(event):
                return
        self.handle_event(event)

    def handle_event(self, event: pygame.event.Event) -> None:
        """React to an event the widgets did not use."""

    def update(self, dt: float) -> None:
        """Advance time by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene."""

    def render(self, surface: pygame.Surface) -> None:
        """Draw the scene, its buttons and any modal."""
        self.draw(surface)
        for button in self.buttons:
            button.draw(surface)
        if self.modal is not None:
            self.modal.draw(surface)
            return
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            if not button.enabled and button.reason and button.rect.collidepoint(mouse):
                tooltip(surface, button.reason)
