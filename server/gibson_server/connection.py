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

    def send(self, message: dict) -> None:
        """Queue a message (dropped once the connection is closing); a full queue closes the connection."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(encode(message))
        except asyncio.QueueFull:
            self.close(1008, "too slow: outgoing queue full")

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the connection with a close frame naming the reason; a client that does not finish the
        closing handshake within a second (a flooder's unread frames hold it up) is dropped."""
        if not self.closed:
            self.closed = True
            asyncio.ensure_future(self.ws.close(code, reason))
            transport = getattr(self.ws, "transport", None)
            if transport is not None:
                asyncio.get_running_loop().call_later(1.0, transport.abort)

    async def write_loop(self) -> None:
        """Send queued messages in order (cancelled when the connection ends)."""
        while True:
            await self.ws.send(await self._queue.get())
