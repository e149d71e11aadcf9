"""Computer players hosted by the server. Each choice runs in a worker process, so the event loop never
waits on a search; the worker receives only the agent's own Observation (or, for a set-up, the variant)
and a seed string, never the game state."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor


def _setup_job(variant_name: str, options: dict, agent: str, player: str, seed: str) -> dict:
    from gibson_core.ai import make_agent
    from gibson_core.plugins import load_variant

    variant = load_variant(variant_name, options or None)
    return make_agent(agent).choose_setup(variant, player, random.Random(seed))


def _move_job(observation, agent: str, seed: str, budget: float) -> str:
    from gibson_core.ai import make_agent

    return str(make_agent(agent).choose_move(observation, random.Random(seed), budget))


class AgentPool:
    """A small pool of worker processes (spawned lazily) that choose set-ups and moves."""

    def __init__(self, workers: int = 1, budget: float = 1.0):
        self.workers = workers
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def setup(self, variant: str, options: dict, agent: str, player: str, seed: str) -> dict:
        """A set-up chosen by ``agent``."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), _setup_job, variant, options, agent, player, seed)

    async def move(self, observation, agent: str, seed: str) -> str:
        """A move chosen by ``agent`` from its Observation, in notation."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), _move_job, observation, agent, seed, self.budget)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
