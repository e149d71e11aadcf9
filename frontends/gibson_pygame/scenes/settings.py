"""The settings dialog (F2 anywhere, or Settings on the launcher): animation speed, sound and volume, the
colour-blind palette. Every change is saved at once in the user's Gibson folder."""

from __future__ import annotations

import pygame

from .. import theme
from ..settings import ANIMATION
from ..widgets import Button, Modal, Stepper, Toggle


class SettingsDialog(Modal):
    """Change the app's :class:`~gibson_pygame.settings.Settings`; ``on_change`` runs after each change."""

    def __init__(self, app, on_change=None):
        super().__init__("Settings")
        self.app, self.settings, self.on_change = app, app.settings, on_change
        self.note = ""
        self._build()

    def _build(self) -> None:
        s = self.settings
        self.speeds = [Button(name, lambda n=name: self._set("animation", n)) for name in ANIMATION]
        for b in self.speeds:
            b.selected = b.label == s.animation
        self.sound = Toggle("Sound", s.sound, lambda v: self._set("sound", v))
        self.volume = Stepper("Volume", s.volume, lambda v: self._set("volume", v), step=10, low=0, high=100,
                              zero="silent")
        self.palette = Toggle("Colour-blind palette", s.palette == "colour-blind",
                              lambda v: self._set("palette", "colour-blind" if v else "standard"))
        self.close = Button("Close", self._close, key=pygame.K_F2)

    def _close(self) -> None:
        self.closed = True

    def _set(self, name: str, value) -> None:
        setattr(self.settings, name, value)
        if name == "palette":
            theme.set_palette(value)
        if name == "sound" or name == "volume":
            self.app.play_sound("move")  # hear the new volume
        self.note = "" if self.settings.save() else "could not save the settings (they apply until you quit)"
        self._build()
        self.place(self.app.screen.get_size())
        if self.on_change is not None:
            self.on_change()

    def widgets(self) -> list:
        """Every clickable part."""
        return [*self.speeds, self.sound, self.volume.minus, self.volume.plus, self.palette, self.close]

    def place(self, size) -> None:
        super().place(size)
        self.rect.height = 330
        self.rect.centery = size[1] // 2
        x, y, w = self.rect.left + 16, self.rect.top + 84, self.rect.width - 32
        bw = (w - 3 * 6) // 4
        for i, b in enumerate(self.speeds):
            b.rect = pygame.Rect(x + i * (bw + 6), y, bw, 34)
        self.sound.rect = pygame.Rect(x, y + 50, w, 34)
        self.volume.place(pygame.Rect(x, y + 96, w, 34))
        self.palette.rect = pygame.Rect(x, y + 142, w, 34)
        self.close.rect = pygame.Rect(self.rect.right - 130, self.rect.bottom - 50, 110, 36)

    def handle_event(self, event) -> bool:
        super().handle_event(event)
        for widget in self.widgets():
            if widget.handle_event(event):
                break
        return True

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        theme.blit_text(surface, "Animation", (self.rect.left + 16, self.rect.top + 58), 20, theme.TEXT_DIM)
        for b in (*self.speeds, self.sound, self.palette, self.close):
            b.draw(surface)
        self.volume.draw(surface)
        if self.note:
            theme.blit_fit(surface, self.note, (self.rect.left + 16, self.rect.bottom - 40), 16,
                           self.rect.width - 160, theme.BAD, anchor="midleft")
