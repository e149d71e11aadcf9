"""The PostgreSQL store (psycopg 3, asyncio): several server processes on one database.

The database decides everything that two nodes could race for, with unique keys and transactions and no
in-process lock:

- a log entry is inserted only when its number is free (the ``(game_id, seq)`` primary key: a concurrent
  insert of the same number waits for the other transaction and then does nothing) and the previous
  entry exists, so a move is accepted once, in order, without gaps; a node whose view was behind gets
  False, catches up from the log and judges the move again;
- a seat is claimed by ``INSERT ... ON CONFLICT DO NOTHING`` on its primary key;
- every accepted entry sends ``NOTIFY gibson_log`` in the same statement (delivered on commit) carrying the
  entry itself, so the other nodes learn of it through PostgreSQL and push the new views to their own
  clients without reading it back.

Appends are group-committed like the SQLite store's: entries that arrive while a transaction is being
made go into the next one together, and each caller is answered after its transaction committed.

The schema is created and migrated by the server (``MIGRATIONS``, recorded in ``gibson_meta``), under an
advisory lock so that two nodes starting at once do not migrate twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import uuid
from urllib.parse import urlsplit, urlunsplit

from .base import GameRow, LogEntry, StoreError
from .batching import GroupCommit
from .shared import Holder, SharedStore

CHANNEL = "gibson_log"
#: Schema versions in order; each is applied once, in one transaction, and recorded.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE gibson_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE games (
        game_id TEXT PRIMARY KEY, variant TEXT NOT NULL, options JSONB NOT NULL, clock JSONB,
        seed BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL, status TEXT NOT NULL, agents JSONB NOT NULL,
        rematch_of TEXT, result JSONB);
    CREATE INDEX games_status ON games (status, created);
    CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games ON DELETE CASCADE, player TEXT NOT NULL,
        token_hash TEXT NOT NULL, PRIMARY KEY (game_id, player));
    CREATE TABLE log (
        game_id TEXT NOT NULL REFERENCES games ON DELETE CASCADE, seq INTEGER NOT NULL, kind TEXT NOT NULL,
        data JSONB NOT NULL, t DOUBLE PRECISION NOT NULL, PRIMARY KEY (game_id, seq));
    CREATE TABLE nodes (node TEXT PRIMARY KEY, heartbeat DOUBLE PRECISION NOT NULL);
    """,
    # 2: which node holds the connection of each seat (several server processes, cluster.py)
    """
    CREATE TABLE holders (
        game_id TEXT NOT NULL REFERENCES games ON DELETE CASCADE, player TEXT NOT NULL, node TEXT NOT NULL,
        since DOUBLE PRECISION NOT NULL, PRIMARY KEY (game_id, player));
    """,
)
_PAYLOAD_LIMIT = 7900  # bytes of a NOTIFY payload (PostgreSQL's limit is 8000)
_MIGRATION_LOCK = 0x6769_6273  # "gibs": one advisory lock id for schema changes


def _psycopg():
    try:
        import psycopg
    except ImportError:  # pragma: no cover - the extra is missing
        raise StoreError("PostgreSQL needs psycopg: pip install 'gibson[postgres]'") from None
    return psycopg


class PostgresStore(SharedStore):
    """A :class:`Store` in a PostgreSQL database (``postgresql://USER@HOST[:PORT]/DB``)."""

    def __init__(self, dsn: str, node: str | None = None):
        self.dsn = dsn
        self.node = node or f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._write = self._read = self._listen = None
        self._log = GroupCommit(self._write_batch, self.where)
        self._listener: asyncio.Task | None = None
        self._subscribers: list = []

    @property
    def where(self) -> str:
        """The database, without its password, for messages."""
        parts = urlsplit(self.dsn)
        if parts.password:
            return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")))
        return self.dsn

    # -- opening -------------------------------------------------------------------------------------
    async def _connect(self, autocommit: bool = False):
        psycopg = _psycopg()
        try:
            return await psycopg.AsyncConnection.connect(self.dsn, autocommit=autocommit, connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: cannot connect: {str(exc).strip()[:300]}") from None

    async def open(self) -> None:
        self._write = await self._connect(autocommit=True)  # one statement, or a transaction() for a batch
        self._read = await self._connect(autocommit=True)
        try:
            await self._migrate()
        except _psycopg().Error as exc:
            raise StoreError(f"{self.where}: cannot create the schema: {str(exc).strip()[:300]}") from None

    async def _migrate(self) -> None:
        async with self._write.transaction():
            await self._write.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            exists = await (await self._write.execute("SELECT to_regclass('gibson_meta') IS NOT NULL")).fetchone()
            version = 0
            if exists[0]:
                row = await (await self._write.execute("SELECT value FROM gibson_meta WHERE key='schema'")).fetchone()
                version = int(row[0]) if row else 0
            if version > len(MIGRATIONS):
                raise StoreError(f"{self.where}: database schema {version} is newer than this server's "
                                 f"({len(MIGRATIONS)})")
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                await self._write.execute(script)
                await self._write.execute(
                    "INSERT INTO gibson_meta VALUES ('schema', %s) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                    (str(number),))

    async def close(self) -> None:
        await self._log.drain()
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        for conn in (self._write, self._read, self._listen):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._write = self._read = self._listen = None

    async def _query(self, sql: str, params=()) -> list:
        try:
            cur = await self._read.execute(sql, params)
            return await cur.fetchall() if cur.description else []
        except _psycopg().Error as exc:
            raise StoreError(f"{self.where}: {str(exc).strip()[:300]}") from None

    async def _change(self, sql: str, params=()) -> int:
        """One statement in its own transaction (autocommit); its row count."""
        try:
            cur = await self._read.execute(sql, params)
            return cur.rowcount
        except _psycopg().Error as exc:
            raise StoreError(f"{self.where}: {str(exc).strip()[:300]}") from None

    # -- games and seats -----------------------------------------------------------------------------
    _COLUMNS = "game_id, variant, options, clock, seed, created, status, agents, rematch_of, result"

    @staticmethod
    def _row(r) -> GameRow:
        return GameRow(game_id=r[0], variant=r[1], options=r[2], clock=r[3], seed=r[4], created=r[5],
                       status=r[6], agents=r[7], rematch_of=r[8], result=r[9])

    async def create_game(self, row: GameRow) -> bool:
        from psycopg.types.json import Jsonb

        return await self._change(
            f"INSERT INTO games ({self._COLUMNS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING",
            (row.game_id, row.variant, Jsonb(row.options), Jsonb(row.clock) if row.clock else None, row.seed,
             row.created, row.status, Jsonb(row.agents), row.rematch_of,
             Jsonb(row.result) if row.result else None)) == 1

    async def get_game(self, game_id: str) -> GameRow | None:
        rows = await self._query(f"SELECT {self._COLUMNS} FROM games WHERE game_id=%s", (game_id,))
        return self._row(rows[0]) if rows else None

    async def games(self, statuses: tuple[str, ...], limit: int = 10_000) -> list[GameRow]:
        rows = await self._query(f"SELECT {self._COLUMNS} FROM games WHERE status = ANY(%s) "
                                 "ORDER BY created, game_id LIMIT %s", (list(statuses), limit))
        return [self._row(r) for r in rows]

    async def set_status(self, game_id: str, status: str, result: dict | None = None) -> None:
        from psycopg.types.json import Jsonb

        await self._change("UPDATE games SET status=%s, result=%s WHERE game_id=%s",
                           (status, Jsonb(result) if result else None, game_id))

    async def claim_seat(self, game_id: str, player: str, token_hash: str) -> bool:
        # one statement: the seat and the notice to the other nodes (seq 0: the seats changed) commit together
        return await self._change(
            "WITH claimed AS (INSERT INTO seats VALUES (%s,%s,%s) ON CONFLICT DO NOTHING RETURNING 1) "
            "SELECT pg_notify(%s, %s) FROM claimed",
            (game_id, player, token_hash, CHANNEL, self._notice(game_id))) == 1

    def _notice(self, game_id: str, seq: int = 0, entry: tuple | None = None) -> str:
        """The NOTIFY payload: this node, the game, the entry's number (0: seats) and, when it fits in
        PostgreSQL's 8000-byte limit, the entry itself (the other nodes then need not read it back)."""
        if entry is not None:
            text = json.dumps([self.node, game_id, seq, *entry])
            if len(text.encode()) < _PAYLOAD_LIMIT:
                return text
        return json.dumps([self.node, game_id, seq])

    async def seats(self, game_id: str) -> dict[str, str]:
        return dict(await self._query("SELECT player, token_hash FROM seats WHERE game_id=%s", (game_id,)))

    # -- the log -------------------------------------------------------------------------------------
    async def append(self, game_id: str, seq: int, kind: str, data: dict, t: float) -> bool:
        return await self._log.add((game_id, seq, kind, data, t))

    async def _write_batch(self, rows: list) -> list[bool]:
        """One statement per entry: inserted only if its number is free (the primary key) and the previous
        entry exists, with its NOTIFY. A batch holds at most one entry per game (the server appends under
        the game's lock); written in game order, so two nodes' batches wait on each other's keys in one
        order and never deadlock; several entries go in one transaction (one commit). The answers come back
        in the order of ``rows``."""
        conn = self._write
        order = sorted(range(len(rows)), key=lambda i: (rows[i][0], rows[i][1]))
        out = [False] * len(rows)
        if len(rows) == 1:
            out[0] = await self._insert(conn, *rows[0])
            return out
        async with conn.transaction():
            for i in order:
                out[i] = await self._insert(conn, *rows[i])
        return out

    _APPEND = ("WITH ins AS (INSERT INTO log SELECT %(g)s, %(s)s, %(k)s, %(d)s, %(t)s "
               "WHERE %(s)s = 1 OR EXISTS (SELECT 1 FROM log WHERE game_id = %(g)s AND seq = %(s)s - 1) "
               "ON CONFLICT DO NOTHING RETURNING 1) SELECT pg_notify(%(c)s, %(p)s) FROM ins")

    async def _insert(self, conn, game_id: str, seq: int, kind: str, data: dict, t: float) -> bool:
        from psycopg.types.json import Jsonb

        cur = await conn.execute(self._APPEND, {"g": game_id, "s": seq, "k": kind, "d": Jsonb(data), "t": t,
                                                "c": CHANNEL, "p": self._notice(game_id, seq, (kind, data, t))})
        return cur.rowcount == 1

    async def entries(self, game_id: str, after: int = 0) -> list[LogEntry]:
        rows = await self._query("SELECT seq, kind, data, t FROM log WHERE game_id=%s AND seq>%s ORDER BY seq",
                                 (game_id, after))
        return [LogEntry(seq, kind, data, t) for seq, kind, data, t in rows]

    async def heartbeat(self, node: str, t: float) -> None:
        await self._change("INSERT INTO nodes VALUES (%s,%s) ON CONFLICT (node) DO UPDATE SET heartbeat=excluded.heartbeat",
                           (node, t))

    async def last_heartbeat(self, node: str) -> float | None:
        rows = await self._query("SELECT heartbeat FROM nodes WHERE node=%s", (node,))
        return rows[0][0] if rows else None

    async def nodes(self) -> dict[str, float]:
        return dict(await self._query("SELECT node, heartbeat FROM nodes"))

    # -- who holds each seat's connection --------------------------------------------------------------
    async def hold_seat(self, game_id: str, player: str, since: float) -> None:
        await self._change(
            "WITH held AS (INSERT INTO holders VALUES (%s,%s,%s,%s) ON CONFLICT (game_id, player) DO UPDATE "
            "SET node=excluded.node, since=excluded.since WHERE holders.since <= excluded.since RETURNING 1) "
            "SELECT pg_notify(%s, %s) FROM held",
            (game_id, player, self.node, since, CHANNEL, self._notice(game_id)))

    async def release_seat(self, game_id: str, player: str) -> None:
        await self._change(
            "WITH gone AS (DELETE FROM holders WHERE game_id=%s AND player=%s AND node=%s RETURNING 1) "
            "SELECT pg_notify(%s, %s) FROM gone", (game_id, player, self.node, CHANNEL, self._notice(game_id)))

    async def holders(self, game_id: str | None = None) -> list[Holder]:
        sql = ("SELECT h.game_id, h.player, h.node, h.since, n.heartbeat FROM holders h "
               "LEFT JOIN nodes n ON n.node = h.node ")
        if game_id is not None:
            rows = await self._query(sql + "WHERE h.game_id=%s", (game_id,))
        else:
            rows = await self._query(sql + "JOIN games g ON g.game_id = h.game_id WHERE g.status <> 'over'")
        return [Holder(*r) for r in rows]

    # -- other nodes -----------------------------------------------------------------------------------
    async def subscribe(self, callback) -> None:
        """Call ``callback(game_id, seq, entry)`` (a coroutine function) for every log entry another node
        commits (``entry``: the :class:`LogEntry`, or None when it was too large for a notice: read it with
        :meth:`entries`), and ``callback(game_id, 0, None)`` when another node changed a game's seats or who
        holds them."""
        self._subscribers.append(callback)
        if self._listener is None:
            self._listen = await self._connect(autocommit=True)
            await self._listen.execute(f"LISTEN {CHANNEL}")
            self._listener = asyncio.ensure_future(self._relay())

    async def _relay(self) -> None:
        async for note in self._listen.notifies():
            try:
                node, game_id, seq, *rest = json.loads(note.payload)
                entry = LogEntry(int(seq), rest[0], rest[1], float(rest[2])) if len(rest) == 3 else None
            except (ValueError, TypeError):
                continue
            if node == self.node:
                continue
            for callback in list(self._subscribers):
                with contextlib.suppress(Exception):  # one subscriber's failure must not stop the relay
                    await callback(game_id, int(seq), entry)
