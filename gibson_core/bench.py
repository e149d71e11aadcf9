"""``gibson bench``: speed measured, not asserted. Random-playout plies per second, full random games per
second, legal-move enumerations per second on midgame positions, and peak memory, on one core; for the
Python engine (the reference) or the compiled fast path (:mod:`gibson_core.fastpath`), which adds batch
playouts. Set-ups are made in Python in both cases and are not timed in the playout figures."""

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


def measure(variant_name: str, seconds: float = 3.0, seed: int = 1, options: dict | None = None,
            engine: str = "python") -> dict:
    """Run the benchmark for about ``seconds`` per figure; returns the figures by name. ``engine`` is
    ``"python"`` or ``"fast"`` (ValueError naming the reason when the fast path cannot play the variant).
    Times are process CPU seconds, so a loaded machine slows the figures less than wall time would."""
    variant = load_variant(variant_name, options)
    if engine == "fast":
        from .fastpath import Kernel

        Kernel.for_variant(variant)  # raises when the kernel is not built or does not play this variant
        return _measure_fast(variant, seconds, seed)
    rng = random.Random(seed)
    figures = _playout_figures(variant, rng, seconds, random_playout)

    positions = midgame_positions(variant, rng, 50)
    count = 0
    moves_total = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in positions:
            state._legal = None
            state._piece_moves.clear()  # a full enumeration: no per-piece moves kept from before
            moves_total += len(state._generate(state.to_move))
            count += 1
    elapsed = time.process_time() - start
    figures["legal-move enumerations/s (midgame)"] = count / elapsed
    figures["legal moves per midgame position"] = moves_total / max(count, 1)

    figures["push (+generate) per second"] = _push_rate(new_game(variant, rng), rng, seconds / 2)
    figures["search-agent iterations/s"] = search_iterations(variant, seconds / 2, seed, compiled=False)

    tracemalloc.start()
    state = new_game(variant, rng)
    random_playout(state, rng)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    figures["peak memory of one random game (KiB)"] = peak / 1024
    return figures


def search_iterations(variant, seconds: float, seed: int, compiled: bool) -> float:
    """The search agent's iterations per CPU second on midgame positions (``compiled``: its tail playouts in
    the kernel, as it does by default when the fast path plays the variant)."""
    from .ai.search import SearchAgent
    from .observe import observe

    positions = midgame_positions(variant, random.Random(seed), 3, 60)
    # iterations per move: 100, fewer for a very short measurement (the figure is per iteration either way)
    agent = SearchAgent("medium", seconds=None, iterations=max(10, min(100, int(seconds * 200))), compiled=compiled)
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for i, state in enumerate(positions):
            agent.choose_move(observe(state, state.player), random.Random(seed + i))
            done += agent.last_iterations
    return done / (time.process_time() - start)


def _playout_figures(variant, rng: random.Random, seconds: float, play) -> dict:
    """Random playouts by ``play(state, rng) -> plies`` from fresh random set-ups (set-ups not timed)."""
    plies = games = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = new_game(variant, rng)
        start = time.process_time()
        plies += play(state, rng)
        elapsed += time.process_time() - start
        games += 1
    return {"random-playout plies/s": plies / elapsed, "full random games/s": games / elapsed,
            "average game length (plies)": plies / max(games, 1)}


def _measure_fast(variant, seconds: float, seed: int) -> dict:
    """The fast path's figures: kernel playouts (Python set-ups not timed), batch playouts with the GIL
    released, legal-move enumerations (packed moves, no Move objects) and push+generate in the kernel."""
    from .fastpath import FastGame, Kernel, batch_playouts

    rng = random.Random(seed)
    figures = _playout_figures(variant, rng, seconds, lambda state, rng: FastGame(state).playout(rng))

    states = [new_game(variant, rng) for _ in range(64)]
    plies = 0
    elapsed = 0.0
    while elapsed < seconds:
        start = time.process_time()
        plies += sum(p for p, _r in batch_playouts(states, [rng.getrandbits(64) for _ in states]))
        elapsed += time.process_time() - start
    figures["batch playout plies/s (64 games a batch)"] = plies / elapsed

    kernel = Kernel.for_variant(variant)
    games_ = [kernel.game(s) for s in midgame_positions(variant, rng, 50)]
    count = moves_total = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for game in games_:
            moves_total += game.generate()
            count += 1
    figures["legal-move enumerations/s (midgame)"] = count / (time.process_time() - start)
    figures["legal moves per midgame position"] = moves_total / max(count, 1)

    figures["push (+generate) per second"] = _push_rate(FastGame(new_game(variant, rng)), rng, seconds / 2)
    figures["search-agent iterations/s"] = search_iterations(variant, seconds / 2, seed, compiled=True)
    return figures


def _push_rate(game, rng: random.Random, seconds: float) -> float:
    """Random moves pushed a CPU second, each after listing the legal moves, popping back to the start every
    300 plies or at the end of a game (``game``: a GameState or a FastGame)."""
    start = time.process_time()
    pushes = 0
    while time.process_time() - start < seconds:
        moves = game.legal_moves()
        if not moves or len(game.history) > 300:
            while game.history:
                game.pop()
            continue
        game.push(rng.choice(moves))
        pushes += 1
    return pushes / (time.process_time() - start)


def format_table(variant_name: str, figures: dict, engine: str = "python") -> str:
    """The figures as an aligned text table, headed by the engine that produced them."""
    width = max(len(k) for k in figures)
    lines = [f"gibson bench {variant_name} ({engine} engine, one core, CPU time)", "-" * (width + 14)]
    for key, value in figures.items():
        lines.append(f"{key:<{width}}  {value:>12,.1f}")
    return "\n".join(lines)
