"""Test harness for the game server: an event loop in a thread (so hypothesis and plain tests can drive
async clients), a server on an ephemeral loopback port, and helpers that wait on events with timeouts."""

from __future__ import annotations

import asyncio
import threading

from gibson_server.agents import AgentPool
from gibson_server.service import GameServer, Limits
from gibson_server.store.sqlite import SQLiteStore

from gibson_core.net.client import GameClient
from gibson_core.net.protocol import MAX_MESSAGE_BYTES
from gibson_core.plugins import load_variant
from gibson_core.setup import random_setup


class LoopThread:
    """An asyncio loop running in a daemon thread; ``run(coro)`` waits for the result (with a timeout)."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout: float = 30.0):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


class Served:
    """A GameServer listening on 127.0.0.1 on a free port, driven from a LoopThread."""

    def __init__(self, lt: LoopThread, db, limits: Limits | None = None, **kwargs):
        self.lt = lt
        self.server = GameServer(SQLiteStore(db), limits or Limits(rate=1e6, burst=1e6),
                                 agents=AgentPool(1, 0.05), **kwargs)

        async def start():
            from websockets.asyncio.server import serve

            await self.server.start()
            return await serve(self.server.handler, "127.0.0.1", 0, max_size=MAX_MESSAGE_BYTES, compression=None)

        self.ws = lt.run(start())
        self.url = f"ws://127.0.0.1:{self.ws.sockets[0].getsockname()[1]}"

    async def client_async(self, **kwargs) -> GameClient:
        """A connected client (call on the loop thread)."""
        return await GameClient(self.url, **kwargs).connect()

    def close(self) -> None:
        async def stop():
            self.ws.close()
            await self.ws.wait_closed()
            await self.server.stop()

        self.lt.run(stop())


async def start_game(host: GameClient, guest: GameClient, variant: str = "tri-tactics", options=None, clock=None,
                     setups: dict | None = None, side: str = "blue"):
    """Create (host) and join (guest) a game, submit both set-ups; returns the game code once both see it
    started."""
    v = load_variant(variant, options)
    game = await host.create(variant, options=options, side=side, clock=clock)
    await guest.join(game.id)
    for i, client in enumerate((host, guest)):
        seat = client.games[game.id].seat
        await client.submit_setup(game.id, (setups or {}).get(seat) or random_setup(v, seat, i + 1))
    for client in (host, guest):
        await client.wait_for(game.id, lambda g: g.phase != "setup" and g.observation is not None, 10)
    return game.id


def mover(clients, code: str) -> GameClient:
    """The client whose seat is to move."""
    return next(c for c in clients if c.games[code].my_turn)


async def settle(clients, code: str, ply: int) -> None:
    """Wait until every client has seen ply ``ply`` (or the end)."""
    await asyncio.gather(*(c.wait_for(code, lambda g: g.over or (g.observation is not None and g.observation.ply >= ply), 10)
                           for c in clients))
