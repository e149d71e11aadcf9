"""Small plain-pygame widgets: buttons, toggles, steppers, a scrolling text list and two modal dialogs
(pick one of a list; type a name). Each has ``handle_event(event) -> bool`` (True when it used the event)
and ``draw(surface)``; scenes give them rectangles in their ``resize``."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from . import theme


class Button:
    """A clickable labelled rectangle; disabled buttons show ``reason`` when hovered."""

    def __init__(self, label: str, action: Callable[[], None], enabled: bool = True, key: int | None = None,
                 reason: str = ""):
        self.label = label
        self.action = action
        self.enabled = enabled
        self.key = key
        self.reason = reason
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.selected = False

    def handle_event(self, event) -> bool:
        """Run the action on a left click inside (or on its key); True when the event was used."""
        if not self.enabled:
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.rect.collidepoint(event.pos):
            self.action()
            return True
        if event.type == pygame.KEYDOWN and self.key is not None and event.key == self.key:
            self.action()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the button (hover and selected states)."""
        hover = self.rect.collidepoint(pygame.mouse.get_pos())
        fill = theme.BUTTON_DISABLED if not self.enabled else (theme.BUTTON_HOVER if hover else theme.BUTTON)
        if self.selected:
            fill = theme.mix(fill, theme.ACCENT, 0.45)
        pygame.draw.rect(surface, fill, self.rect, border_radius=6)
        pygame.draw.rect(surface, theme.ACCENT if self.selected else theme.PANEL_EDGE, self.rect, 1, border_radius=6)
        size = max(14, min(24, self.rect.height - 12))
        fg = theme.TEXT if self.enabled else theme.TEXT_DIM
        theme.blit_text(surface, self.label, self.rect.center, size, fg, anchor="center")


class Toggle(Button):
    """A boolean option shown as ``label: on/off``."""

    def __init__(self, label: str, value: bool, on_change: Callable[[bool], None]):
        super().__init__(label, self._flip)
        self.name = label
        self.value = bool(value)
        self.on_change = on_change
        self._relabel()

    def _relabel(self) -> None:
        self.label = f"{self.name}: {'on' if self.value else 'off'}"
        self.selected = self.value

    def _flip(self) -> None:
        self.value = not self.value
        self._relabel()
        self.on_change(self.value)


class Stepper:
    """A whole-number option with - and + buttons."""

    def __init__(self, label: str, value: int, on_change: Callable[[int], None], step: int = 100, low: int = 0,
                 high: int | None = None, zero: str = "off"):
        self.label, self.value, self.on_change, self.step, self.low = label, int(value), on_change, step, low
        self.high, self.zero = high, zero
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.minus = Button("-", lambda: self._add(-self.step))
        self.plus = Button("+", lambda: self._add(self.step))

    def _add(self, delta: int) -> None:
        self.value = max(self.low, self.value + delta)
        if self.high is not None:
            self.value = min(self.high, self.value)
        self.on_change(self.value)

    def place(self, rect: pygame.Rect) -> None:
        """Set the rectangle (buttons at the right end)."""
        self.rect = rect
        h = rect.height
        self.plus.rect = pygame.Rect(rect.right - h, rect.top, h, h)
        self.minus.rect = pygame.Rect(rect.right - 2 * h - 4, rect.top, h, h)

    def handle_event(self, event) -> bool:
        """Forward to the - and + buttons."""
        return self.minus.handle_event(event) or self.plus.handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        """Label, value and buttons."""
        value = str(self.value) if self.value else self.zero
        theme.blit_text(surface, f"{self.label}: {value}", (self.rect.left, self.rect.centery),
                        max(14, min(22, self.rect.height - 10)), anchor="midleft")
        self.minus.draw(surface)
        self.plus.draw(surface)


class ScrollList:
    """Lines of text in a rectangle, scrolled with the mouse wheel; sticks to the end as lines arrive."""

    def __init__(self, size: int = 18):
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.lines: list[tuple[str, pygame.Color]] = []
        self.size = size
        self.offset = 0  # lines scrolled up from the end

    def set_lines(self, lines: list[tuple[str, pygame.Color]]) -> None:
        """Replace the content."""
        self.lines = lines
        self.offset = min(self.offset, max(0, len(lines) - self.visible))

    @property
    def visible(self) -> int:
        """How many lines fit."""
        return max(1, self.rect.height // (self.size + 2))

    def handle_event(self, event) -> bool:
        """Wheel over the list scrolls it."""
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.offset = max(0, min(len(self.lines) - self.visible, self.offset + event.y))
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """The visible lines."""
        pygame.draw.rect(surface, theme.BACKGROUND, self.rect, border_radius=4)
        end = len(self.lines) - self.offset
        start = max(0, end - self.visible)
        y = self.rect.top + 2
        for line, fg in self.lines[start:end]:
            theme.blit_text(surface, line, (self.rect.left + 6, y), self.size, fg)
            y += self.size + 2


class Modal:
    """A dialog drawn over a scene; it takes every event until it closes."""

    def __init__(self, title: str):
        self.title = title
        self.closed = False
        self.rect = pygame.Rect(0, 0, 0, 0)

    def place(self, size: tuple[int, int]) -> None:
        """Centre the dialog in a window of ``size``."""
        w, h = min(520, size[0] - 40), min(440, size[1] - 40)
        self.rect = pygame.Rect((size[0] - w) // 2, (size[1] - h) // 2, w, h)

    def handle_event(self, event) -> bool:
        """Escape closes the dialog."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.closed = True
        return True

    def draw(self, surface: pygame.Surface) -> None:
        """A dimmed window with the dialog's frame and title."""
        dim = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        dim.fill((0, 0, 0, 150))
        surface.blit(dim, (0, 0))
        pygame.draw.rect(surface, theme.PANEL, self.rect, border_radius=10)
        pygame.draw.rect(surface, theme.ACCENT, self.rect, 2, border_radius=10)
        theme.blit_text(surface, self.title, (self.rect.left + 16, self.rect.top + 14), 26, theme.ACCENT, True)


class PickDialog(Modal):
    """Pick one of a list of names (saved set-ups or games)."""

    def __init__(self, title: str, items: list[str], on_pick: Callable[[str], None], empty: str = "nothing saved yet"):
        super().__init__(title)
        self.items, self.on_pick, self.empty = items, on_pick, empty
        self.scroll = 0
        self.cancel = Button("Cancel", self._close)

    def _close(self) -> None:
        self.closed = True

    def _row(self, i: int) -> pygame.Rect:
        return pygame.Rect(self.rect.left + 16, self.rect.top + 50 + (i - self.scroll) * 30, self.rect.width - 32, 28)

    def place(self, size) -> None:
        super().place(size)
        self.cancel.rect = pygame.Rect(self.rect.right - 130, self.rect.bottom - 50, 110, 36)

    def _rows(self) -> int:
        return max(1, (self.rect.height - 110) // 30)

    def handle_event(self, event) -> bool:
        super().handle_event(event)
        if self.cancel.handle_event(event):
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(len(self.items) - self._rows(), self.scroll - event.y))
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            for i in range(self.scroll, min(len(self.items), self.scroll + self._rows())):
                if self._row(i).collidepoint(event.pos):
                    self.closed = True
                    self.on_pick(self.items[i])
                    break
        return True

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if not self.items:
            theme.blit_text(surface, self.empty, (self.rect.left + 16, self.rect.top + 56), 20, theme.TEXT_DIM)
        mouse = pygame.mouse.get_pos()
        for i in range(self.scroll, min(len(self.items), self.scroll + self._rows())):
            r = self._row(i)
            if r.collidepoint(mouse):
                pygame.draw.rect(surface, theme.BUTTON_HOVER, r, border_radius=4)
            theme.blit_text(surface, self.items[i], (r.left + 8, r.centery), 20, anchor="midleft")
        self.cancel.draw(surface)


class NameDialog(Modal):
    """Type a name (letters, digits, - and _), Enter to accept."""

    def __init__(self, title: str, initial: str, on_done: Callable[[str], None]):
        super().__init__(title)
        self.value, self.on_done = initial, on_done
        self.ok = Button("Save", self._done)
        self.cancel = Button("Cancel", self._cancel)

    def _done(self) -> None:
        if self.value.strip():
            self.closed = True
            self.on_done(self.value.strip())

    def _cancel(self) -> None:
        self.closed = True

    def place(self, size) -> None:
        super().place(size)
        self.rect.height = 180
        self.rect.centery = size[1] // 2
        self.ok.rect = pygame.Rect(self.rect.right - 250, self.rect.bottom - 50, 110, 36)
        self.cancel.rect = pygame.Rect(self.rect.right - 130, self.rect.bottom - 50, 110, 36)

    def handle_event(self, event) -> bool:
        super().handle_event(event)
        if self.ok.handle_event(event) or self.cancel.handle_event(event):
            return True
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._done()
            elif event.key == pygame.K_BACKSPACE:
                self.value = self.value[:-1]
        elif event.type == pygame.TEXTINPUT:
            self.value += "".join(c for c in event.text if c.isalnum() or c in "-_ ")[: 40 - len(self.value)]
        return True

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        box = pygame.Rect(self.rect.left + 16, self.rect.top + 56, self.rect.width - 32, 36)
        pygame.draw.rect(surface, theme.BACKGROUND, box, border_radius=4)
        theme.blit_text(surface, self.value + "|", (box.left + 8, box.centery), 22, anchor="midleft")
        self.ok.draw(surface)
        self.cancel.draw(surface)


def tooltip(surface: pygame.Surface, label: str, pos=None) -> None:
    """A small label next to the mouse (or ``pos``)."""
    x, y = pos or pygame.mouse.get_pos()
    img = theme.text(label, 20, tuple(theme.TEXT))
    box = img.get_rect(topleft=(x + 16, y + 12)).inflate(12, 8)
    box.clamp_ip(surface.get_rect())
    pygame.draw.rect(surface, theme.PANEL, box, border_radius=4)
    pygame.draw.rect(surface, theme.PANEL_EDGE, box, 1, border_radius=4)
    surface.blit(img, img.get_rect(center=box.center))


class ConfirmDialog(Modal):
    """Ask before something that cannot be taken back (resign, leave a game): ``yes`` runs ``on_yes``;
    ``no``, Escape and N close it and change nothing."""

    def __init__(self, title: str, question: str, on_yes: Callable[[], None], yes: str = "Yes", no: str = "No",
                 on_no: Callable[[], None] | None = None):
        super().__init__(title)
        self.question, self.on_yes, self.on_no = question, on_yes, on_no
        self.yes = Button(yes, self._yes, key=pygame.K_y)
        self.no = Button(no, self._no, key=pygame.K_n)

    def _yes(self) -> None:
        self.closed = True
        self.on_yes()

    def _no(self) -> None:
        self.closed = True
        if self.on_no is not None:
            self.on_no()

    def place(self, size) -> None:
        super().place(size)
        self.rect.height = 190
        self.rect.centery = size[1] // 2
        self.yes.rect = pygame.Rect(self.rect.right - 250, self.rect.bottom - 50, 110, 36)
        self.no.rect = pygame.Rect(self.rect.right - 130, self.rect.bottom - 50, 110, 36)

    def handle_event(self, event) -> bool:
        super().handle_event(event)
        if not self.yes.handle_event(event):
            self.no.handle_event(event)
        return True

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        theme.blit_wrapped(surface, self.question, pygame.Rect(self.rect.left + 16, self.rect.top + 54,
                                                               self.rect.width - 32, 70), 20)
        self.yes.draw(surface)
        self.no.draw(surface)
