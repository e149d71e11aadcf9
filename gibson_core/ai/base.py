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
