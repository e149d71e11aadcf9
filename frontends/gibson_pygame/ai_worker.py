"""The computer's thinking, off the drawing thread. The agent gets an Observation only.

``AIWorker(sync=True)`` thinks at once inside ``start`` (tests: deterministic, nothing to wait for);
otherwise a daemon thread thinks while the window keeps drawing, and ``poll`` hands back the move.
"""

from __future__ import annotations

import inspect
import random
import threading

DEFAULT_LEVELS = ("easy", "medium", "hard")


def levels() -> list[str]:
    """Strength levels the AI package declares (``gibson_core.ai.LEVELS``), weakest first."""
    from gibson_core import ai

    found = getattr(ai, "LEVELS", None)
    return [str(k) for k in found] if isinstance(found, dict | list | tuple) and found else list(DEFAULT_LEVELS)


def agent_names() -> list[str]:
    """Registered agents, read at run time so new agents appear; names that only fix a level of another
    agent (``search-hard``) are left out, since the level is chosen separately."""
    from gibson_core.ai import AGENTS

    order = {"random": 0, "heuristic": 1, "search": 2}
    names = [n for n in AGENTS if not any(n == f"{base}-{lvl}" for base in AGENTS for lvl in levels())]
    return sorted(names, key=lambda n: (order.get(n, 1), n))


def takes_level(name: str) -> bool:
    """True when the agent is built with a strength ``level``."""
    from gibson_core.ai import AGENTS

    factory = AGENTS.get(name)
    try:
        return factory is not None and "level" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def make_opponent(name: str, level: str | None):
    """The agent ``name`` at ``level`` when it has levels."""
    from gibson_core.ai import make_agent

    if level and takes_level(name):
        return make_agent(name, level=level)
    return make_agent(name)


class AIWorker:
    """Runs ``agent.choose_move(observation, rng, budget)`` in the background, one request at a time."""

    def __init__(self, agent, budget: float | None, seed: int | None = None, sync: bool = False):
        self.agent, self.budget, self.sync = agent, budget, sync
        self.rng = random.Random(seed)
        self._thread: threading.Thread | None = None
        self._result = None
        self._error: BaseException | None = None
        self._generation = 0
        self._lock = threading.Lock()

    @property
    def busy(self) -> bool:
        """True while a move is being thought about."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, observation) -> None:
        """Begin thinking about ``observation`` (drops any answer still pending)."""
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._result = None
            self._error = None
        rng = random.Random(self.rng.random())
        if self.sync:
            self._think(observation, rng, generation)
            return
        self._thread = threading.Thread(target=self._think, args=(observation, rng, generation), daemon=True,
                                        name="gibson-ai")
        self._thread.start()

    def _think(self, observation, rng, generation: int) -> None:
        try:
            move = self.agent.choose_move(observation, rng, self.budget)
            error = None
        except Exception as exc:  # shown to the player, never a crash of the window
            move, error = None, exc
        with self._lock:
            if generation == self._generation:
                self._result, self._error = move, error

    def cancel(self) -> None:
        """Forget the current request (its answer will be ignored)."""
        with self._lock:
            self._generation += 1
            self._result = None

    def poll(self):
        """The chosen move once ready (then cleared), else None; re-raises the agent's error."""
        with self._lock:
            move, error = self._result, self._error
            self._result, self._error = None, None
        if error is not None:
            raise error
        return move

    def join(self, timeout: float | None = None) -> None:
        """Wait for the thinking thread (tests and shutdown)."""
        if self._thread is not None:
            self._thread.join(timeout)
