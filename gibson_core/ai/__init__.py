"""Computer opponents. Every agent sees only an Observation, never the game state.

An agent has two methods::

    choose_setup(variant, player, rng) -> {square: piece id}
    choose_move(observation, rng, budget) -> Move

``budget`` is seconds of thinking (agents that do not search ignore it). :func:`make_agent` builds an
agent from its name: ``random``, ``heuristic``, ``search`` (``level="easy" | "medium" | "hard"``, or the
names ``search-easy``, ``search-medium``, ``search-hard``), and ``openspiel-ismcts`` (OpenSpiel's IS-MCTS
bot, from the ``rl`` extra: imported only when asked for). :func:`beliefs` gives, for a front end, what
each hidden enemy piece can still be. See ``docs/ai.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..errors import PluginError
from .base import Agent
from .beliefs import Beliefs, beliefs, infer_beliefs
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .search import LEVELS, SearchAgent


def _openspiel_ismcts(**kwargs) -> Agent:
    """OpenSpiel's IS-MCTS bot as a Gibson agent (``gibson_rl.openspiel``; the core never needs open_spiel)."""
    try:
        from gibson_rl.openspiel import ISMCTSAgent
    except ImportError as exc:
        raise PluginError("openspiel-ismcts", f"needs the rl extra (pip install 'gibson[rl]'): {exc}") from None
    return ISMCTSAgent(**kwargs)


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "search": SearchAgent,
    **{f"search-{level}": partial(SearchAgent, level=level) for level in LEVELS},
    "openspiel-ismcts": _openspiel_ismcts,
}


def make_agent(name: str, **kwargs) -> Agent:
    """An agent by name; ValueError lists the known names."""
    try:
        return AGENTS[name](**kwargs)
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (agents: {', '.join(sorted(AGENTS))})") from None


__all__ = ["AGENTS", "Agent", "Beliefs", "HeuristicAgent", "RandomAgent", "SearchAgent", "beliefs", "infer_beliefs",
           "make_agent"]
