"""Computer opponents. Every agent sees only an Observation, never the game state.

An agent has two methods::

    choose_setup(variant, player, rng) -> {square: piece id}
    choose_move(observation, rng, budget) -> Move
    analyse(observation, budget) -> Analysis   (the best few moves with scores, and the beliefs used)

``budget`` is seconds of thinking (agents that do not search ignore it); ``rng`` is the agent's own
generator (:mod:`gibson_core.seeding`), never shared with another agent or a set-up. :func:`make_agent` builds an
agent from its name: ``random``, ``heuristic``, ``search`` (``level="easy" | "medium" | "hard"``, or the
names ``search-easy``, ``search-medium``, ``search-hard``). :func:`beliefs` gives, for a front end, what
each hidden enemy piece can still be. See ``docs/ai.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .analysis import Analysis, ScoredMove
from .base import Agent
from .beliefs import Beliefs, beliefs, infer_beliefs
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .search import LEVELS, SearchAgent

AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "search": SearchAgent,
    **{f"search-{level}": partial(SearchAgent, level=level) for level in LEVELS},
}


def make_agent(name: str, **kwargs) -> Agent:
    """An agent by name; ValueError lists the known names."""
    try:
        return AGENTS[name](**kwargs)
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (agents: {', '.join(sorted(AGENTS))})") from None


__all__ = ["AGENTS", "Agent", "Analysis", "Beliefs", "ScoredMove", "HeuristicAgent", "RandomAgent", "SearchAgent", "beliefs", "infer_beliefs",
           "make_agent"]
