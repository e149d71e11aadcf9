"""The Review screen: a saved game stepped through ply by ply (buttons, arrow keys, Home and End), seen as a
player saw it at the time, and fully revealed only once the game is over.

While a saved game is not over, its review shows only what its reader could see by playing it on: against
the computer, the human's own view; a hot-seat game that is not over is not reviewed (each player would see
the other's pieces); a plain record (``gibson-record/1``, in clear anyway) shows either player's view.
"""

from __future__ import annotations

import pygame

from gibson_core import GibsonError, Move
from gibson_core.errors import RecordError

from .. import theme
from ..narrate import describe, result_text
from ..savegame import read_save
from ..session import FRIEND, GameConfig, Session
from ..widgets import Button, PickDialog
from .position import ALL, PositionScene


class ReviewSession(Session):
    """A record replayed to any ply. Observations are those of the state at that ply, for the players in
    :attr:`viewers`; the full reveal is refused until the record's game is over. ``seats`` are a saved
    game's (None for a plain record)."""

    def __init__(self, record, seats: dict | None = None):
        final = record.replay()  # validates the whole record first (RecordError names a bad ply)
        self.total = len(record.moves)
        self.over = final.outcome() is not None
        players = final.variant.players
        if self.over or seats is None:
            self.viewers = tuple(players)
        elif seats.get("opponent", FRIEND) != FRIEND and seats.get("human") in players:
            self.viewers = (seats["human"],)
        else:
            raise RecordError("this hot-seat game is not over: reviewing it would show each player the other's "
                              "pieces (continue it with Load game)")
        self._moves = [Move.parse(m) for m in record.moves]
        config = GameConfig(record.variant, dict(record.options or {}))
        super().__init__(config, record.setups, record.replay(0))

    def goto(self, ply: int) -> None:
        """Show the game after ``ply`` plies (clamped to the record)."""
        ply = max(0, min(self.total, ply))
        while len(self._state.history) > ply:
            self._state.pop()
        while len(self._state.history) < ply:
            self._state.play(self._moves[len(self._state.history)])

    @property
    def at(self) -> int:
        """Plies shown."""
        return len(self._state.history)

    def full_view(self):
        """Every piece at the shown ply, once the game is over (else ValueError: hidden information)."""
        if not self.over:
            raise ValueError("the full reveal is for finished games only")
        return super().full_view()

    def play(self, move, by: str | None = None) -> tuple:
        raise ValueError("a review does not play moves")


class ReviewScene(PositionScene):
    """Step through a record as blue, red or (after the end) everyone."""

    def __init__(self, app, session: ReviewSession, viewer: str | None = None, back=None):
        super().__init__(app, session, viewer or session.viewers[0])
        self.back = back
        self.message = ""

    def views(self) -> list[str]:
        """The viewpoints offered: the players the record may be shown to, and the full reveal once the game
        is over."""
        return list(self.session.viewers) + ([ALL] if self.session.over else [])

    def view_as(self, viewer: str) -> None:
        """Switch the viewpoint (the full reveal only when the game is over)."""
        if viewer not in self.views():
            self.message = ("the full reveal opens once the game is over" if viewer == ALL else
                            f"{viewer}'s view is not yours to see while the game is not over")
            return
        self.set_viewer(viewer)
        self.resize(self.size)

    def step(self, delta: int) -> None:
        """Move through the record by ``delta`` plies."""
        self.session.goto(self.session.at + delta)
        self.refresh()

    def open_other(self) -> None:
        """Pick another saved game."""
        from .. import storage

        def pick(name: str) -> None:
            why = open_record(self.app, storage.game_path(name), self.back)
            if why:
                self.message = why
        self.open_modal(PickDialog("Review a saved game", storage.game_names(), pick))

    def menu(self) -> None:
        """Back to the launcher."""
        from .launcher import LauncherScene

        self.app.switch(LauncherScene(self.app, self.back))

    def resize(self, size) -> None:
        super().resize(size)
        p = self.panel
        bw = (p.width - 42) // 4
        total = self.session.total
        steps = [("|<", lambda: self.step(-total), pygame.K_HOME), ("<", lambda: self.step(-1), pygame.K_LEFT),
                 (">", lambda: self.step(1), pygame.K_RIGHT), (">|", lambda: self.step(total), pygame.K_END)]
        self.buttons = []
        for i, (label, action, key) in enumerate(steps):
            b = Button(label, action, key=key)
            b.rect = pygame.Rect(p.left + 12 + i * (bw + 6), 78, bw, 34)
            self.buttons.append(b)
        names = {ALL: "Reveal all"}
        views = list(self.session.players) + [ALL]
        vw = (p.width - 36) // 3
        for i, v in enumerate(views):
            enabled = v in self.views()
            b = Button(names.get(v, f"As {v}"), lambda v=v: self.view_as(v), enabled=enabled,
                       reason="" if enabled else "once the game is over" if v == ALL else "not while it is played")
            b.rect = pygame.Rect(p.left + 12 + i * (vw + 6), 118, vw, 34)
            b.selected = v == self.viewer
            self.buttons.append(b)
        for i, (label, action) in enumerate([("Open...", self.open_other), ("Menu", self.menu)]):
            b = Button(label, action)
            b.rect = pygame.Rect(p.left + 12 + i * (vw + 6), 158, vw, 34)
            self.buttons.append(b)
        self.buttons_bottom = 290

    def handle_event(self, event) -> None:
        super().handle_event(event)
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN):
            self.step(-1 if event.key == pygame.K_UP else 1)

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_position(surface)
        p = self.panel
        pygame.draw.rect(surface, theme.PANEL, p)
        pygame.draw.line(surface, theme.PANEL_EDGE, p.topleft, p.bottomleft, 2)
        x = p.left + 12
        theme.blit_text(surface, f"Review: {self.variant.title}", (x, 12), 26, theme.TEXT, True)
        who = "everything revealed" if self.viewer == ALL else f"as {self.viewer} saw it"
        theme.blit_text(surface, f"ply {self.session.at} of {self.session.total}, {who}", (x, 48), 19,
                        theme.TEXT_DIM)
        y = 200
        if self.message:
            theme.blit_fit(surface, self.message, (x, y), 18, p.width - 24, theme.BAD, anchor="topleft")
        y += 22
        events = self.obs.events[self.session.at - 1] if self.session.at else ()
        lines = [text for e in events if (text := describe(e, self.variant))]
        if self.session.at == self.session.total and self.obs.result:
            lines.append(result_text(*self.obs.result))
        for line in lines[-3:]:
            theme.blit_fit(surface, line, (x, y), 17, p.width - 24, theme.ACCENT, anchor="topleft")
            y += 20
        self.draw_panel(surface, self.buttons_bottom)
        if self.modal is None:
            self.draw_hover(surface)


def open_record(app, path, back: GameConfig | None = None) -> str:
    """Open a saved game or a plain record in the Review screen; returns "" or why it cannot be opened."""
    try:
        session = ReviewSession(*read_save(path))
    except (GibsonError, OSError) as exc:
        return str(exc)
    app.switch(ReviewScene(app, session, back=back))
    return ""
