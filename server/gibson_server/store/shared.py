"""What a store that several server processes share must add to :class:`~.base.Store` (``cluster.py``).

Besides the log (whose order the database decides), the nodes of a cluster share two facts, both kept in the
database so that no node has to ask another: which node holds the connection of each seat (a seat is held
by one node at a time: the latest to bind it wins, and the node that lost it tells its client ``replaced``),
and when each node was last alive (its heartbeat), so that a seat held by a node that died counts as away
from the moment that node stopped, and clocks are not charged while no node ran at all.
"""

from __future__ import annotations

import abc

import attrs

from .base import Store


@attrs.frozen
class Holder:
    """Node ``node`` has held the connection of ``player``'s seat in ``game_id`` since ``since``; that node
    was last alive at ``heartbeat`` (None if it never said)."""

    game_id: str
    player: str
    node: str
    since: float
    heartbeat: float | None


class SharedStore(Store):
    """A store several server processes use at once. ``node`` names this process in the database;
    :meth:`subscribe` relays other nodes' log entries as ``(game_id, seq, entry or None)`` and changes of
    a game's seats or of who holds them as ``(game_id, 0, None)``."""

    node: str

    @abc.abstractmethod
    async def nodes(self) -> dict[str, float]:
        """Every node's last heartbeat."""

    @abc.abstractmethod
    async def hold_seat(self, game_id: str, player: str, since: float) -> None:
        """This node holds the seat's connection from ``since`` on (ignored if another node bound it later)."""

    @abc.abstractmethod
    async def release_seat(self, game_id: str, player: str) -> None:
        """This node no longer holds the seat's connection (nothing if another node holds it now)."""

    @abc.abstractmethod
    async def holders(self, game_id: str | None = None) -> list[Holder]:
        """Who holds the seats of one game, or of every game that is not over."""
