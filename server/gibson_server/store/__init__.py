"""Where the server keeps games: a narrow async interface (:mod:`.base`) and its SQLite implementation."""

from __future__ import annotations

from .base import GameRow, LogEntry, Store, StoreError


def open_store(location: str, sync: str = "normal") -> Store:
    """The store for ``--db``: a file path (SQLite; ``sync`` "normal" or "full", see :mod:`.sqlite`). Other
    schemes (``postgresql://``) are for later stores."""
    if "://" in location:
        raise StoreError(f"no store for {location.split('://')[0]}:// databases yet (use a SQLite file path)")
    from .sqlite import SQLiteStore

    return SQLiteStore(location, sync)


__all__ = ["GameRow", "LogEntry", "Store", "StoreError", "open_store"]
