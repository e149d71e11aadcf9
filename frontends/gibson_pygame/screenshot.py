"""Headless pictures of positions: what one player sees, or everything (``all``)."""

from __future__ import annotations

import random

import pygame

from gibson_core.observe import viewer_from_text

from . import headless
from .session import GameConfig, Session

SIZE = (1280, 800)


def position_session(variant: str, record: str | None = None, ply: int | None = None, plies: int = 0,
                     seed: int = 0, options: dict | None = None) -> Session:
    """A session at a recorded position (``record`` up to ``ply``), or from random set-ups followed by
    ``plies`` random moves."""
    if record:
        from gibson_core.record import load_record

        rec = load_record(record)
        state = rec.replay(ply)
        return Session(GameConfig(rec.variant, dict(rec.options or {})), rec.setups, state)
    session = Session.random(GameConfig(variant, dict(options or {})), seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if session.result() is not None:
            break
        obs = session.observation(session.to_move)
        session.play(rng.choice(obs.legal_moves))
    return session


def render_session(session: Session, viewer: str, size: tuple[int, int] = SIZE) -> pygame.Surface:
    """The play screen of ``session`` as ``viewer`` (a player or ``all``) sees it, on a new surface."""
    from . import theme
    from .scenes.play import PlayScene

    headless()
    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1))
    surface = pygame.Surface(size)
    surface.fill(theme.BACKGROUND)
    scene = PlayScene(None, session, viewer)
    scene.resize(size)
    scene.render(surface)
    return surface


def render_position(variant: str, out: str, viewer: str = "blue", record: str | None = None,
                    ply: int | None = None, plies: int = 0, seed: int = 0, options: dict | None = None,
                    size: tuple[int, int] = SIZE) -> str:
    """Render a position to a PNG file; returns the path."""
    session = position_session(variant, record, ply, plies, seed, options)
    shown = viewer_from_text(session.variant, viewer) if isinstance(viewer, str) else viewer
    pygame.image.save(render_session(session, shown, size), out)
    return out
