"""Playing on a game server from the window: :class:`OnlineSession` quacks like a local
:class:`~gibson_pygame.session.Session` for the play and game-over screens, but holds no secret — it talks
to the server only through the engine's client library (``gibson_core.net.client``), which runs on an
asyncio loop in a background thread and reconnects by itself after a network loss.

The window never waits on the network: requests are sent and their answers arrive later; the scenes poll
:attr:`OnlineSession.updates` to redraw when a new view has come.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from gibson_core import GibsonError
from gibson_core.net.client import GameClient, GameView
from gibson_core.record import GameRecord

from .session import GameConfig, Session


class OnlineSession:
    """One seat in one game on a server."""

    def __init__(self, url: str, timeout: float = 10.0):
        self.url = url
        self.timeout = timeout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="gibson-online", daemon=True)
        self.thread.start()
        self.client = GameClient(url)
        self.game: GameView | None = None
        self.config: GameConfig | None = None
        self.variant = None
        self.worker = None  # no computer on this screen: the server hosts it
        self.message = ""
        self.pending = False  # a move sent, its view not yet here
        self.saved_ply: int | None = None  # online games are kept by the server, not saved here
        self._final: Session | None = None
        self._call(self.client.connect())

    # -- talking to the server -----------------------------------------------------------------------
    def _call(self, coro):
        """Run a request on the client's loop and wait for its answer (lobby steps only)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(self.timeout)

    def _send(self, coro) -> None:
        """Send a request without waiting; a refusal is shown as :attr:`message`."""
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)

        def done(f) -> None:
            exc = f.exception()
            if exc is not None:
                self.pending = False
                self.message = str(exc)
        future.add_done_callback(done)

    def host(self, config: GameConfig, clock: dict | None = None) -> str:
        """Create a game (the launcher's variant and options; the side chosen there, or random against
        a friend) and take its seat; returns the join code."""
        opponent = "computer" if config.vs_computer else "human"
        side = config.human if config.vs_computer and config.human else "random"
        game = self._call(self.client.create(config.variant, config.options or None, side, clock, opponent,
                                             config.opponent if config.vs_computer else None))
        self._seated(game)
        return game.id

    def join(self, code: str) -> None:
        """Take the free seat of game ``code``."""
        self._seated(self._call(self.client.join(code.strip().upper())))

    def _seated(self, game: GameView) -> None:
        self.game = game
        view = self._call(self.client.wait_for(game.id, lambda g: g.variant is not None, self.timeout))
        self.config = GameConfig(view.variant, dict(view.options))
        self.variant = self.config.load()

    def submit_setup(self, pieces: dict) -> None:
        """Send this seat's set-up (validated privately by the server)."""
        self._send(self.client.submit_setup(self.game.id, dict(pieces)))

    # -- what the screens read -----------------------------------------------------------------------
    @property
    def code(self) -> str:
        return self.game.id

    @property
    def seat(self) -> str:
        return self.game.seat

    @property
    def phase(self) -> str:
        return self.game.phase

    @property
    def updates(self) -> int:
        """Views received so far (a screen redraws when this changes)."""
        return self.game.updates

    @property
    def players(self) -> tuple:
        return self.variant.players

    @property
    def humans(self) -> tuple:
        return (self.game.seat,)

    @property
    def to_move(self) -> str:
        obs = self.game.observation
        return obs.to_move if obs else self.players[0]

    @property
    def ply(self) -> int:
        obs = self.game.observation
        return obs.ply if obs else 0

    def observation(self, player: str):
        """This seat's latest view (the only one the window ever has)."""
        return self.game.observation

    def result(self) -> tuple | None:
        res = self.game.result
        return (res["winner"], res["reason"]) if res else None  # winner None: a draw

    def is_human(self, player: str) -> bool:
        return player == self.game.seat

    def connected(self) -> dict:
        """Each player's connection state as the server sees it (ours: whether our link is up now)."""
        out = {p: bool(info.get("connected")) for p, info in self.game.players.items()}
        out[self.game.seat] = self.client.is_connected
        return out

    def clock_left(self) -> dict | None:
        """Seconds left per player, or None in an untimed game."""
        clock = self.game.clock
        return {p: ms / 1000 for p, ms in clock["left_ms"].items()} if clock else None

    @property
    def draw_offer(self) -> str | None:
        return self.game.draw_offer

    # -- acting --------------------------------------------------------------------------------------
    def play(self, move, by: str | None = None) -> tuple:
        """Send a move as this seat; the new view follows (until then :attr:`pending` is True)."""
        if self.result() is not None:
            raise ValueError("the game is over")
        obs = self.game.observation
        self.pending = True
        self.message = ""
        self._send(self.client.play(self.game.id, str(move), ply=obs.ply))
        return ()

    def undo(self, player: str | None = None) -> bool:
        """No taking back online."""
        return False

    def undo_plan(self, player: str) -> tuple[int, str]:
        return 0, "no taking back in an online game"

    def worker_notice(self) -> str:
        return ""

    def resign(self, player: str) -> None:
        self._send(self.client.resign(self.game.id))

    def offer_draw(self) -> None:
        self._send(self.client.offer_draw(self.game.id))

    def accept_draw(self) -> None:
        self._send(self.client.accept_draw(self.game.id))

    def computer_to_move(self) -> bool:
        return False

    def start_thinking(self) -> None:
        """The opponent thinks elsewhere."""

    def computer_move(self):
        return None

    # -- the end -------------------------------------------------------------------------------------
    def _finished(self) -> Session | None:
        """The whole game, replayed from the record the server publishes after the end."""
        rec = self.game.record
        if self._final is None and rec is not None and rec.get("setups"):
            record = GameRecord(rec["variant"], rec["setups"], rec["moves"], rec.get("options") or {},
                                first=rec.get("first"))
            try:
                self._final = Session(self.config, record.setups, record.replay())
            except GibsonError as exc:
                self.message = f"the record does not replay: {exc}"
            if self._final is not None:
                self._final.resigned = self.result()
        return self._final

    def full_view(self):
        """Every piece revealed, once the game is over and its record has come; until then our own view."""
        final = self._finished()
        return final.full_view() if final is not None else self.game.observation

    def record(self) -> GameRecord:
        final = self._finished()
        if final is None:
            raise GibsonError("the record is published when the game is over")
        return final.record()

    def save(self, path) -> None:
        self.record().save(path)

    def close(self) -> None:
        """Close the connection and stop the background loop."""
        with contextlib.suppress(Exception):  # already gone: nothing to close
            self._call(self.client.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
