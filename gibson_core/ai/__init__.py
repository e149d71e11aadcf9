"""Computer opponents. Every agent sees only an Observation, never the game state.

An agent has two methods::

    choose_setup(variant, player, rng) -> {square: piece id}
    choose_move(observation, rng, budget) -> Move
    analyse(observation, budget) -> Analysis   (the best few moves with scores, and the beliefs used)

``budget`` is seconds of thinking (agents that do not search ignore it); ``rng`` is the agent's own
generator (:mod:`gibson_core.seeding`), never shared with another agent or a set-up. :func:`make_agent` builds an
agent from its name: ``random``, ``heuristic``, ``search`` (``level="easy" | "medium" | "hard"``, or the
names ``search-easy``, ``search-medium``, ``search-hard``), and ``openspiel-ismcts`` (OpenSpiel's IS-MCTS
bot, from the ``rl`` extra: imported only when asked for). :func:`beliefs` gives, for a front end, what
each hidden enemy piece can still be. See ``docs/ai.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..errors import PluginError
from .analysis import Analysis, ScoredMove
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
    """An agent by name; :class:`~gibson_core.errors.AgentError` (a ValueError) names an unknown agent (with
    the closest known name) or a setting the agent does not take or of the wrong kind."""
    from ..errors import AgentError, quote
    from ..options import did_you_mean

    factory = AGENTS.get(name) if isinstance(name, str) else None
    if factory is None:
        hint = did_you_mean(name, AGENTS) if isinstance(name, str) else None
        raise AgentError(f"unknown agent {quote(name, 40)} (agents: {', '.join(sorted(AGENTS))})"
                         + (f"; did you mean {hint!r}?" if hint else ""))
    _check_settings(name, factory, kwargs)
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as exc:
        raise AgentError(f"agent {name}: {str(exc)[:200]}") from None


def _check_settings(name: str, factory, kwargs: dict) -> None:
    """Each setting must be a parameter of the agent, of the kind of its default (a number for a number)."""
    import inspect

    from ..errors import AgentError, quote

    target = factory.func if isinstance(factory, partial) else factory
    params = inspect.signature(target).parameters
    open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    for key, value in kwargs.items():
        param = params.get(key)
        if param is None and open_ended:  # the agent takes any setting (**kwargs) and checks them itself
            continue
        if param is None or key in ("variant", "rng"):
            known = ", ".join(p for p in params if p not in ("self", "variant", "rng")) or "none"
            raise AgentError(f"agent {name} has no setting {quote(key, 30)} (settings: {known})")
        default = param.default
        if value is None and "None" in str(param.annotation):
            continue
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if default is None and any(word in str(param.annotation) for word in ("int", "float")):
            if not (value is None or number and value >= 0):
                raise AgentError(f"agent {name}: {key} is a number from 0, got {quote(value, 30)}")
            continue
        if default is inspect.Parameter.empty or default is None:
            continue
        if isinstance(default, bool) and not isinstance(value, bool):
            raise AgentError(f"agent {name}: {key} is true or false, got {quote(value, 30)}")
        if isinstance(default, int | float) and not isinstance(default, bool) and not (number and value >= 0
                                                                                       or value == default):
            raise AgentError(f"agent {name}: {key} is a number from 0, got {quote(value, 30)}")
        if isinstance(default, str) and not isinstance(value, str):
            raise AgentError(f"agent {name}: {key} is a word, got {quote(value, 30)}")


__all__ = ["AGENTS", "Agent", "Analysis", "Beliefs", "ScoredMove", "HeuristicAgent", "RandomAgent", "SearchAgent", "beliefs", "infer_beliefs",
           "make_agent"]
