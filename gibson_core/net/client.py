"""A client library for the game server: connect, create or join a game, submit a set-up, play, and read
each game's view as an :class:`~gibson_core.observe.Observation` — so a terminal client, a bot or the window
need not reimplement the protocol (``docs/protocol.md``).

Everything is asyncio. After a network loss the client reconnects by itself with exponential back-off and
resumes every seat it holds with its token (and every game it watches); the server then sends the current
views. A request that was in flight when the connection broke raises :class:`ConnectionLost`: look at the
view after the reconnection to see whether it was accepted.

    client = await connect("ws://127.0.0.1:8765")
    game = await client.create("tri-tactics")
    await client.submit_setup(game.id, pieces)
    view = await client.wait_for(game.id, lambda g: g.my_turn or g.over)
    await client.play(game.id, str(view.observation.legal_moves[0]))
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random

from ..errors import GibsonError, quote
from ..observe import Observation
from .protocol import PROTOCOL_VERSION, ProtocolError, decode_server_message, encode, observation_from_wire


def check_url(url) -> str:
    """``url`` if it is a server address ``ws://HOST[:PORT]`` or ``wss://…``, else ProtocolError with words
    (checked before dialling: a wrong address would otherwise be retried with back-off for ever)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url) if isinstance(url, str) and len(url) <= 2000 else None
        port = parts.port if parts else None
    except ValueError:
        parts = port = None
    if parts is None or parts.scheme not in ("ws", "wss") or not parts.hostname or port == 0:
        raise ProtocolError(f"expected a server address like ws://127.0.0.1:8765, got {quote(url, 40)}", "bad-url")
    return url


class ServerError(GibsonError):
    """The server refused a request; ``code`` is its machine-readable word (``not-your-turn``, ...)."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


class ConnectionLost(GibsonError):
    """The connection broke before the server answered (the client is reconnecting)."""


class GameView:
    """What the client knows of one game: its seat and token (None for a spectator), and the latest view."""

    def __init__(self, game_id: str, seat: str | None = None, token: str | None = None):
        self.id = game_id
        self.seat = seat
        self.token = token
        self.phase = "waiting"
        self.variant: str | None = None
        self.options: dict = {}
        self.observation: Observation | None = None
        self.players: dict = {}
        self.clock: dict | None = None
        self.draw_offer: str | None = None
        self.result: dict | None = None
        self.record: dict | None = None
        self.rematch: str | None = None
        self.updates = 0  # views received
        self._moves: list = []
        self._events: list = []

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move."""
        return self.observation is not None and self.seat is not None and self.observation.my_turn

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def _update(self, msg: dict) -> None:
        self.phase = msg["phase"]
        self.variant, self.options = msg["variant"], msg.get("options") or {}
        self.players = msg.get("players") or {}
        self.clock = msg.get("clock")
        self.draw_offer = msg.get("draw_offer")
        self.result = msg.get("result")
        self.rematch = msg.get("rematch")
        if msg.get("view") is not None:
            self.observation = observation_from_wire(msg["view"], self._moves, self._events)
        self.updates += 1


class GameClient:
    """One connection to a game server (see the module's docstring)."""

    def __init__(self, url: str, reconnect: bool = True, backoff: tuple = (0.1, 2.0), keep_raw: bool = False,
                 open_timeout: float = 10.0, ssl=None):
        """``ssl``: an ``ssl.SSLContext`` for a ``wss://`` server whose certificate the system does not
        trust (the default context checks it against the system's certificate authorities)."""
        self.url = check_url(url)
        self.ssl = ssl
        self.reconnect = reconnect
        self.backoff = backoff
        self.open_timeout = open_timeout
        self.games: dict[str, GameView] = {}
        self.watching: set[str] = set()
        self.raw: list[str] | None = [] if keep_raw else None
        self.errors: list[dict] = []  # errors the server sent without a request id
        self.reconnects = 0
        self._ws = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._changed = asyncio.Event()
        self._reader: asyncio.Task | None = None
        self._closing = False
        self._connected = asyncio.Event()

    # -- connection ----------------------------------------------------------------------------------
    async def connect(self) -> GameClient:
        """Open the connection and say hello (ProtocolError when the server speaks another version)."""
        await self._open()
        self._reader = asyncio.ensure_future(self._read_loop())
        await self.request({"type": "hello", "version": PROTOCOL_VERSION})
        return self

    async def _open(self) -> None:
        self._ws = await self._dial()
        self._connected.set()

    async def _dial(self):
        from websockets.asyncio.client import connect as ws_connect

        extra = {"ssl": self.ssl} if self.ssl is not None else {}
        return await ws_connect(self.url, compression=None, proxy=None, open_timeout=self.open_timeout,
                                max_size=2**24, **extra)

    async def wait_connected(self, timeout: float = 60.0) -> None:
        """Wait until the connection is up again (TimeoutError after ``timeout`` seconds)."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    @property
    def is_connected(self) -> bool:
        """True while the connection is up (False while reconnecting)."""
        return self._connected.is_set()

    async def close(self) -> None:
        """Close the connection for good (no reconnection)."""
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def __aenter__(self) -> GameClient:
        return await self.connect()

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def _read_loop(self) -> None:
        while True:
            try:
                async for text in self._ws:
                    self._receive(text)
            except Exception:  # the connection broke: fall through to reconnecting
                pass
            self._connected.clear()
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionLost("connection lost before the server answered"))
            self._pending.clear()
            self._notify()
            if self._closing or not self.reconnect:
                return
            await self._reconnect()

    async def _reconnect(self) -> None:
        """Dial again with exponential back-off (and jitter) until the server answers, then resume every
        seat and spectated game before anything else is sent on the new connection."""
        delay, cap = self.backoff
        while not self._closing:
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(cap, delay * 2)
            try:
                ws = await self._dial()
                for message in self._resume_messages():
                    await ws.send(encode(message))
            except Exception:  # refused, reset, handshake cut short while the server starts: try again
                continue
            self._ws = ws
            self.reconnects += 1
            self._connected.set()
            return

    def _resume_messages(self) -> list[dict]:
        out = [{"type": "hello", "version": PROTOCOL_VERSION}]
        for game in self.games.values():
            if game.token:
                out.append({"type": "resume", "game": game.id, "token": game.token})
        out += [{"type": "spectate", "game": g} for g in sorted(self.watching)]
        return out

    def _receive(self, text) -> None:
        if self.raw is not None:
            self.raw.append(text)
        try:
            msg = decode_server_message(text)
        except ProtocolError as exc:
            self.errors.append({"type": "error", "code": "client", "message": str(exc)})
            return
        try:
            self._dispatch(msg)
        except (ProtocolError, KeyError, TypeError) as exc:
            self.errors.append({"type": "error", "code": "client", "message": str(exc)})
        fut = self._pending.pop(msg.get("id"), None) if isinstance(msg.get("id"), int) else None
        if fut is not None and not fut.done():
            fut.set_result(msg)
        self._notify()

    def _dispatch(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "view":  # may come before the answer that names the game has been read: keep it
            game = self.games.get(msg["game"])
            if game is None:
                game = self.games[msg["game"]] = GameView(msg["game"], msg.get("seat"))
            game._update(msg)
        elif kind == "record" and msg.get("game") in self.games:
            self.games[msg["game"]].record = msg.get("record")
        elif kind == "joined" and "id" not in msg:  # a rematch the server set up
            self.games[msg["game"]] = GameView(msg["game"], msg["seat"], msg["token"])
        elif kind == "replaced" and msg.get("game") in self.games:
            self.games[msg["game"]].token = None  # another connection holds the seat now
        elif kind == "error" and "id" not in msg:
            self.errors.append(msg)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # -- requests ------------------------------------------------------------------------------------
    async def request(self, message: dict, timeout: float = 30.0) -> dict:
        """Send a message and wait for its answer; ServerError when the answer is an error. A request the
        server's rate limit turned away is sent again a little later."""
        for attempt in range(8):
            try:
                return await self._request(message, timeout)
            except ServerError as exc:
                if exc.code != "rate-limited" or attempt == 7:
                    raise
                await asyncio.sleep(0.1 * 2**attempt)
        raise AssertionError("unreachable")

    async def _request(self, message: dict, timeout: float) -> dict:
        if not self._connected.is_set():
            await asyncio.wait_for(self._connected.wait(), timeout)
        msg_id = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = fut
        try:
            text = encode({**message, "id": msg_id})
        except (TypeError, ValueError) as exc:  # a value JSON cannot carry: nothing was sent
            self._pending.pop(msg_id, None)
            raise ProtocolError(f"cannot send {quote(message.get('type'), 20)}: {str(exc)[:80]}") from None
        try:
            await self._ws.send(text)
        except Exception:
            self._pending.pop(msg_id, None)
            raise ConnectionLost("connection lost while sending") from None
        answer = await asyncio.wait_for(fut, timeout)
        if answer["type"] == "error":
            raise ServerError(answer.get("code", "error"), answer.get("message", ""))
        return answer

    async def list_games(self) -> list[dict]:
        """Open games waiting for an opponent."""
        return (await self.request({"type": "list"}))["games"]

    async def create(self, variant: str, options: dict | None = None, side: str = "random",
                     clock: dict | None = None, opponent: str = "human", agent: str | None = None) -> GameView:
        """Create a game and take a seat in it; the view's ``id`` is the join code to give the opponent."""
        msg = {"type": "create", "variant": variant, "side": side, "opponent": opponent}
        if options:
            msg["options"] = options
        if clock:
            msg["clock"] = clock
        if agent:
            msg["agent"] = agent
        return self._seated(await self.request(msg))

    async def join(self, code: str, side: str | None = None) -> GameView:
        """Take the free seat of game ``code``."""
        msg = {"type": "join", "game": code}
        if side:
            msg["side"] = side
        return self._seated(await self.request(msg))

    async def resume(self, code: str, token: str) -> GameView:
        """Take back a seat with its token (from another process, after a crash...)."""
        answer = await self.request({"type": "resume", "game": code, "token": token})
        game = self.games.setdefault(code, GameView(code))
        game.seat, game.token = answer["seat"], token
        return game

    async def spectate(self, code: str) -> GameView:
        """Watch a game: a view in which no hidden type appears."""
        game = self.games.setdefault(code, GameView(code))
        self.watching.add(code)
        await self.request({"type": "spectate", "game": code})
        return game

    def _seated(self, answer: dict) -> GameView:
        game = self.games.get(answer["game"]) or GameView(answer["game"])
        game.seat, game.token = answer["seat"], answer["token"]
        self.games[game.id] = game
        return game

    async def submit_setup(self, code: str, pieces: dict) -> dict:
        """Submit this seat's set-up ``{square: piece id}`` (validated privately by the server)."""
        return await self.request({"type": "setup", "game": code, "pieces": dict(pieces)})

    async def play(self, code: str, move: str, ply: int | None = None) -> dict:
        """Submit a move in notation as this seat; answered once the server has stored it. With ``ply``
        the server refuses the move if the game has moved on meanwhile (safe to resend after a loss)."""
        msg = {"type": "play", "game": code, "move": str(move)}
        if ply is not None:
            msg["ply"] = ply
        return await self.request(msg)

    async def resign(self, code: str) -> dict:
        return await self.request({"type": "resign", "game": code})

    async def offer_draw(self, code: str) -> dict:
        return await self.request({"type": "offer_draw", "game": code})

    async def accept_draw(self, code: str) -> dict:
        return await self.request({"type": "accept_draw", "game": code})

    async def decline_draw(self, code: str) -> dict:
        return await self.request({"type": "decline_draw", "game": code})

    async def rematch(self, code: str) -> dict:
        """Ask for a rematch (sides swapped); when both ask, a ``joined`` for the new game arrives."""
        return await self.request({"type": "rematch", "game": code})

    async def leave(self, code: str) -> dict:
        """Stop receiving a game's views (a seat stays yours: resume it with its token)."""
        self.watching.discard(code)
        game = self.games.pop(code, None)
        del game
        return await self.request({"type": "leave", "game": code})

    # -- views ---------------------------------------------------------------------------------------
    def view(self, code: str) -> Observation | None:
        """The latest Observation of game ``code`` (None before the game starts)."""
        game = self.games.get(code)
        return game.observation if game else None

    async def wait_for(self, code: str, predicate, timeout: float = 30.0) -> GameView:
        """Wait until ``predicate(game view)`` holds (checked on every message); TimeoutError after
        ``timeout`` seconds."""
        async def waiting():
            while True:
                game = self.games.get(code)
                if game is not None and predicate(game):
                    return game
                await self._changed.wait()

        return await asyncio.wait_for(waiting(), timeout)


async def connect(url: str, **kwargs) -> GameClient:
    """A connected :class:`GameClient` (see its arguments)."""
    return await GameClient(url, **kwargs).connect()
