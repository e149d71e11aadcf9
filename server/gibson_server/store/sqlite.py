"""The SQLite store (standard library ``sqlite3``, WAL mode): the default for one server process.

Appends are group-committed: entries that arrive while a commit is being made go into the next transaction
together, and each caller is answered only after its own transaction committed. ``synchronous=NORMAL`` in
WAL mode keeps every committed entry across a crash of the server process (SIGKILL) and does no fsync per
commit, so a commit takes a fraction of a millisecond and is made on the event loop's thread (handing it to
another thread costs more than that under the GIL). ``sync="full"`` also keeps entries across a power cut,
at the price of an fsync per commit, and then runs all database work on one dedicated thread so the event
loop never waits on the disk. In the default mode the WAL is checkpointed into the database file (the step
that does fsync) by a second connection on that thread, every ``CHECKPOINT_PAGES`` pages, never on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .base import GameRow, LogEntry, Store, StoreError
from .batching import GroupCommit

SCHEMA_VERSION = 1
CHECKPOINT_PAGES = 1000
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT NOT NULL, clock TEXT, seed INTEGER NOT NULL,
    created REAL NOT NULL, status TEXT NOT NULL, agents TEXT NOT NULL, rematch_of TEXT, result TEXT);
CREATE INDEX IF NOT EXISTS games_status ON games (status, created);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL, player TEXT NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (game_id, player));
CREATE TABLE IF NOT EXISTS log (
    game_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, t REAL NOT NULL,
    PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS nodes (node TEXT PRIMARY KEY, heartbeat REAL NOT NULL);
"""


class SQLiteStore(Store):
    """A :class:`Store` in one SQLite file."""

    def __init__(self, path: str | Path, sync: str = "normal"):
        self.path = Path(path)
        self.sync = sync
        self._db: sqlite3.Connection | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gibson-sqlite")
        self._log = GroupCommit(lambda rows: self._run(self._write, rows), str(self.path), self._maybe_checkpoint)
        self.inline = sync != "full"
        self._since_checkpoint = 0
        self._checkpoint: asyncio.Future | None = None
        self._checkpointer: sqlite3.Connection | None = None

    async def _run(self, fn, *args):
        if self.inline:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    # -- opening -------------------------------------------------------------------------------------
    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={'FULL' if self.sync == 'full' else 'NORMAL'}")
            db.execute("PRAGMA busy_timeout=5000")
            if self.inline:
                db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run off the loop (_maybe_checkpoint)
            db.executescript(SCHEMA)
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: database schema {row[0]} is newer than this server's "
                                 f"({SCHEMA_VERSION})")
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{self.path}: cannot open the database: {exc}") from None
        self._db = db

    async def open(self) -> None:
        await self._run(self._open)

    def _checkpoint_now(self) -> None:
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._checkpointer.execute("PRAGMA busy_timeout=5000")
        self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _maybe_checkpoint(self, rows: int) -> None:
        self._since_checkpoint += rows
        if self.inline and self._since_checkpoint >= CHECKPOINT_PAGES and \
                (self._checkpoint is None or self._checkpoint.done()):
            self._since_checkpoint = 0
            self._checkpoint = asyncio.get_running_loop().run_in_executor(self._pool, self._checkpoint_now)

    async def close(self) -> None:
        await self._log.drain()
        if self._checkpoint is not None:
            with contextlib.suppress(sqlite3.Error):
                await self._checkpoint
        if self._checkpointer is not None:
            await asyncio.get_running_loop().run_in_executor(self._pool, self._checkpointer.close)
        if self._db is not None:
            await self._run(self._db.close)
            self._db = None
        self._pool.shutdown(wait=True)

    # -- games and seats -----------------------------------------------------------------------------
    @staticmethod
    def _row(r) -> GameRow:
        return GameRow(game_id=r[0], variant=r[1], options=json.loads(r[2]), clock=json.loads(r[3]) if r[3] else None,
                       seed=r[4], created=r[5], status=r[6], agents=json.loads(r[7]), rematch_of=r[8],
                       result=json.loads(r[9]) if r[9] else None)

    _COLUMNS = "game_id, variant, options, clock, seed, created, status, agents, rematch_of, result"

    async def create_game(self, row: GameRow) -> bool:
        values = (row.game_id, row.variant, json.dumps(row.options), json.dumps(row.clock) if row.clock else None,
                  row.seed, row.created, row.status, json.dumps(row.agents), row.rematch_of,
                  json.dumps(row.result) if row.result else None)

        def insert():
            cur = self._db.execute(f"INSERT OR IGNORE INTO games ({self._COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)", values)
            return cur.rowcount == 1

        return await self._run(insert)

    async def get_game(self, game_id: str) -> GameRow | None:
        def get():
            return self._db.execute(f"SELECT {self._COLUMNS} FROM games WHERE game_id=?", (game_id,)).fetchone()

        r = await self._run(get)
        return self._row(r) if r else None

    async def games(self, statuses: tuple[str, ...], limit: int = 10_000) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))

        def get():
            return self._db.execute(f"SELECT {self._COLUMNS} FROM games WHERE status IN ({marks}) "
                                    "ORDER BY created, game_id LIMIT ?", (*statuses, limit)).fetchall()

        return [self._row(r) for r in await self._run(get)]

    async def set_status(self, game_id: str, status: str, result: dict | None = None) -> None:
        def put():
            self._db.execute("UPDATE games SET status=?, result=? WHERE game_id=?",
                             (status, json.dumps(result) if result else None, game_id))

        await self._run(put)

    async def claim_seat(self, game_id: str, player: str, token_hash: str) -> bool:
        def put():
            return self._db.execute("INSERT OR IGNORE INTO seats VALUES (?,?,?)",
                                    (game_id, player, token_hash)).rowcount == 1

        return await self._run(put)

    async def seats(self, game_id: str) -> dict[str, str]:
        def get():
            return self._db.execute("SELECT player, token_hash FROM seats WHERE game_id=?", (game_id,)).fetchall()

        return dict(await self._run(get))

    # -- the log -------------------------------------------------------------------------------------
    async def append(self, game_id: str, seq: int, kind: str, data: dict, t: float) -> bool:
        return await self._log.add((game_id, seq, kind, json.dumps(data, sort_keys=True), t))

    def _write(self, rows: list) -> list[bool]:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            out = [db.execute("INSERT OR IGNORE INTO log VALUES (?,?,?,?,?)", row).rowcount == 1 for row in rows]
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return out

    async def entries(self, game_id: str, after: int = 0) -> list[LogEntry]:
        def get():
            return self._db.execute("SELECT seq, kind, data, t FROM log WHERE game_id=? AND seq>? ORDER BY seq",
                                    (game_id, after)).fetchall()

        return [LogEntry(seq, kind, json.loads(data), t) for seq, kind, data, t in await self._run(get)]

    async def heartbeat(self, node: str, t: float) -> None:
        def put():
            self._db.execute("INSERT INTO nodes VALUES (?,?) ON CONFLICT(node) DO UPDATE SET heartbeat=excluded.heartbeat",
                             (node, t))

        await self._run(put)

    async def last_heartbeat(self, node: str) -> float | None:
        def get():
            return self._db.execute("SELECT heartbeat FROM nodes WHERE node=?", (node,)).fetchone()

        row = await self._run(get)
        return row[0] if row else None
