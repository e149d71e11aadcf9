"""``gibson bench``: speed measured, not asserted. Random-playout plies per second, full random games per
second, legal-move enumerations per second on midgame positions, and peak memory, on one core."""

from __future__ import annotations

import random
import time
import tracemalloc

from .plugins import load_variant
from .setup import random_setup
from .state import GameState


def new_game(variant, rng: random.Random) -> GameState:
    """A game from two random set-ups, first player by lot."""
    setups = {p: random_setup(variant, p, rng) for p in variant.players}
    return GameState.from_setups(variant, setups, rng.choice(variant.players))


def random_playout(state: GameState, rng: random.Random, max_plies: int = 100_000) -> int:
    """Play uniformly random legal moves until the game ends; returns the plies played."""
    n = 0
    choice = rng.choice
    while n < max_plies:
        moves = state.legal_moves()
        if not moves:
            state.outcome()
            break
        state.push(choice(moves))
        n += 1
    return n


def midgame_positions(variant, rng: random.Random, count: int, plies: int = 120) -> list[GameState]:
    """Positions ``plies`` random moves into random games (fewer if a game ends first)."""
    out = []
    while len(out) < count:
        state = new_game(variant, rng)
        for _ in range(plies):
            moves = state.legal_moves()
            if not moves:
                break
            state.push(rng.choice(moves))
        if state.outcome() is None:
            out.append(state)
    return out


def measure(variant_name: str, seconds: float = 3.0, seed: int = 1, options: dict | None = None) -> dict:
    """Run the benchmark for about ``seconds`` per figure; returns the figures by name."""
    variant = load_variant(variant_name, options)
    rng = random.Random(seed)
    figures: dict = {}

    plies = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(variant, rng)
        plies += random_playout(state, rng)
        games += 1
    elapsed = time.perf_counter() - start
    figures["random-playout plies/s"] = plies / elapsed
    figures["full random games/s"] = games / elapsed
    figures["average game length (plies)"] = plies / max(games, 1)

    positions = midgame_positions(variant, rng, 50)
    count = 0
    moves_total = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state in positions:
            state._legal = None
            state._piece_moves.clear()  # a full enumeration: no per-piece moves kept from before
            moves_total += len(state._generate(state.to_move))
            count += 1
    elapsed = time.perf_counter() - start
    figures["legal-move enumerations/s (midgame)"] = count / elapsed
    figures["legal moves per midgame position"] = moves_total / max(count, 1)

    state = new_game(variant, rng)
    start = time.perf_counter()
    pushes = 0
    while time.perf_counter() - start < seconds / 2:
        moves = state.legal_moves()
        if not moves or len(state.history) > 300:
            while state.history and state._stack:
                state.pop()
            continue
        state.push(rng.choice(moves))
        pushes += 1
    figures["push (+generate) per second"] = pushes / (time.perf_counter() - start)

    tracemalloc.start()
    state = new_game(variant, rng)
    random_playout(state, rng)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    figures["peak memory of one random game (KiB)"] = peak / 1024
    return figures


def format_table(variant_name: str, figures: dict) -> str:
    """The figures as an aligned text table."""
    width = max(len(k) for k in figures)
    lines = [f"gibson bench {variant_name} (one core)", "-" * (width + 14)]
    for key, value in figures.items():
        lines.append(f"{key:<{width}}  {value:>12,.1f}")
    return "\n".join(lines)
