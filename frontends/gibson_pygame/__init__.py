"""The pygame(-ce) front end of Gibson.

Everything here reads a variant's static data and one player's :class:`~gibson_core.observe.Observation`;
the hidden game state stays inside :class:`~gibson_pygame.session.Session`. Entry points:

* :func:`gibson_pygame.app.run` opens the window (``gibson play``);
* :func:`gibson_pygame.screenshot.render_position` draws a position headlessly (``gibson screenshot``);
* :func:`gibson_pygame.uibench.measure_frames` times the play screen (``gibson uibench``).
"""

from __future__ import annotations

import os


def headless() -> None:
    """Use SDL's dummy video and audio drivers unless a driver was chosen already (tools and tests)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__all__ = ["headless"]
