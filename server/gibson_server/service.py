"""The game server's logic: lobby, seats, set-ups, moves, clocks, agents, restarts.

Every change to a game goes the same way: under the game's lock, the :class:`~.game.Game` *decides* on the
request as the requesting seat, the store *commits* the resulting log entry, and only then is the entry
applied, the requester acknowledged and every seat and spectator sent its own view (``_commit``). On start
the server rebuilds every open and live game from the store, and clocks are not charged for the time the
server was down (from its last heartbeat to the restart). Several server processes may share a PostgreSQL
store: :mod:`.cluster` keeps this one in step with the others (their entries, seats and presence).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import secrets
import time

import attrs

from gibson_core.errors import GibsonError
from gibson_core.net.protocol import (
    CODE_ALPHABET,
    CODE_LENGTH,
    PROTOCOL_VERSION,
    ProtocolError,
    observation_to_wire,
    parse_client_message,
)
from gibson_core.options import check_options
from gibson_core.plugins import load_variant, variant_names

from .agents import AgentPool
from .cluster import Cluster, catch_up
from .connection import Connection
from .game import OVER, PLAY, SETUP, WAITING, Game, GameError
from .store.base import LIVE, OPEN, GameRow, LogEntry, Store
from .store.shared import SharedStore

log = logging.getLogger("gibson.server")
_ID = re.compile(r'"id"\s*:\s*(\d{1,9})[,}\s]')


@attrs.frozen
class Limits:
    """The server's limits (``docs/server.md``); every one is a command-line option of ``gibson serve``."""

    rate: float = 50.0  # messages a second per connection, on average
    burst: float = 100.0  # ... in a burst
    flood_close: int = 200  # refused messages in a row before the connection is closed
    open_games: int = 4  # unfinished games one connection may have created
    queue: int = 1000  # messages waiting to be sent to one connection
    grace: float = 120.0  # seconds a player may be away from a started game before losing it
    abandon: float = 600.0  # seconds after which a game nobody is connected to is ended without a result
    heartbeat: float = 1.0  # seconds between heartbeats (downtime is measured from the last one)
    linger: float = 60.0  # seconds a finished game stays in memory


def token_hash(token: str) -> str:
    """What the store keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _other(game: Game, player: str) -> str:
    return game.players[1 - game.players.index(player)]


class GameServer:
    """Serves games over WebSocket connections (``handler``) from a :class:`Store`."""

    def __init__(self, store: Store, limits: Limits = Limits(), node: str = "local", agents: AgentPool | None = None,
                 clock=time.time, seeds=secrets.randbits):
        """``clock`` (seconds since the epoch) and ``seeds`` (``seeds(bits)``) can be replaced in tests."""
        self.store = store
        self.limits = limits
        self.node = node
        self.agents = agents or AgentPool()
        self.clock = clock
        self.seeds = seeds
        self.games: dict[str, Game] = {}
        self._loading: dict[str, asyncio.Future] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self.seat_conn: dict[tuple, Connection] = {}
        self.spectators: dict[str, set] = {}
        self.away: dict[tuple, float] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._busy: set = set()
        self._finished: set = set()
        self._tasks: set = set()
        self.started_at = 0.0
        self.down_since: float | None = None
        self.cluster: Cluster | None = None  # when other server processes share the store (cluster.py)
        self.remote_seats: set = set()  # (game, player) whose connection another live node holds
        self.restoring: set = set()  # games open or live at start that are not rebuilt yet

    # -- life ----------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the store and start rebuilding every open and live game (in the background: see _restore)."""
        await self.store.open()
        if isinstance(self.store, SharedStore):
            self.cluster = Cluster(self)
            self.down_since = await self.cluster.start()
        else:
            self.down_since = await self.store.last_heartbeat(self.node)
        self.started_at = self.clock()
        await self.store.heartbeat(self.node, self.started_at)
        rows = await self.store.games((OPEN, LIVE))
        self.restoring = {row.game_id for row in rows}
        self._spawn(self._restore(rows))
        self._spawn(self._heartbeats())
        self._spawn(self._sweeper())

    async def _restore(self, rows: list) -> None:
        """Rebuild every open and live game in the background, while the server already serves (a client
        that comes back first has its game rebuilt at once by :meth:`load`)."""
        for row in rows:
            try:
                await self.load(row.game_id)
            except Exception:  # one game that cannot be rebuilt (its variant gone...) must not stop the rest
                log.exception("game %s could not be restored", row.game_id)
            await asyncio.sleep(0)  # let connections in between

    async def stop(self) -> None:
        """Stop background work and close the store."""
        for task in list(self._tasks):
            task.cancel()
        for handle in self._timers.values():
            handle.cancel()
        self.agents.close()
        await self.store.close()

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(self.limits.heartbeat)
            try:
                await self.store.heartbeat(self.node, self.clock())
            except GibsonError:
                log.exception("heartbeat failed")

    # -- games in memory -----------------------------------------------------------------------------
    def lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def load(self, game_id: str) -> Game | None:
        """The game with this code, rebuilt from the store when it is not in memory; None when unknown. A
        game that was running when the server stopped gets its clocks set back to the last heartbeat."""
        if game_id in self.games:
            return self.games[game_id]
        if game_id in self._loading:
            return await asyncio.shield(self._loading[game_id])
        fut = asyncio.get_running_loop().create_future()
        self._loading[game_id] = fut
        try:
            game = await self._rebuild(game_id, game_id in self.restoring)
            self.restoring.discard(game_id)
            fut.set_result(game)
            return game
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: the awaiting callers see it
            raise
        finally:
            del self._loading[game_id]

    async def _rebuild(self, game_id: str, restoring: bool) -> Game | None:
        row = await self.store.get_game(game_id)
        if row is None:
            return None
        game = Game.rebuild(row, await self.store.seats(game_id), await self.store.entries(game_id))
        self.games[game_id] = game
        now = self.clock()
        for player in game.players:
            if player not in row.agents:
                self.away.setdefault((game_id, player), now)
        async with self.lock(game_id):
            if game.phase == OVER:
                self._finished.add(game_id)
                if row.status != OVER:
                    await self.store.set_status(game_id, OVER, self._result_dict(game))
                self._evict_later(game)
                return game
            if restoring and self.down_since is not None and game.clock is not None and game.mark is not None \
                    and game.to_move is not None:  # (no down_since: another node ran meanwhile, cluster.py)
                # charged up to the last heartbeat before the stop, and again since this start
                stopped = max(game.mark, min(self.down_since, self.started_at))
                left = game.remaining(stopped)
                left[game.to_move] = max(0.0, left[game.to_move] - max(0.0, now - self.started_at))
                await self._commit(game, "resume", {"clock": left})
            if row.status == OPEN and game.phase != WAITING:
                await self.store.set_status(game_id, LIVE)
            self._schedule_clock(game)
            self._drive_agents(game)
        return game

    def _evict_later(self, game: Game) -> None:
        def evict():
            if self.games.get(game.id) is game and game.phase == OVER:
                del self.games[game.id]
                self._locks.pop(game.id, None)
                for player in game.players:
                    conn = self.seat_conn.pop((game.id, player), None)
                    if conn is not None:
                        conn.seats.pop(game.id, None)
                    self.away.pop((game.id, player), None)
                for conn in self.spectators.pop(game.id, set()):
                    conn.watching.discard(game.id)
        asyncio.get_running_loop().call_later(self.limits.linger, evict)

    # -- connections ---------------------------------------------------------------------------------
    async def handler(self, ws) -> None:
        """Serve one WebSocket connection until it closes. Never raises on anything a client sends."""
        limits = self.limits
        conn = Connection(ws, limits.rate, limits.burst, limits.queue)
        conn.start()
        try:
            async for raw in ws:
                await self.receive(conn, raw)
                if conn.closed:
                    break
        except Exception as exc:  # a broken connection: whatever it was, this client is gone
            log.debug("connection %s ended: %s", conn.id, exc)
        finally:
            try:
                await conn.finish()
            finally:
                self._gone(conn)

    async def receive(self, conn: Connection, raw) -> None:
        """Handle one message: rate limit, validation, the request; every failure answered with an error."""
        if not conn.bucket.take():
            conn.refused += 1
            if conn.refused <= 10 or conn.refused % 50 == 0:
                found = _ID.search(raw[:200]) if isinstance(raw, str) else None
                self._error(conn, "rate-limited", f"too many messages: at most {self.limits.rate:g} a second",
                            int(found.group(1)) if found else None)
            if conn.refused >= self.limits.flood_close:
                conn.close(1008, "flooding")
            return
        conn.refused = 0
        msg_id = None
        try:
            msg = parse_client_message(raw)
            msg_id = msg.get("id")
            await getattr(self, "on_" + msg["type"])(conn, msg)
        except ProtocolError as exc:
            self._error(conn, exc.code, str(exc), msg_id if msg_id is not None else exc.msg_id)
        except GameError as exc:
            self._error(conn, exc.code, str(exc), msg_id)
        except GibsonError as exc:
            self._error(conn, "refused", str(exc), msg_id)
        except Exception:
            log.exception("internal error on a message")
            self._error(conn, "internal", "the server could not handle this message", msg_id)

    @staticmethod
    def _error(conn: Connection, code: str, message: str, msg_id) -> None:
        out = {"type": "error", "code": code, "message": message[:300]}
        if msg_id is not None:
            out["id"] = msg_id
        conn.send(out)

    @staticmethod
    def _reply(conn: Connection, msg: dict, kind: str, **fields) -> None:
        out = {"type": kind, **fields}
        if "id" in msg:
            out["id"] = msg["id"]
        conn.send(out)

    def _bind(self, conn: Connection, game: Game, player: str) -> None:
        old = self.seat_conn.get((game.id, player))
        if old is not None and old is not conn:
            old.seats.pop(game.id, None)
            old.send({"type": "replaced", "game": game.id,
                      "message": "another connection took this seat with its token"})
        self.seat_conn[(game.id, player)] = conn
        self.away.pop((game.id, player), None)
        conn.seats[game.id] = player
        conn.sent[game.id] = 0
        if self.cluster is not None:
            self.cluster.bound(game.id, player)

    def _unbind(self, conn: Connection, game_id: str, player: str) -> None:
        """The connection holding a seat is gone or left it: the player is away from now on."""
        del self.seat_conn[(game_id, player)]
        self.away[(game_id, player)] = self.clock()
        if self.cluster is not None:
            self.cluster.released(game_id, player)
        if game_id in self.games:
            self._broadcast(self.games[game_id])

    def _gone(self, conn: Connection) -> None:
        for game_id, player in list(conn.seats.items()):
            if self.seat_conn.get((game_id, player)) is conn:
                self._unbind(conn, game_id, player)
        for game_id in conn.watching:
            self.spectators.get(game_id, set()).discard(conn)

    async def _game(self, msg: dict) -> Game:
        game = await self.load(msg["game"])
        if game is None:
            raise GameError(f"there is no game {msg['game']}", "no-game")
        return game

    def _seat(self, conn: Connection, game: Game) -> str:
        player = conn.seats.get(game.id)
        if player is None or self.seat_conn.get((game.id, player)) is not conn:
            raise GameError(f"this connection holds no seat in game {game.id}", "not-seated")
        return player

    # -- the lobby -----------------------------------------------------------------------------------
    async def on_hello(self, conn, msg) -> None:
        if msg["version"] != PROTOCOL_VERSION:
            raise ProtocolError(f"this server speaks protocol version {PROTOCOL_VERSION}, not {msg['version']}",
                                "version")
        self._reply(conn, msg, "welcome", version=PROTOCOL_VERSION, server="gibson",
                    limits={"rate": self.limits.rate, "open_games": self.limits.open_games,
                            "grace": self.limits.grace, "abandon": self.limits.abandon})

    async def on_ping(self, conn, msg) -> None:
        self._reply(conn, msg, "pong")

    async def on_list(self, conn, msg) -> None:
        if self.cluster is not None:
            await self.cluster.load_open()
        games = [{"game": g.id, "variant": g.row.variant, "options": g.row.options, "clock": g.row.clock,
                  "free": [p for p in g.players if p not in g.seats and p not in g.row.agents]}
                 for g in sorted(self.games.values(), key=lambda g: (g.row.created, g.id)) if g.phase == WAITING]
        self._reply(conn, msg, "games", games=games[:100])

    async def on_create(self, conn, msg) -> None:
        unfinished = [g for g in conn.created if g in self.games and self.games[g].phase != OVER]
        if len(unfinished) >= self.limits.open_games:
            raise GameError(f"at most {self.limits.open_games} unfinished games per connection", "too-many-games")
        name = msg["variant"]
        if name not in variant_names():
            raise GameError(f"unknown variant {name!r} (variants: {', '.join(variant_names())})", "bad-variant")
        options = check_options(name, msg.get("options") or {})
        variant = load_variant(name, options or None)
        players = list(variant.players)
        side = msg.get("side", "random")
        if side == "random":
            side = secrets.choice(players)
        elif side not in players:
            raise GameError(f"side must be random or one of {', '.join(players)}", "bad-side")
        agents = {}
        if msg.get("opponent") == "computer":
            from gibson_core.ai import AGENTS

            agent = msg.get("agent", "heuristic")
            if agent not in AGENTS:
                raise GameError(f"unknown agent {agent!r} (agents: {', '.join(sorted(AGENTS))})", "bad-agent")
            agents = {players[1 - players.index(side)]: agent}
        game, token = await self._new_game(name, dict(variant.options) if options else {}, msg.get("clock"),
                                           agents, {side: None})
        token = token[side]
        conn.created.add(game.id)
        self._bind(conn, game, side)
        self._reply(conn, msg, "created", game=game.id, seat=side, token=token)
        self._broadcast(game)
        self._drive_agents(game)

    async def _new_game(self, variant: str, options: dict, clock: dict | None, agents: dict, humans: dict,
                        rematch_of: str | None = None) -> tuple[Game, dict]:
        """Create a game with seats for ``humans`` (a new token for each); returns it and the tokens."""
        if clock is not None:
            clock = {"initial": clock["initial"], "increment": clock.get("increment", 0)}
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            full = len(humans) + len(agents) == 2
            row = GameRow(game_id=code, variant=variant, options=options, clock=clock, seed=self.seeds(62),
                          created=self.clock(), status=LIVE if full else OPEN, agents=agents, rematch_of=rematch_of)
            if await self.store.create_game(row):
                break
        tokens = {p: secrets.token_urlsafe(24) for p in humans}
        for player, token in tokens.items():
            await self.store.claim_seat(code, player, token_hash(token))
        game = Game(row, {p: token_hash(t) for p, t in tokens.items()})
        self.games[code] = game
        return game, tokens

    async def on_join(self, conn, msg) -> None:
        game = await self._game(msg)
        free = [p for p in game.players if p not in game.seats and p not in game.row.agents]
        if game.phase != WAITING or not free or game.row.rematch_of:  # a rematch's seats are its players'
            raise GameError(f"game {game.id} has no free seat", "game-full")
        side = msg.get("side", free[0])
        if side not in free:
            raise GameError(f"{side} is not a free seat of game {game.id}", "seat-taken")
        token = secrets.token_urlsafe(24)
        async with self.lock(game.id):
            if not await self.store.claim_seat(game.id, side, token_hash(token)):
                game.seats.update(await self.store.seats(game.id))
                raise GameError(f"{side} was taken a moment ago", "seat-taken")
            game.seats[side] = token_hash(token)
            await self.store.set_status(game.id, LIVE)
        self._bind(conn, game, side)
        self._reply(conn, msg, "joined", game=game.id, seat=side, token=token)
        self._broadcast(game)

    async def on_resume(self, conn, msg) -> None:
        game = await self._game(msg)
        given = token_hash(msg["token"])
        player = next((p for p, h in game.seats.items() if hmac.compare_digest(h, given)), None)
        if player is None:  # the seat may have been claimed by another server process: ask the store
            game.seats.update(await self.store.seats(game.id))
            player = next((p for p, h in game.seats.items() if hmac.compare_digest(h, given)), None)
        if player is None:
            raise GameError(f"that token holds no seat in game {game.id}", "bad-token")
        self._bind(conn, game, player)
        self._reply(conn, msg, "resumed", game=game.id, seat=player)
        self._broadcast(game)

    async def on_spectate(self, conn, msg) -> None:
        game = await self._game(msg)
        self.spectators.setdefault(game.id, set()).add(conn)
        conn.watching.add(game.id)
        conn.sent[game.id] = 0
        self._reply(conn, msg, "spectating", game=game.id)
        self._send_view(conn, game, None)

    async def on_leave(self, conn, msg) -> None:
        game_id = msg["game"]
        player = conn.seats.pop(game_id, None)
        if player is not None and self.seat_conn.get((game_id, player)) is conn:
            self._unbind(conn, game_id, player)
        conn.watching.discard(game_id)
        self.spectators.get(game_id, set()).discard(conn)
        self._reply(conn, msg, "left", game=game_id)

    # -- acting as a seat ----------------------------------------------------------------------------
    async def on_setup(self, conn, msg) -> None:
        game = await self._game(msg)
        player = self._seat(conn, game)
        async with self.lock(game.id):
            await self._judged(game, lambda: game.decide_setup(player, msg["pieces"]), (conn, msg))

    async def on_play(self, conn, msg) -> None:
        game = await self._game(msg)
        player = self._seat(conn, game)

        def decide():
            if "ply" in msg and game.state is not None and msg["ply"] != game.state.ply:
                raise GameError(f"that move was meant for ply {msg['ply']}; the game is at ply {game.state.ply}",
                                "stale")
            return game.decide_move(player, msg["move"], self.clock())

        async with self.lock(game.id):
            await self._judged(game, decide, (conn, msg))

    async def _simple(self, conn, msg) -> None:
        game = await self._game(msg)
        player = self._seat(conn, game)
        async with self.lock(game.id):
            await self._judged(game, lambda: game.decide_simple(player, msg["type"]), (conn, msg))

    on_resign = on_offer_draw = on_accept_draw = on_decline_draw = on_rematch = _simple

    # -- committing ----------------------------------------------------------------------------------
    async def _judged(self, game: Game, decide, ack) -> LogEntry:
        """Decide on a client's request and commit the entry; when another server process committed first,
        the game has caught up and the request is judged again on the new state (``conflict`` only if that
        keeps happening)."""
        for _ in range(5):
            entry = await self._commit(game, *decide(), ack=ack)
            if entry is not None:
                return entry
        raise GameError("the game changed meanwhile: look at the new view and try again", "conflict")

    async def _commit(self, game: Game, kind: str, data: dict, ack=None) -> LogEntry | None:
        """Commit an entry to the store, then apply it, acknowledge it and send everyone their view.
        Called with the game's lock held. When another writer took the entry's number first, the game
        catches up and None is returned: a client's request is judged again (:meth:`_judged`), the server's
        own entry (resume, timeout, sweep, agent) is dropped and reconsidered on the new state."""
        seq = game.seq + 1
        t = max(self.clock(), game.mark or 0.0)
        if not await self.store.append(game.id, seq, kind, data, t):
            catch_up(self, game, await self.store.entries(game.id, game.seq))  # another writer was first
            return None  # judged again on the new state (_judged), or dropped (the server's own entries)
        entry = LogEntry(seq, kind, data, t)
        game.apply(entry)
        if ack is not None:
            conn, msg = ack
            fields = {"game": game.id, "seq": seq}
            if game.state is not None:
                fields["ply"] = game.state.ply
            self._reply(conn, msg, "ok", **fields)
        if game.phase == OVER and game.id not in self._finished:
            self._finished.add(game.id)
            await self.store.set_status(game.id, OVER, self._result_dict(game))
            self._evict_later(game)
        if kind == "rematch":
            await self._maybe_rematch(game)
        self._broadcast(game)
        self._schedule_clock(game)
        self._drive_agents(game)
        return entry

    @staticmethod
    def _result_dict(game: Game) -> dict | None:
        res = game.result
        return {"winner": res[0], "reason": res[1]} if res else None

    async def _maybe_rematch(self, game: Game) -> None:
        humans = [p for p in game.players if p not in game.row.agents]
        if not set(humans) <= game.rematch or game.rematch_game:
            return
        swap = {p: _other(game, p) for p in game.players}
        if self.cluster is not None:  # a player connected to another node gets the seat from that node
            humans = [p for p in humans if (game.id, p) in self.seat_conn]
        new, tokens = await self._new_game(game.row.variant, game.row.options, game.row.clock,
                                           {swap[p]: a for p, a in game.row.agents.items()},
                                           {swap[p]: None for p in humans}, rematch_of=game.id)
        await self._commit(game, "rematched", {"game": new.id})
        for player in humans:
            conn = self.seat_conn.get((game.id, player))
            if conn is not None:
                self._bind(conn, new, swap[player])
                conn.send({"type": "joined", "game": new.id, "seat": swap[player], "token": tokens[swap[player]],
                           "rematch_of": game.id})
        self._broadcast(new)
        self._drive_agents(new)

    # -- views ---------------------------------------------------------------------------------------
    def _players(self, game: Game) -> dict:
        return {p: {"seated": p in game.seats or p in game.row.agents, "agent": game.row.agents.get(p),
                    "ready": p in game.setups or game.state is not None,
                    "connected": p in game.row.agents or (game.id, p) in self.seat_conn
                    or (game.id, p) in self.remote_seats}
                for p in game.players}

    def _clock(self, game: Game) -> dict | None:
        left = game.remaining(self.clock())
        if left is None:
            return None
        return {"left_ms": {p: int(v * 1000) for p, v in left.items()}, "running": game.to_move,
                "increment": game.row.clock.get("increment", 0)}

    def _send_view(self, conn: Connection, game: Game, player: str | None, obs=None) -> None:
        obs = obs or game.observation(player)
        since = conn.sent.get(game.id, 0)
        res = game.result
        conn.send({"type": "view", "game": game.id, "seat": player, "phase": game.phase,
                   "variant": game.row.variant, "options": game.row.options,
                   "view": observation_to_wire(obs, since) if obs is not None else None,
                   "players": self._players(game), "clock": self._clock(game), "draw_offer": game.draw_offer,
                   "result": {"winner": res[0], "reason": res[1]} if res else None,
                   "rematch": game.rematch_game})
        conn.sent[game.id] = obs.ply if obs is not None else 0
        if game.phase == OVER and game.id not in conn.records_sent:
            conn.records_sent.add(game.id)
            conn.send({"type": "record", "game": game.id, "record": game.record()})

    def _broadcast(self, game: Game) -> None:
        for player in game.players:
            conn = self.seat_conn.get((game.id, player))
            if conn is not None:
                self._send_view(conn, game, player)
        watchers = self.spectators.get(game.id)
        if watchers:
            obs = game.observation(None)
            for conn in list(watchers):
                self._send_view(conn, game, None, obs)

    # -- clocks, agents, abandoned games -------------------------------------------------------------
    def _schedule_clock(self, game: Game) -> None:
        old = self._timers.pop(game.id, None)
        if old is not None:
            old.cancel()
        left = game.remaining(self.clock())
        if left is None or game.to_move is None or game.phase != PLAY:
            return
        delay = left[game.to_move] + 0.01
        self._timers[game.id] = asyncio.get_running_loop().call_later(
            delay, lambda: self._spawn(self._clock_ran_out(game.id)))

    async def _clock_ran_out(self, game_id: str) -> None:
        game = self.games.get(game_id)
        if game is None:
            return
        async with self.lock(game_id):
            left = game.remaining(self.clock())
            if game.phase == PLAY and left is not None and left[game.to_move] <= 0:
                await self._commit(game, *game.timeout_entry(game.to_move))
            else:
                self._schedule_clock(game)

    def _drive_agents(self, game: Game) -> None:
        for player, agent in game.row.agents.items():
            key = (game.id, player)
            if key in self._busy:
                continue
            if game.phase == SETUP and player not in game.setups or game.phase == PLAY and game.to_move == player:
                self._busy.add(key)
                self._spawn(self._agent_turn(game, player, agent))

    async def _agent_turn(self, game: Game, player: str, agent: str) -> None:
        key = (game.id, player)
        try:
            if game.phase == SETUP:
                pieces = await self.agents.setup(game.row.variant, game.row.options, agent, player,
                                                 f"{game.row.seed}/setup/{player}")
                async with self.lock(game.id):
                    await self._commit(game, *game.decide_setup(player, pieces))
            else:
                ply = game.state.ply
                move = await self.agents.move(game.observation(player), agent, f"{game.row.seed}/{player}/{ply}")
                async with self.lock(game.id):
                    if game.state.ply == ply and game.phase == PLAY:
                        await self._commit(game, *game.decide_move(player, move, self.clock()))
        except GibsonError as exc:
            log.warning("agent %s in game %s: %s", agent, game.id, exc)
        except Exception:
            log.exception("agent %s in game %s failed", agent, game.id)
        finally:
            self._busy.discard(key)
        if game.phase != OVER and self.games.get(game.id) is game:
            self._drive_agents(game)

    async def _sweeper(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.limits.grace / 4, self.limits.abandon / 4))
            try:
                await self.sweep()
            except Exception:
                log.exception("sweep failed")

    async def sweep(self) -> None:
        """End games whose players have gone: a player away longer than the grace period loses a started
        game to a present opponent; a game nobody has been at for the abandon timeout ends without result."""
        now = self.clock()
        for game in list(self.games.values()):
            if game.phase == OVER:
                continue
            humans = [p for p in game.players if p not in game.row.agents]
            away = {p: now - self.away[(game.id, p)] for p in humans if (game.id, p) in self.away}
            entry = None
            if humans and all(p in away and away[p] >= self.limits.abandon for p in humans if p in game.seats):
                entry = ("end", {"winner": None, "reason": "abandoned: nobody came back"})
            elif game.phase in (SETUP, PLAY):
                for p, seconds in sorted(away.items()):
                    if seconds >= self.limits.grace and _other(game, p) not in away:
                        entry = ("end", {"winner": _other(game, p),
                                         "reason": f"{p} left and did not come back within {self.limits.grace:g} s"})
                        break
            if entry is not None:
                async with self.lock(game.id):
                    if game.phase != OVER:
                        await self._commit(game, *entry)
