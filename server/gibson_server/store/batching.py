"""Group commit, shared by the stores: log entries that arrive while a transaction is being made go into
the next one together, and each caller is answered only once its own transaction committed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from .base import StoreError


class GroupCommit:
    """Batches rows for ``write(rows) -> [accepted, ...]`` (one answer per row, in the rows' order).

    ``add(row)`` returns the row's answer once the batch holding it is durable; a failed write fails every
    caller of that batch with a :class:`StoreError` that names ``where``. ``after(count)`` runs after each
    committed batch (the SQLite store checkpoints its write-ahead log there)."""

    def __init__(self, write: Callable[[list], Awaitable[list]], where: str,
                 after: Callable[[int], None] | None = None):
        self._write = write
        self._where = where
        self._after = after
        self._pending: list = []
        self._flusher: asyncio.Task | None = None

    async def add(self, row) -> bool:
        """Queue ``row`` for the next transaction and wait for its answer."""
        fut = asyncio.get_running_loop().create_future()
        self._pending.append((row, fut))
        if self._flusher is None:
            self._flusher = asyncio.ensure_future(self._flush())
        return await fut

    async def drain(self) -> None:
        """Wait until every queued row has been written (closing a store)."""
        if self._flusher is not None:
            await self._flusher

    async def _flush(self) -> None:
        try:
            await asyncio.sleep(0)  # let the requests of this turn of the event loop join the batch
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self._write([row for row, _ in batch])
                except Exception as exc:  # the database failed: every waiter learns it
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(StoreError(f"{self._where}: write failed: {str(exc)[:300]}"))
                    continue
                for (_, fut), ok in zip(batch, results, strict=True):
                    if not fut.done():
                        fut.set_result(ok)
                if self._after is not None:
                    self._after(len(batch))
        finally:
            self._flusher = None
