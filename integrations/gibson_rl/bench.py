"""``gibson bench --env VARIANT``: environment steps per second with observation tensors and action masks,
random play (speed is measured, never asserted).

Three loops, each for about ``seconds``:

- ``env steps/s``: the environment core (:class:`gibson_rl.core.Episode`) as a training loop drives it: each
  step builds the mover's tensor and mask, picks a random one of the legal action numbers and makes it
  (checked against the mask); a finished game is followed by a reset (random set-ups; reset time included);
- ``pettingzoo AEC steps/s``: the same through the PettingZoo API (``last()``, ``step()``);
- ``engine plies/s``: the Python engine alone (legal moves and push), the yardstick of the earlier figures (the
  environment itself plays in the compiled kernel when the kernel plays the variant exactly).

Each figure is given per second of wall-clock time and per second of this process's CPU time: on a shared,
loaded machine the second is the steadier one.
"""

from __future__ import annotations

import random
import time

import numpy as np

from gibson_core.bench import new_game

from .core import Episode


def _timed(loop, seconds: float) -> tuple[float, float]:
    """Run ``loop(deadline)`` (returns the steps made); rates per wall second and per CPU second."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps = loop(wall + seconds)
    return steps / (time.perf_counter() - wall), steps / max(time.process_time() - cpu, 1e-9)


def env_loop(episode: Episode, seed: int = 1):
    """The core environment loop of the benchmark."""
    rng = random.Random(seed)

    def loop(deadline: float) -> int:
        steps = 0
        games = 0
        episode.reset(seed=seed)
        clock = time.perf_counter
        while True:
            for _ in range(256):
                if episode.over:
                    games += 1
                    episode.reset(seed=seed + games)
                player = episode.current
                episode.tensor(player)
                episode.mask(player)
                legal = episode.legal_actions(player)
                episode.step(legal[rng.randrange(len(legal))])
                steps += 1
            if clock() > deadline:
                return steps
    return loop


def aec_loop(variant: str, options: dict, seed: int = 1):
    """The PettingZoo loop of the benchmark."""
    from .pettingzoo import env

    e = env(variant, **options)
    rng = random.Random(seed)

    def loop(deadline: float) -> int:
        steps = 0
        games = 0
        e.reset(seed=seed)
        while time.perf_counter() < deadline:
            if not e.agents:
                games += 1
                e.reset(seed=seed + games)
            obs, _r, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps
    return loop


def engine_loop(variant, seed: int = 1):
    """The engine alone: random legal moves, pushed."""
    rng = random.Random(seed)

    def loop(deadline: float) -> int:
        steps = 0
        while time.perf_counter() < deadline:
            state = new_game(variant, rng)
            while True:
                moves = state.legal_moves()
                if not moves:
                    break
                state.push(moves[rng.randrange(len(moves))])
                steps += 1
        return steps
    return loop


def measure_env(variant: str, seconds: float = 3.0, options: dict | None = None) -> dict:
    """The figures by name (each a (per wall second, per CPU second) pair)."""
    options = dict(options or {})
    episode = Episode(variant, options)
    figures = {
        "env steps/s (tensor + mask + step)": _timed(env_loop(episode), seconds),
        "pettingzoo AEC steps/s": _timed(aec_loop(variant, options), seconds),
        "engine plies/s (legal moves + push)": _timed(engine_loop(episode.variant), seconds),
    }
    figures["observation tensor shape"] = episode.encoder.shape
    figures["action space size"] = episode.actions.n
    return figures


def format_env_table(variant: str, figures: dict) -> str:
    """The figures as an aligned text table."""
    width = max(len(k) for k in figures)
    lines = [f"gibson bench --env {variant} (one core; rates per wall second / per CPU second)",
             "-" * (width + 30)]
    for key, value in figures.items():
        if isinstance(value, tuple) and all(isinstance(v, float) for v in value):
            lines.append(f"{key:<{width}}  {value[0]:>12,.0f}  {value[1]:>12,.0f}")
        else:
            lines.append(f"{key:<{width}}  {value!s:>12}")
    return "\n".join(lines)
