"""Hints (key H in play): the computer's best moves for the viewer and what it believes the hidden enemy pieces
are, worked out from the viewer's own Observation and nothing else, off the drawing thread.

:func:`analyse` is the one place that asks the AI; when agents gain ``analyse(observation, budget)`` it
becomes a one-line change there.
"""

from __future__ import annotations

import random

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


def analyse(observation, budget: float | None = None, rng: random.Random | None = None) -> Hint:
    """The computer's view of ``observation`` (the player's own view): its best few moves and its beliefs.
    Agents that can explain themselves (``agent.analyse``, :mod:`gibson_core.ai.analysis`) are asked
    directly; otherwise the heuristic's move scorer is read here."""
    from gibson_core.ai import HeuristicAgent
    from gibson_core.ai.heuristic import MoveScorer
    from gibson_core.ai.world import variant_of

    agent = HeuristicAgent()
    if hasattr(agent, "analyse"):
        found = agent.analyse(observation, budget)
        return Hint(observation.player, observation.ply, tuple((s.move, s.score) for s in found.moves[:TOP]),
                    dict(found.beliefs))
    variant = variant_of(observation)
    scorer = MoveScorer(observation, variant, rng or random.Random(observation.ply))
    scored = sorted(((scorer.score(m), str(m), m) for m in observation.legal_moves), key=lambda t: (-t[0], t[1]))
    return Hint(observation.player, observation.ply, tuple((m, s) for s, _text, m in scored[:TOP]),
                dict(scorer.marginals))


class _Analyst:
    """Adapts :func:`analyse` to the worker's ``choose_move`` call, so hints think where the computer does."""

    def choose_move(self, observation, rng, budget):
        return analyse(observation, budget)  # its own generator, from the position: the same hint every time


def hint_worker(sync: bool) -> AIWorker:
    """A worker thread for hints (synchronous in tests)."""
    return AIWorker(_Analyst(), 1.0, 0, sync)
