"""What an agent thinks of a position, for people: :meth:`Agent.analyse` returns an :class:`Analysis`.

``Analysis.moves`` are the best few moves, best first, each a :class:`ScoredMove` with ``score`` (the
agent's estimate: for the search, the mean change of :func:`values.evaluate` over the determinizations it
played, in material units, ±40 for a win or a loss; for the heuristic, its one-move score; 1e6 marks a move
that wins at once) and ``visits`` (how many search iterations went through the move, 0 when not searched).
``Analysis.beliefs`` are the marginals the agent used: ``{handle: {type id: probability}}`` for each hidden
enemy piece. ``Analysis.iterations`` is how many search iterations were run (0 for agents that do not
search). Everything is computed from the player's Observation only.
"""

from __future__ import annotations

import attrs

from ..moves import Move


@attrs.frozen
class ScoredMove:
    """One move with the agent's estimate of it (higher is better for the player to move)."""

    move: Move
    score: float
    visits: int = 0


@attrs.frozen
class Analysis:
    """The best moves (best first), the beliefs used and the search effort (see the module docstring)."""

    moves: tuple  # of ScoredMove
    beliefs: dict  # {handle: {type id: probability}}
    iterations: int = 0

    @property
    def best(self) -> Move | None:
        """The move the agent would play (None when there is no legal move)."""
        return self.moves[0].move if self.moves else None
