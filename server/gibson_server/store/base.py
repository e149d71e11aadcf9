"""The store interface: what the server needs from a database, and nothing more.

The database is the source of truth. A game is a row in ``games`` (what never changes after creation, plus
a status for listing), its seats (token *hashes* only) and an append-only **log** of sequence-numbered
entries: ``(game_id, seq)`` is unique, so whether an entry is accepted, and in which order, is decided by
the database (:meth:`Store.append` returns False when another writer took that number first). The server
rebuilds any game from its row and log, which is how it survives a restart and how several server
processes can later share one database (a PostgreSQL store adds LISTEN/NOTIFY to tell the other nodes that
a log grew; the game logic already catches up from :meth:`Store.entries` when an append loses a race).

Every method is a coroutine; an implementation must not block the event loop. :meth:`append` returns only
after the entry is committed, and the server acknowledges nothing before that.
"""

from __future__ import annotations

import abc

import attrs

from gibson_core.errors import GibsonError

OPEN, LIVE, OVER = "open", "live", "over"
STATUSES = (OPEN, LIVE, OVER)


class StoreError(GibsonError):
    """The store cannot be opened or used (names the database and the problem)."""


@attrs.frozen
class GameRow:
    """A game's fixed facts. ``agents`` maps a player to the server agent that plays that seat; ``seed``
    fixes the first mover and the agents' choices and never leaves the server."""

    game_id: str
    variant: str
    options: dict
    clock: dict | None  # {"initial": s, "increment": s} or None
    seed: int
    created: float
    status: str = OPEN
    agents: dict = attrs.field(factory=dict)
    rematch_of: str | None = None
    result: dict | None = None  # {"winner": player or None, "reason": text} once over


@attrs.frozen
class LogEntry:
    """One accepted thing in a game, in order: ``kind`` (setup, move, resign, ...) and its data; ``t`` is
    the server's clock (seconds since the epoch) when it was accepted."""

    seq: int
    kind: str
    data: dict
    t: float


class Store(abc.ABC):
    """The narrow interface every store implements (SQLite here; PostgreSQL to follow, issue 15)."""

    @abc.abstractmethod
    async def open(self) -> None:
        """Connect and create or migrate the schema (versioned)."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish pending writes and disconnect."""

    @abc.abstractmethod
    async def create_game(self, row: GameRow) -> bool:
        """Insert a new game; False when ``row.game_id`` is already taken (the caller draws another code)."""

    @abc.abstractmethod
    async def get_game(self, game_id: str) -> GameRow | None:
        """A game's row, or None."""

    @abc.abstractmethod
    async def games(self, statuses: tuple[str, ...], limit: int = 10_000) -> list[GameRow]:
        """Games with one of ``statuses``, oldest first."""

    @abc.abstractmethod
    async def set_status(self, game_id: str, status: str, result: dict | None = None) -> None:
        """Change a game's status (open -> live -> over) and, at the end, record its result."""

    @abc.abstractmethod
    async def claim_seat(self, game_id: str, player: str, token_hash: str) -> bool:
        """Give a seat its token hash; False when the seat is already taken (the database decides)."""

    @abc.abstractmethod
    async def seats(self, game_id: str) -> dict[str, str]:
        """``{player: token hash}`` of the taken seats."""

    @abc.abstractmethod
    async def append(self, game_id: str, seq: int, kind: str, data: dict, t: float) -> bool:
        """Commit log entry ``seq`` (1, 2, ...) of a game; False when that number is already taken. Returns
        only once the entry is durable."""

    @abc.abstractmethod
    async def entries(self, game_id: str, after: int = 0) -> list[LogEntry]:
        """A game's log entries with ``seq > after``, in order."""

    async def subscribe(self, callback) -> None:
        """Call ``callback(game_id, seq, entry)`` (a coroutine function; ``entry`` may be None: read it with
        :meth:`entries`) whenever *another server process* commits a log entry, so this one can catch up
        and tell its own clients. A store that only one process uses
        (SQLite) never calls it; the PostgreSQL store relays ``NOTIFY``."""
        return None

    @abc.abstractmethod
    async def heartbeat(self, node: str, t: float) -> None:
        """Note that server ``node`` was alive at ``t`` (clocks are not charged for time a node was down)."""

    @abc.abstractmethod
    async def last_heartbeat(self, node: str) -> float | None:
        """The last time ``node`` said it was alive, or None."""
