"""The computer's thinking, off the drawing thread. The agent gets an Observation only.

``AIWorker(sync=True)`` thinks at once inside ``start`` (tests: deterministic, nothing to wait for);
otherwise a daemon thread thinks while the window keeps drawing, and ``poll`` hands back the move.
"""

from __future__ import annotations

import contextlib
import inspect
import queue
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
    """Runs ``agent.choose_move(observation, rng, budget)`` on one long-lived background thread.

    Requests go through a queue, so asking costs the drawing thread nothing (starting a thread per move
    would make it wait for the interpreter lock). An answer to a cancelled request is dropped.
    """

    def __init__(self, agent, budget: float | None, seed: int | None = None, sync: bool = False):
        self.agent, self.budget, self.sync = agent, budget, sync
        self.rng = random.Random(seed)
        self._requests: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._result = None
        self._error: BaseException | None = None
        self._generation = 0
        self.asked = False  # a request is out and its answer not yet taken
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()

    @property
    def busy(self) -> bool:
        """True while a move is being thought about."""
        return not self._idle.is_set()

    def start(self, observation) -> None:
        """Begin thinking about ``observation`` (drops any answer still pending)."""
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._result = None
            self._error = None
        rng = random.Random(self.rng.random())
        self.asked = True
        if self.sync:
            self._think(observation, rng, generation)
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, daemon=True, name="gibson-ai")
            self._thread.start()
        self._idle.clear()
        self._requests.put((observation, rng, generation))

    def _serve(self) -> None:
        while True:
            request = self._requests.get()
            if request is None:
                return
            self._think(*request)
            if self._requests.empty():
                self._idle.set()

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
            self._error = None
        self.asked = False

    def poll(self):
        """The chosen move once ready (then cleared), else None; re-raises the agent's error."""
        with self._lock:
            move, error = self._result, self._error
            self._result, self._error = None, None
        if move is not None or error is not None:
            self.asked = False
        if error is not None:
            raise error
        return move

    def join(self, timeout: float | None = None) -> bool:
        """Wait until the current request is answered (tests, shutdown); False on timeout."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Stop the thread after the current request."""
        if self._thread is not None:
            self._requests.put(None)
            self._thread = None


def _serve_process(conn, agent) -> None:
    """The computer's own process: answer (generation, observation, seed, budget) with (generation, move, error)."""
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        generation, observation, seed, budget = request
        try:
            conn.send((generation, agent.choose_move(observation, random.Random(seed), budget), None))
        except Exception as exc:  # reported back, never a dead process
            conn.send((generation, None, f"{type(exc).__name__}: {exc}"))


class AgentError(Exception):
    """The computer's agent failed in its own process (the message names the original error)."""


class ProcessAIWorker(AIWorker):
    """The same interface, thinking in a separate process: the search holds no lock the drawing thread
    needs, so frames stay short however hard the computer thinks. The agent is sent once; each request
    carries only an Observation.

    When the process dies (killed, out of memory), the worker starts a new one and asks it the same question
    with the same seed; ``notice`` then says so in plain words for the window to show. Only after
    ``MAX_RESTARTS`` deaths in a row without an answer does ``poll`` raise :class:`AgentError`."""

    MAX_RESTARTS = 3

    def __init__(self, agent, budget: float | None, seed: int | None = None):
        super().__init__(agent, budget, seed, sync=False)
        self._conn = self._process = None
        self._request = None  # the question out: (generation, observation, seed, budget)
        self.deaths = 0  # process deaths since the last answer
        self.notice = ""  # what happened to the process, for the player (taken by take_notice)
        self._spawn()

    def _spawn(self) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._process = ctx.Process(target=_serve_process, args=(child, self.agent), daemon=True, name="gibson-ai")
        self._process.start()
        child.close()
        self._waiting = 0  # requests sent and not yet answered

    @property
    def busy(self) -> bool:
        return self._waiting > 0

    def start(self, observation) -> None:
        self._generation += 1
        self._result, self._error = None, None
        self.asked = True
        self._request = (self._generation, observation, self.rng.random(), self.budget)
        self._send()

    def _send(self) -> None:
        try:
            self._conn.send(self._request)
            self._waiting += 1
        except (OSError, ValueError):  # the process is gone
            self._restart()

    def _restart(self) -> None:
        """A new process for the agent; the question still out is asked again."""
        self.deaths += 1
        with contextlib.suppress(OSError):
            self._conn.close()
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(1.0)
        if self.deaths > self.MAX_RESTARTS:
            self._waiting = 0
            self._error = AgentError(f"the computer's process stopped {self.deaths} times in a row")
            return
        self._spawn()
        self.notice = "The computer's process stopped unexpectedly. It was restarted and the computer plays on."
        if self.asked and self._request is not None and self._request[0] == self._generation:
            self._send()

    def take_notice(self) -> str:
        """The last thing to tell the player about the process (then cleared)."""
        notice, self.notice = self.notice, ""
        return notice

    def _drain(self) -> None:
        try:
            while self._waiting and self._conn.poll():
                generation, move, error = self._conn.recv()
                self._waiting -= 1
                self.deaths = 0
                if generation == self._generation:
                    self._result, self._error = move, AgentError(error) if error else None
        except (EOFError, OSError):  # the process died while thinking
            self._restart()

    def cancel(self) -> None:
        self._generation += 1
        self._result, self._error = None, None
        self.asked = False

    def poll(self):
        self._drain()
        if self._waiting and not self._process.is_alive():
            self._restart()
        if self._error is None and self._result is None:
            return None
        return super().poll()

    def join(self, timeout: float | None = None) -> bool:
        if self._waiting:
            try:
                ready = self._conn.poll(timeout)
            except (EOFError, OSError):
                ready = True
            if ready:
                self._drain()
        return not self._waiting

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._conn.send(None)
        self._process.join(1.0)
        if self._process.is_alive():
            self._process.terminate()
