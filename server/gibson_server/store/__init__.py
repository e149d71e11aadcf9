"""Where the server keeps games: a narrow async interface (:mod:`.base`) and its SQLite implementation."""

from __future__ import annotations

from .base import GameRow, LogEntry, Store, StoreError


def open_store(location: str, node: str | None = None, sync: str = "normal") -> Store:
    """The store for ``--db``: ``postgresql://USER@HOST[:PORT]/DB`` (several server processes may share
    it) or a file path (SQLite, one server process; ``sync`` "normal" or "full", see :mod:`.sqlite`)."""
    scheme = location.split("://", 1)[0].lower() if "://" in location else ""
    if scheme in ("postgresql", "postgres"):
        from .postgres import PostgresStore

        return PostgresStore(location, node)
    if scheme:
        raise StoreError(f"no store for {scheme[:20]}:// databases (use postgresql://... or a SQLite file path)")
    from .sqlite import SQLiteStore

    return SQLiteStore(location, sync)


__all__ = ["GameRow", "LogEntry", "Store", "StoreError", "open_store"]
