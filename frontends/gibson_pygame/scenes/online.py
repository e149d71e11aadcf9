"""Playing online: host or join a game on a server, a waiting room, the set-up sent to the server, and a
play screen fed by the server's views (both clocks, the opponent's connection, Resign and Offer draw, no
Undo). Everything goes through :class:`~gibson_pygame.online.OnlineSession`."""

from __future__ import annotations

import pygame

from gibson_core import GibsonError

from .. import theme
from ..online import OnlineSession
from ..widgets import Button, NameDialog
from .base import Scene
from .play import PlayScene
from .setup import SetupScene

DEFAULT_URL = "ws://127.0.0.1:8765"


class TextDialog(NameDialog):
    """A one-line text field that also takes the characters of an address (``ws://host:port``)."""

    def __init__(self, title: str, initial: str, on_done, ok: str = "OK"):
        super().__init__(title, initial, on_done)
        self.ok.label = ok

    def handle_event(self, event) -> bool:
        if event.type == pygame.TEXTINPUT:
            self.value += "".join(c for c in event.text if c.isalnum() or c in "-_.:/[]")[: 80 - len(self.value)]
            return True
        return super().handle_event(event)


class OnlineLobbyScene(Scene):
    """Host the launcher's game on a server, or join one by its code."""

    def __init__(self, app, config, url: str = DEFAULT_URL):
        super().__init__(app)
        self.config, self.url, self.message = config, url, ""

    def _session(self) -> OnlineSession | None:
        try:
            return OnlineSession(self.url)
        except (OSError, GibsonError, TimeoutError) as exc:
            self.message = f"cannot reach {self.url}: {exc or type(exc).__name__}"
            return None

    def host(self) -> None:
        """Create a game on the server with the launcher's choices, then wait for the opponent."""
        self._enter(lambda session: session.host(self.config))

    def join(self, code: str) -> None:
        """Join the game with this code, then wait for it to start."""
        self._enter(lambda session: session.join(code))

    def _enter(self, ask) -> None:
        session = self._session()
        if session is None:
            return
        try:
            ask(session)
        except (GibsonError, TimeoutError) as exc:
            self.message = str(exc)
            session.close()
            return
        self.app.session = session
        self.app.switch(WaitingScene(self.app, session))

    def edit_url(self) -> None:
        def done(value: str) -> None:
            self.url = value
        self.open_modal(TextDialog("Server address", self.url, done))

    def ask_code(self) -> None:
        self.open_modal(TextDialog("Join code", "", self.join, ok="Join"))

    def back(self) -> None:
        from .launcher import LauncherScene

        self.app.switch(LauncherScene(self.app, self.config))

    def resize(self, size) -> None:
        super().resize(size)
        self.buttons = []
        specs = [(f"Server: {self.url}", self.edit_url, None), (f"Host {self.config.variant}", self.host, pygame.K_h),
                 ("Join with a code", self.ask_code, pygame.K_j), ("Back", self.back, pygame.K_ESCAPE)]
        for i, (label, action, key) in enumerate(specs):
            b = Button(label, action, key=key)
            b.rect = pygame.Rect(40, 110 + i * 56, min(520, size[0] - 80), 44)
            self.buttons.append(b)

    def draw(self, surface: pygame.Surface) -> None:
        theme.blit_text(surface, "Play online", (40, 30), 40, theme.ACCENT, True)
        opponent = f"against the server's {self.config.opponent}" if self.config.vs_computer else "against a person"
        theme.blit_text(surface, f"Hosting plays {self.config.variant} {opponent}; the joiner gets the other side.",
                        (40, 78), 20, theme.TEXT_DIM)
        theme.blit_wrapped(surface, self.message, pygame.Rect(40, 360, surface.get_width() - 80, 120), 20, theme.BAD)


class WaitingScene(Scene):
    """The waiting room: the join code to give the opponent, until both seats are taken."""

    def __init__(self, app, session: OnlineSession):
        super().__init__(app)
        self.session = session

    def update(self, dt: float) -> None:
        if self.session.phase != "waiting":
            self.app.switch(OnlineSetupScene(self.app, self.session))

    def leave(self) -> None:
        from .launcher import LauncherScene

        self.session.close()
        self.app.switch(LauncherScene(self.app, self.session.config))

    def resize(self, size) -> None:
        super().resize(size)
        b = Button("Leave", self.leave, key=pygame.K_ESCAPE)
        b.rect = pygame.Rect(40, 260, 200, 44)
        self.buttons = [b]

    def draw(self, surface: pygame.Surface) -> None:
        theme.blit_text(surface, "Waiting for an opponent", (40, 30), 36, theme.ACCENT, True)
        theme.blit_text(surface, f"Join code: {self.session.code}", (40, 100), 44, theme.TEXT, True)
        theme.blit_text(surface, f"{self.session.config.variant}, you play {self.session.seat}, server "
                        f"{self.session.url}", (40, 170), 20, theme.TEXT_DIM)


class OnlineSetupScene(SetupScene):
    """Place the pieces; Start sends the set-up to the server, which checks it privately."""

    def __init__(self, app, session: OnlineSession):
        super().__init__(app, session.config, session.variant, session.seat, {})
        self.session = session
        self.sent = False

    def start(self) -> None:
        if self.problems() or self.sent:
            return
        self.sent = True
        self.session.submit_setup(self.setup)
        self.message = "set-up sent: waiting for the opponent's"

    def back(self) -> None:
        from .launcher import LauncherScene

        self.session.close()
        self.app.switch(LauncherScene(self.app, self.session.config))

    def update(self, dt: float) -> None:
        if self.session.message and self.sent:
            self.sent, self.message = False, self.session.message
            self.session.message = ""
        if self.session.phase in ("play", "over") and self.session.observation(self.session.seat) is not None:
            self.app.switch(OnlinePlayScene(self.app, self.session, self.session.seat))


class OnlinePlayScene(PlayScene):
    """The play screen of an online game: the server's views, both clocks, the opponent's connection."""

    def __init__(self, app, session: OnlineSession, viewer: str):
        super().__init__(app, session, viewer)
        self.shown = session.updates

    @property
    def my_turn(self) -> bool:
        return super().my_turn and not self.session.pending

    def commands(self) -> list:
        """No Undo, Save or Load online: Resign, Offer (or Accept) draw, the value table, the rules, Menu."""
        other = [p for p in self.session.players if p != self.viewer][0]
        draw_label = "Accept draw" if self.session.draw_offer == other else "Offer draw"
        return [("Resign", self.resign, None), (draw_label, self.offer_or_accept, None),
                ("Table (T)", self.show_table, pygame.K_t), ("Rules (F1)", self.show_rules, pygame.K_F1),
                ("Menu", self.menu, None)]

    def update_undo_button(self) -> None:
        """There is no Undo online."""

    def offer_or_accept(self) -> None:
        other = [p for p in self.session.players if p != self.viewer][0]
        if self.session.draw_offer == other:
            self.session.accept_draw()
        else:
            self.session.offer_draw()
            self.message = "draw offered"

    def menu(self) -> None:
        from .launcher import LauncherScene

        self.session.close()
        self.app.switch(LauncherScene(self.app, self.session.config))

    def resign(self) -> None:
        self.session.resign(self.viewer)

    def update(self, dt: float) -> None:
        self.anim.update(dt)
        if self.session.updates != self.shown:
            self.shown = self.session.updates
            self.session.pending = False
            self.after_move(human=False)
            self.resize(self.size)  # the draw button follows the offer
        if self.session.message:
            self.message, self.session.message = self.session.message, ""
        if self.banner_showing(dt):
            return
        if self.session.result() is not None and self.session.game.record is not None:
            self.game_over()  # the full reveal, from the record the server publishes after the end

    def _draw_panel_top(self, surface: pygame.Surface) -> None:
        super()._draw_panel_top(surface)
        p = self.panel
        left = self.session.clock_left()
        links = self.session.connected()
        parts = []
        for player in self.session.players:
            text = player
            if left is not None:
                secs = max(0, int(left[player]))
                text += f" {secs // 60}:{secs % 60:02d}"
            if not links.get(player):
                text += " (away)"
            parts.append(text)
        if self.session.draw_offer and self.session.draw_offer != self.viewer:
            parts.append(f"{self.session.draw_offer} offers a draw")
        theme.blit_text(surface, "  ·  ".join(parts), (p.right - 12, 18), 17, theme.TEXT_DIM, anchor="topright")
