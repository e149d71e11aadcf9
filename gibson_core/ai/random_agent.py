"""The random agent: uniform over legal moves, random legal set-up."""

from __future__ import annotations

import random

from ..errors import NoLegalMoveError
from ..moves import Move
from ..observe import Observation
from .base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal move."""

    name = "random"

    def choose_move(self, observation: Observation, rng: random.Random, budget: float | None = None) -> Move:
        if not observation.legal_moves:
            raise NoLegalMoveError(f"{observation.player} has no legal move to choose from")
        return rng.choice(observation.legal_moves)
