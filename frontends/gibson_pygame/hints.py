"""Hints (key H in play): the computer's best moves for the viewer and what it believes the hidden enemy pieces
are, worked out from the viewer's own Observation and nothing else, off the drawing thread.

:func:`analyse` is the one place that asks the AI (``agent.analyse(observation, budget)``).
"""

from __future__ import annotations

import attrs

from .ai_worker import AIWorker

TOP = 3  # moves shown
SURE = 0.25  # a guess is drawn on a hidden piece only when the computer gives it at least this chance


@attrs.frozen
class Hint:
    """The best moves, best first, with their scores, and ``{handle: {type id: probability}}``."""

    player: str
    ply: int
    moves: tuple  # ((Move, score), ...)
    beliefs: dict = attrs.field(repr=False)

    def best_guess(self, handle: int) -> tuple[str, float] | None:
        """The likeliest type of a hidden enemy piece and its probability, when it is at least ``SURE``."""
        dist = self.beliefs.get(handle) or {}
        if not dist:
            return None
        tid = max(sorted(dist), key=dist.get)
        return (tid, dist[tid]) if dist[tid] >= SURE else None


def analyse(observation, budget: float | None = None) -> Hint:
    """The computer's view of ``observation`` (the player's own view): the heuristic agent's
    ``analyse`` (:mod:`gibson_core.ai.analysis`), its best few moves and the beliefs it used. The heuristic
    answers in a fraction of a second and the same way every time for a position."""
    from gibson_core.ai import HeuristicAgent

    found = HeuristicAgent().analyse(observation, budget)
    return Hint(observation.player, observation.ply, tuple((s.move, s.score) for s in found.moves[:TOP]),
                dict(found.beliefs))


class _Analyst:
    """Adapts :func:`analyse` to the worker's ``choose_move`` call, so hints think where the computer does."""

    def choose_move(self, observation, rng, budget):
        return analyse(observation, budget)


def hint_worker(sync: bool) -> AIWorker:
    """A worker thread for hints (synchronous in tests)."""
    return AIWorker(_Analyst(), 1.0, 0, sync)
