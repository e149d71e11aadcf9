"""One client connection: what it holds (seats, games it watches), its rate limit and its outgoing queue.

Messages to a client go through a bounded queue drained by one writer task, so a slow client never holds
up the game it plays or anyone else; a client that lets its queue fill up is disconnected.
"""

from __future__ import annotations

import asyncio
import itertools

from gibson_core.net.protocol import encode

from .ratelimit import TokenBucket

_ids = itertools.count(1)
DROP_AFTER = 1.0  # seconds a connection this side closes has to take its last messages and close


class Connection:
    """A connected client (a player's window, a bot, a spectator)."""

    def __init__(self, ws, rate: float, burst: float, queue: int):
        self.id = next(_ids)
        self.ws = ws
        self.seats: dict[str, str] = {}  # game id -> the player this connection acts for
        self.watching: set[str] = set()
        self.sent: dict[str, int] = {}  # game id -> plies of history already sent
        self.records_sent: set[str] = set()
        self.created: set[str] = set()
        self.bucket = TokenBucket(rate, burst)
        self.refused = 0
        self.closed = False
        self._queue: asyncio.Queue = asyncio.Queue(maxsize=queue)
        self._writer: asyncio.Future | None = None
        self._closing: asyncio.Future | None = None

    def send(self, message: dict) -> None:
        """Queue a message (dropped once the connection is closing); a full queue closes the connection."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(encode(message))
        except asyncio.QueueFull:
            self.close(1008, "too slow: outgoing queue full", drain=False)

    def start(self) -> None:
        """Start the writer task that sends the queued messages in order."""
        self._writer = asyncio.ensure_future(self._write_loop())

    def close(self, code: int = 1000, reason: str = "", drain: bool = True) -> None:
        """Close the connection with a close frame naming the reason, after the messages already queued
        (a flooder reads why it is refused; with ``drain`` false, at once); a client that does not take
        them and finish the closing handshake within ``DROP_AFTER`` seconds is dropped."""
        if not self.closed:
            self.closed = True
            self._closing = asyncio.ensure_future(self._close(code, reason, drain))
            transport = getattr(self.ws, "transport", None)
            if transport is not None:
                asyncio.get_running_loop().call_later(DROP_AFTER, transport.abort)

    async def finish(self) -> None:
        """When the connection has ended: complete a closing this side began (bounded), stop the writer."""
        self.closed = True
        if self._closing is not None:
            await asyncio.wait({self._closing}, timeout=DROP_AFTER)
        if self._writer is not None:
            self._writer.cancel()

    async def _close(self, code: int, reason: str, drain: bool) -> None:
        if drain:
            drained = asyncio.ensure_future(self._queue.join())
            await asyncio.wait({drained}, timeout=DROP_AFTER / 2)
            drained.cancel()
        await self.ws.close(code, reason)

    async def _write_loop(self) -> None:
        while True:
            await self.ws.send(await self._queue.get())
            self._queue.task_done()
