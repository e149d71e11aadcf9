"""The differential test of the fast path: seeded random games (every other one from a sparse random
"skirmish" position near the squares that decide games) played in the reference engine
(:class:`~gibson_core.state.GameState`) and in the kernel (:class:`~gibson_core.fastpath.FastGame`) side by
side, comparing the legal-move lists (order included), the whole position, the tokens, the events and the
result after every ply, then push/pop undo, then the kernel's own random playout against the Python one from
the same generator. ``gibson difftest --games N`` runs it for every variant and option the kernel plays.
"""

from __future__ import annotations

import random

from .bench import new_game, random_playout
from .fastpath import FastGame, engine_for, state_snapshot, unsupported
from .moves import Move
from .plugins import load_variant, variant_names
from .state import GameState


class Mismatch(AssertionError):
    """The two engines disagree (the message says where)."""


def configurations() -> list[tuple[str, dict]]:
    """Every shipped (registered) variant with its default options, then each boolean option switched on
    alone, each with a short ply limit as well (to reach the ply-limit ending)."""
    out = []
    for name in variant_names():
        variant = load_variant(name)
        out.append((name, {}))
        for option, spec in variant.option_specs.items():
            default = (spec or {}).get("default")
            if isinstance(default, bool):
                out.append((name, {option: not default}))
        if "ply-limit" in variant.option_specs:
            out.append((name, {"ply-limit": 40}))
    return out


def _check(what: str, ply: int, a, b, where: str) -> None:
    if a != b:
        raise Mismatch(f"{where}, ply {ply}: {what} differ:\n  python: {a!r}\n  kernel: {b!r}")


def skirmish(variant, rng: random.Random, per_side: int = 8) -> GameState:
    """A random sparse position: ``per_side`` random pieces a side on random passable squares, most of them
    near the squares where games are decided (winning squares, Bases), so endings, Flag pick-ups, hand-overs,
    blasts on carriers and running aground happen often in random play."""
    grid = variant.grid
    goals = {sq for wins in variant.win_arrive for sq in wins}
    flags = variant.rules.get("flags")
    if flags is not None:
        goals |= set(flags.bases)
    passable = [sq for sq in range(grid.size) if variant.kind_of(sq).passable and sq not in variant.transit_squares]
    near = [sq for sq in passable if any(grid.king_distance(sq, g) <= 2 for g in sorted(goals))]
    weights = [per_side if sq in near else 1 for sq in passable]
    chosen: list[int] = []
    while len(chosen) < 2 * per_side:
        sq = rng.choices(passable, weights)[0]
        if sq not in chosen:
            chosen.append(sq)
    pool = [t.id for t in variant.types for _ in range(t.count)]
    position = {grid.names[sq]: f"{variant.players[i % 2]} {rng.choice(pool)}" for i, sq in enumerate(chosen)}
    state = GameState.from_position(variant, position, rng.choice(variant.players))
    if flags is not None:  # each Flag, one time in two, starts carried by (or lying under) a random piece
        flags.place(state, {p: rng.choice(sorted(position)) for p in variant.players if rng.random() < 0.5})
    return state


def compare_game(variant, seed: int, max_plies: int = 400, undo_every: int = 7, sparse: bool = False) -> int:
    """Play one seeded random game in both engines, comparing everything after every ply; returns plies.
    ``sparse``: from a :func:`skirmish` position instead of two random set-ups."""
    rng = random.Random(f"difftest:{variant.name}:{seed}:{sparse}")  # str seeds hash the same in every process
    state = skirmish(variant, rng) if sparse else new_game(variant, rng)
    where = f"{variant.name} {variant.options} seed {seed}" + (" (skirmish)" if sparse else "")
    return compare_play(state, rng.choice, max_plies, where, undo_every)


def compare_moves(state: GameState, moves: list[str], where: str) -> int:
    """Play ``moves`` (notation, each must be legal) from ``state`` in both engines, comparing after every ply
    as :func:`compare_game` does: for rules random play rarely reaches. Returns the plies played."""
    script = iter(moves)

    def choose(legal):
        text = next(script, None)
        if text is None:
            return None
        move = Move.parse(text)
        if move not in legal:
            raise Mismatch(f"{where}: {text} is not legal here (the script is wrong)")
        return move

    return compare_play(state, choose, len(moves), where, undo_every=2)


def compare_play(state: GameState, choose, max_plies: int, where: str, undo_every: int = 7) -> int:
    """Play from ``state`` (a copy goes into the kernel) with ``choose(legal moves) -> move or None`` in both
    engines, comparing legal moves, position, tokens, events and results after every ply; returns plies."""
    fast = FastGame(state)
    ply = 0
    while ply < max_plies:
        moves = state.legal_moves()
        _check("legal moves", ply, moves, fast.legal_moves(), where)
        if not moves:
            _check("result", ply, state.outcome(), fast.outcome(), where)
            break
        move = choose(moves)
        if move is None:
            break
        if undo_every and ply % undo_every == undo_every // 2:  # a push/pop round trip first: exact undo
            before = state_snapshot(state)
            fast.push(move)
            fast.pop()
            _check("position after push/pop", ply, before, fast.snapshot(), where)
        state.push(move)
        fast.push(move)
        ply += 1
        _check("events", ply, state.history[-1][1], fast.last_events(), where)
        _check("position", ply, state_snapshot(state), fast.snapshot(), where)
    _check("history", ply, state.history, fast.history, where)
    return ply


def compare_playout(variant, seed: int) -> int:
    """The kernel's random playout against the Python engine's from generators in the same state."""
    rng = random.Random(f"difftest-playout:{variant.name}:{seed}")
    state = new_game(variant, rng)
    fast = FastGame(state)
    twin = random.Random()
    twin.setstate(rng.getstate())
    plies = random_playout(state, rng)
    fast_plies = fast.playout(twin)
    where = f"{variant.name} {variant.options} seed {seed} (playout)"
    _check("plies", plies, plies, fast_plies, where)
    _check("final position", plies, state_snapshot(state), fast.snapshot(), where)
    _check("generator state", plies, rng.getstate(), twin.getstate(), where)
    return plies


def compare_search_playouts(variant, seed: int, count: int = 20, depth: int = 6) -> int:
    """The search agent's tail playouts (:meth:`~gibson_core.ai.search.Playout.finish`) against the kernel's
    from positions along a random game and a skirmish: same value, same generator state. Returns how many."""
    from .ai.search import Playout
    from .fastpath import Kernel

    kernel = Kernel.for_variant(variant)
    rng = random.Random(f"difftest-search:{variant.name}:{seed}")
    done = 0
    for state in (new_game(variant, rng), skirmish(variant, rng)):
        while done < count and state.result is None and state.legal_moves():
            me = rng.randrange(2)
            mine, theirs = random.Random(rng.random()), random.Random()
            theirs.setstate(mine.getstate())
            value = Playout(variant, mine).finish(state.copy(), depth, me)
            fast = kernel.finish_value(state, depth, theirs, 0.9, me)
            where = f"{variant.name} {variant.options} seed {seed} (search playout {done})"
            _check("search playout value", state.ply, value, fast, where)
            _check("generator state", state.ply, mine.getstate(), theirs.getstate(), where)
            policy = Playout(variant, mine).choose(state.copy())  # and the policy's choice at the node itself
            _check("search policy choice", state.ply, policy, FastGame(state).choose(theirs, 0.9), where)
            _check("generator state", state.ply, mine.getstate(), theirs.getstate(), where)
            done += 1
            for _ in range(rng.randrange(1, 12)):  # further into the game
                moves = state.legal_moves()
                if not moves:
                    break
                state.push(rng.choice(moves))
    return done


def run(games: int, seed: int = 0, configs: list | None = None, max_plies: int = 400,
        playouts: int | None = None) -> dict:
    """``games`` compared games (every other one a skirmish) and ``playouts`` (default: as many) compared
    whole playouts per configuration the kernel plays; raises :class:`Mismatch` at the first difference.
    Returns counts, and the configurations left to Python with the reason."""
    totals = {"games": 0, "plies": 0, "playouts": 0, "playout plies": 0, "search playouts": 0,
              "python only": []}
    for name, options in configs or configurations():
        variant = load_variant(name, options or None)
        if engine_for(variant) != "fast":
            totals["python only"].append(f"{name} {options}: {unsupported(variant) or 'kernel not built'}")
            continue
        for i in range(games):
            totals["plies"] += compare_game(variant, seed + i, max_plies, sparse=i % 2 == 1)
            totals["games"] += 1
        for i in range(games if playouts is None else playouts):
            totals["playout plies"] += compare_playout(variant, seed + i)
            totals["playouts"] += 1
            totals["search playouts"] += compare_search_playouts(variant, seed + i)
    return totals
