"""Independent random generators derived from one game seed, the same in every process.

A game's seed fixes the whole game, but no two consumers share a generator: each set-up and each agent
gets its own, derived from the seed and a label (``derive(seed, "setup", "red")``,
``derive(seed, "agent", "blue")``). An agent therefore cannot recover the opponent's set-up, or the
opponent's choices, from its own generator. The derivation hashes the labels with SHA-256 (never Python's
``hash()``, which changes with ``PYTHONHASHSEED``), so it is stable across processes and machines.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int | None, *labels) -> int | None:
    """A 64-bit integer seed for ``labels`` under ``seed`` (None stays None: an unseeded generator)."""
    if seed is None:
        return None
    text = "\x1f".join([str(int(seed)), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def derive(seed: int | None, *labels) -> random.Random:
    """A new generator for ``labels`` under ``seed``; ``seed=None`` gives a generator seeded by the system."""
    return random.Random(derive_seed(seed, *labels))


def setup_rng(seed: int | None, player: str) -> random.Random:
    """The generator of ``player``'s set-up in the game of ``seed``."""
    return derive(seed, "setup", player)


def agent_rng(seed: int | None, player: str) -> random.Random:
    """The generator of the agent playing ``player`` in the game of ``seed`` (used for all its moves)."""
    return derive(seed, "agent", player)


def first_player(seed: int | None, players) -> str:
    """The first mover chosen by lot for the game of ``seed``."""
    return derive(seed, "first").choice(list(players))
