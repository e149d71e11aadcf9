"""The agent interface."""

from __future__ import annotations

import random

from ..moves import Move
from ..observe import Observation
from ..setup import random_setup


class Agent:
    """Base class: a random legal set-up; subclasses choose moves from an Observation only."""

    name = "agent"

    def choose_setup(self, variant, player: str, rng: random.Random) -> dict[str, str]:
        """A legal set-up for ``player``."""
        return random_setup(variant, player, rng)

    def choose_move(self, observation: Observation, rng: random.Random, budget: float | None = None) -> Move:
        """One of ``observation.legal_moves``."""
        raise NotImplementedError

    def analyse(self, observation: Observation, budget: float | None = None):
        """The best few moves with their estimated scores and the beliefs used: an
        :class:`gibson_core.ai.analysis.Analysis`. This base version has no opinion: every legal move
        scores 0, in the Observation's order, with the beliefs of :func:`gibson_core.ai.beliefs.beliefs`."""
        from .analysis import Analysis, ScoredMove
        from .beliefs import beliefs
        from .world import variant_of

        marginals = beliefs(observation, variant_of(observation)) if observation.legal_moves else {}
        return Analysis(tuple(ScoredMove(m, 0.0) for m in observation.legal_moves[:5]), marginals)
