"""A driver for scripted, headless UI tests: real pygame events posted to the queue, one frame at a time.

    driver = UIDriver()                       # dummy video driver, computer answers synchronously
    driver.open(LauncherScene(driver.app))
    driver.click_button("Start")
    driver.click_square("e5")
"""

from __future__ import annotations

from . import headless

headless()

import pygame  # noqa: E402

from .app import App  # noqa: E402


class UIDriver:
    """Posts mouse and key events and steps the app loop with a fixed frame time."""

    def __init__(self, size: tuple[int, int] = (1280, 800), animate: bool = False):
        self.app = App(size, sync_ai=True, animate=animate)  # animations off unless a test is about them

    @property
    def scene(self):
        """The current scene."""
        return self.app.scene

    def open(self, scene) -> None:
        """Make ``scene`` current and draw one frame."""
        self.app.switch(scene)
        self.step()

    def step(self, frames: int = 1, dt: float = 1 / 60) -> None:
        """Run frames (events, update, draw)."""
        for _ in range(frames):
            self.app.step(dt)

    def run_until(self, condition, timeout: float = 20.0) -> None:
        """Run frames at the window's frame rate, as :meth:`App.run` does, until ``condition()`` holds;
        AssertionError after ``timeout`` seconds. For screens fed by another thread (the network client,
        an in-process server): frames run back to back would keep the interpreter lock from that thread
        for seconds at a time, which the paced window never does."""
        import time

        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {condition}"
            self.app.clock.tick(self.app.fps)
            self.step()

    def click(self, pos, button: int = 1) -> None:
        """Press and release a mouse button at ``pos``, then run a frame."""
        pos = tuple(int(v) for v in pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
        self.step()

    def drag(self, start, end) -> None:
        """Press at ``start``, move, release at ``end``."""
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tuple(start), button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=tuple(end), rel=(0, 0), buttons=(1, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=tuple(end), button=1))
        self.step()

    def key(self, key: int, text: str = "") -> None:
        """Press a key (with its text, for typing), then run a frame."""
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=text, scancode=0))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=text, scancode=0))
        self.step()

    def button(self, label: str):
        """The current scene's button with this label (KeyError when there is none)."""
        for b in self.scene.buttons:
            if b.label == label:
                return b
        raise KeyError(f"no button {label!r} (buttons: {[b.label for b in self.scene.buttons]})")

    def click_button(self, label: str) -> None:
        """Click a button of the current scene by its label."""
        self.click(self.button(label).rect.center)

    def square_center(self, square: str) -> tuple[int, int]:
        """Screen centre of a square on the current scene's board."""
        view = self.scene.view
        return view.square_center(view.grid.index[square])

    def click_square(self, square: str) -> None:
        """Click a board square."""
        self.click(self.square_center(square))

    def pixel(self, pos) -> pygame.Color:
        """The colour on screen at ``pos`` after the last frame."""
        return self.app.screen.get_at(tuple(int(v) for v in pos))

    def hover(self, pos) -> None:
        """Move the real pointer to ``pos`` (what ``pygame.mouse.get_pos`` reads), post the motion event
        scenes react to, then run a frame."""
        pos = tuple(int(v) for v in pos)
        pygame.mouse.set_pos(pos)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        self.step()

    def screenshot(self, path) -> str:
        """Save what the last frame drew as a PNG at ``path``; returns the path."""
        pygame.image.save(self.app.screen, str(path))
        return str(path)

    def snapshot(self, name: str) -> str | None:
        """Save the last frame as ``NAME.png`` in the folder ``$GIBSON_UI_SHOTS`` names (to look at what a
        test saw); nothing when it is not set. Returns the path written."""
        import os

        folder = os.environ.get("GIBSON_UI_SHOTS")
        if not folder:
            return None
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{name}.png")
        return self.screenshot(path)
