"""Several server processes ("nodes") on one shared database (PostgreSQL): any node serves any game.

The database decides everything nodes could race for (the store's row locks and unique keys); this module
only keeps each node's memory in step with it:

- **Entries another node committed** arrive as ``(game, seq)`` notices (LISTEN/NOTIFY). For a game loaded
  here, the node catches up from the store's log under the game's lock and then does what it does after a
  local commit: every seat and spectator connected *here* gets its view, the clock timer is re-armed,
  hosted agents are driven, a finished game is let go.
- **Seats** claimed on another node and **who holds each seat's connection** arrive as ``(game, 0)``
  notices: the node reloads the game's seats and holders. A seat is held by one node at a time (the latest
  bind wins in the database); a node whose client lost the seat that way tells it ``replaced``.
- **Presence**: a seat held by another live node counts as connected (views say so, and the grace period
  does not run); a seat held by a node whose heartbeat stopped counts as away from that heartbeat on. The
  holders are polled once a heartbeat, which is how a node's death is noticed.
- **Clocks**: the log's times are the accepting node's clock (keep the nodes' clocks synchronised, NTP).
  While any node is alive the clocks run, as they do for a disconnected player: the clients of a node that
  died reconnect to another within seconds. Only time during which *no* node was alive is not charged: a
  node that starts while another is alive commits no ``resume`` entry; one that starts when every node had
  stopped restores the running clocks as they stood at the latest heartbeat of any node (two nodes starting
  at once race for that entry, and the database accepts one).

Timers, sweeps and hosted agents run on every node that has the game loaded; their entries race like any
other and the database keeps one (the agents are seeded per ply, so both would choose the same move).
"""

from __future__ import annotations

import asyncio
import logging

from gibson_core.errors import GibsonError

from .game import OVER, WAITING, Game
from .store.base import LIVE
from .store.shared import Holder, SharedStore

log = logging.getLogger("gibson.server.cluster")


def catch_up(server, game: Game, entries) -> None:
    """Apply log entries that another writer committed, then do what follows a commit here (views to this
    node's clients, clocks, agents, the end). Called with the game's lock held."""
    applied = []
    for entry in entries:
        if entry.seq == game.seq + 1:
            game.apply(entry)
            applied.append(entry)
    if not applied:
        return
    if server.cluster is not None and any(entry.kind == "rematched" for entry in applied):
        server._spawn(server.cluster.hand_rematch(game))
    if game.phase == OVER and game.id not in server._finished:
        server._finished.add(game.id)  # the node that committed the end recorded it in the games table
        server._evict_later(game)
    server._broadcast(game)
    server._schedule_clock(game)
    server._drive_agents(game)


class Cluster:
    """Keeps one :class:`~.service.GameServer` in step with the other nodes sharing its store."""

    def __init__(self, server):
        self.server = server
        self.store: SharedStore = server.store
        self._wanted: dict[str, int] = {}  # game -> highest seq another node announced
        self._heard: dict[str, dict] = {}  # game -> {seq: the entry, as the notice carried it}
        self._seats_changed: set[str] = set()
        self._following: set[str] = set()
        self._bound: dict[tuple, float] = {}  # (game, player) -> when this node bound the seat
        self._writes: asyncio.Queue = asyncio.Queue()

    @property
    def stale(self) -> float:
        """Seconds without a heartbeat after which a node counts as dead."""
        return max(3.0, 3 * self.server.limits.heartbeat)

    async def start(self) -> float | None:
        """Name this node after the store's, subscribe to the other nodes, start the background work;
        returns the moment from which clocks are not charged (None: another node is alive, nothing to
        restore)."""
        server = self.server
        server.node = self.store.node
        others = {n: t for n, t in (await self.store.nodes()).items() if n != server.node}
        now = server.clock()
        await self.store.subscribe(self.on_notice)
        server._spawn(self._write_loop())
        server._spawn(self._poll_loop())
        if any(now - t < self.stale for t in others.values()):
            return None
        return max(others.values(), default=None)

    # -- what other nodes did ------------------------------------------------------------------------
    async def on_notice(self, game_id: str, seq: int, entry=None) -> None:
        """A notice from another node: entry ``seq`` of a game (with the entry, or None when it must be read
        from the log), or (0) its seats or holders changed."""
        if seq:
            self._wanted[game_id] = max(seq, self._wanted.get(game_id, 0))
            if entry is not None and game_id in self.server.games:
                self._heard.setdefault(game_id, {})[seq] = entry
        else:
            self._seats_changed.add(game_id)
        if game_id not in self._following:
            self._following.add(game_id)
            self.server._spawn(self._follow(game_id))

    async def _follow(self, game_id: str) -> None:
        server = self.server
        try:
            while True:
                loading = server._loading.get(game_id)
                if loading is not None:  # the notice came while the game was being read: wait, then catch up
                    await asyncio.shield(loading)
                game = server.games.get(game_id)
                wanted = self._wanted.pop(game_id, 0)
                heard = self._heard.pop(game_id, {})
                seats = game_id in self._seats_changed
                self._seats_changed.discard(game_id)
                if game is None or (wanted <= game.seq and not seats):
                    return
                async with server.lock(game_id):
                    if seats:
                        game.seats.update(await self.store.seats(game_id))
                        self._presence([game], await self.store.holders(game_id))
                        server._broadcast(game)
                    if wanted > game.seq:
                        entries = [heard.get(seq) for seq in range(game.seq + 1, wanted + 1)]
                        if None in entries:  # one was too big for a notice, or came before the game was loaded
                            entries = await self.store.entries(game_id, game.seq)
                        catch_up(server, game, entries)
        except Exception:
            log.exception("catching up with game %s failed", game_id)
        finally:
            self._following.discard(game_id)
            if game_id in self._wanted or game_id in self._seats_changed:  # came meanwhile
                self._following.add(game_id)
                server._spawn(self._follow(game_id))

    # -- seats held here -----------------------------------------------------------------------------
    def bound(self, game_id: str, player: str) -> None:
        """A connection here took the seat: tell the database (in order with the other seat changes)."""
        since = self.server.clock()
        self._bound[(game_id, player)] = since
        self.server.remote_seats.discard((game_id, player))
        self._writes.put_nowait(("hold", game_id, player, since))

    def released(self, game_id: str, player: str) -> None:
        """The connection here that held the seat is gone."""
        self._bound.pop((game_id, player), None)
        self._writes.put_nowait(("release", game_id, player, None))

    async def _write_loop(self) -> None:
        while True:
            kind, game_id, player, since = await self._writes.get()
            try:
                if kind == "hold":
                    await self.store.hold_seat(game_id, player, since)
                else:
                    await self.store.release_seat(game_id, player)
            except GibsonError:
                log.exception("could not record who holds %s's seat in %s", player, game_id)

    # -- presence ------------------------------------------------------------------------------------
    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self.server.limits.heartbeat)
            try:
                games = [g for g in self.server.games.values() if g.phase != OVER]
                if games:
                    self._presence(games, await self.store.holders())
            except Exception:
                log.exception("reading who holds the seats failed")

    def _presence(self, games: list[Game], rows: list[Holder]) -> None:
        """Mark each seat of ``games`` not connected here as held by a live node (connected) or away (since
        its node's last heartbeat); tell a client here that lost its seat to a later binding elsewhere."""
        server = self.server
        now = server.clock()
        me = server.node
        held = {(h.game_id, h.player): h for h in rows}
        changed = set()
        for game in games:
            for player in game.players:
                if player in game.row.agents:
                    continue
                key = (game.id, player)
                h = held.get(key)
                conn = server.seat_conn.get(key)
                if conn is not None:
                    if h is not None and h.node != me and h.since > self._bound.get(key, now):
                        self._replaced(game, player, conn)
                        changed.add(game.id)
                    else:
                        continue
                alive = h is not None and h.node != me and h.heartbeat is not None and now - h.heartbeat < self.stale
                if alive:
                    if key not in server.remote_seats:
                        server.remote_seats.add(key)
                        server.away.pop(key, None)
                        changed.add(game.id)
                elif key in server.remote_seats or key not in server.away:
                    server.remote_seats.discard(key)
                    gone = h.heartbeat if h is not None and h.heartbeat is not None and h.node != me else now
                    server.away[key] = min(gone, now)
                    changed.add(game.id)
        for game in games:
            if game.id in changed:
                server._broadcast(game)

    def _replaced(self, game: Game, player: str, conn) -> None:
        server = self.server
        key = (game.id, player)
        del server.seat_conn[key]
        self._bound.pop(key, None)
        conn.seats.pop(game.id, None)
        conn.send({"type": "replaced", "game": game.id, "message": "another connection took this seat with its token"})

    async def hand_rematch(self, game: Game) -> None:
        """Another node set up the rematch of ``game``: the players connected here take their seats in it
        (the node that set it up could give tokens only to its own clients)."""
        import secrets

        from .service import token_hash

        server = self.server
        new = await server.load(game.rematch_game)
        if new is None:
            return
        for player in game.players:
            conn = server.seat_conn.get((game.id, player))
            side = game.players[1 - game.players.index(player)]
            if conn is None or player in game.row.agents:
                continue
            token = secrets.token_urlsafe(24)
            async with server.lock(new.id):
                if not await self.store.claim_seat(new.id, side, token_hash(token)):
                    continue
                new.seats[side] = token_hash(token)
                if new.phase != WAITING:
                    await self.store.set_status(new.id, LIVE)
            server._bind(conn, new, side)
            conn.send({"type": "joined", "game": new.id, "seat": side, "token": token, "rematch_of": game.id})
            server._broadcast(new)
            server._drive_agents(new)

    # -- the lobby -----------------------------------------------------------------------------------
    async def load_open(self) -> None:
        """Load the open games other nodes created, so that ``list`` shows every node's games."""
        for row in await self.store.games(("open",), limit=200):
            if row.game_id not in self.server.games:
                await self.server.load(row.game_id)
