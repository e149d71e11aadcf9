"""Computer opponents. Every agent sees only an Observation, never the game state.

An agent has two methods::

    choose_setup(variant, player, rng) -> {square: piece id}
    choose_move(observation, rng, budget) -> Move

``budget`` is seconds of thinking (agents that do not search ignore it). :func:`make_agent` builds an
agent from its name (``random``, and the others registered in ``AGENTS``).
"""

from __future__ import annotations

from .base import Agent
from .random_agent import RandomAgent

AGENTS: dict[str, type] = {"random": RandomAgent}


def make_agent(name: str, **kwargs) -> Agent:
    """An agent by name; ValueError lists the known names."""
    try:
        return AGENTS[name](**kwargs)
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (agents: {', '.join(sorted(AGENTS))})") from None


__all__ = ["AGENTS", "Agent", "RandomAgent", "make_agent"]
