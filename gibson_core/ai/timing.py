"""``gibson bench --agent NAME``: how long an agent takes to choose a move, measured (never asserted).

The agent chooses a move in ``positions`` midgame positions (random games, 40 to 200 plies in) after it has
chosen a set-up for each side, as it does before a game (the search counts the enemy's set-up statistics
then), and one warm-up move (the first move of a process builds the variant's cached tables). Reported:
wall-clock milliseconds per move (mean, 95th percentile, maximum), processor milliseconds per move (the machine's load
shows as the difference), and search iterations per move when the agent searches.
"""

from __future__ import annotations

import random
import time

from ..bench import midgame_positions
from ..observe import observe
from ..plugins import load_variant
from ..seeding import derive


def time_agent(variant_name: str, spec: str, positions: int = 20, seed: int = 1, options: dict | None = None,
               budget: float | None = None) -> dict:
    """The figures by name (see the module docstring)."""
    from .arena import agent_from_spec

    variant = load_variant(variant_name, options)
    rng = random.Random(seed)
    states = []
    for i in range(positions + 1):
        states += midgame_positions(variant, rng, 1, plies=40 + (160 * i) // max(positions, 1))
    agent = agent_from_spec(spec)
    for player in variant.players:  # the positions are both sides': set up as each, as a game begins
        agent.choose_setup(variant, player, derive(seed, "bench setup", player))
    walls, cpus, iterations = [], [], []
    for i, state in enumerate(states):
        obs = observe(state, state.player)
        wall, cpu = time.perf_counter(), time.process_time()
        agent.choose_move(obs, derive(seed, "bench", i), budget)
        if i == 0:
            continue  # warm-up
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        iterations.append(getattr(agent, "last_iterations", 0))
    walls.sort()
    return {
        "moves timed": len(walls),
        "wall ms/move, mean": 1000 * sum(walls) / len(walls),
        "wall ms/move, 95th percentile": 1000 * walls[min(len(walls) - 1, int(0.95 * len(walls)))],
        "wall ms/move, max": 1000 * walls[-1],
        "cpu ms/move, mean": 1000 * sum(cpus) / len(cpus),
        "search iterations/move, mean": sum(iterations) / len(iterations),
    }
