"""The search agent: determinized Monte Carlo search with UCB at the root.

Each iteration draws a full position consistent with the agent's Beliefs (a sample of the hidden enemy
types, :meth:`Beliefs.sample`), picks a root move by UCB1 (with the heuristic's score as a fading prior),
plays it in that sampled world, continues with a short greedy playout (each side takes the best winning
fight in the sampled world, otherwise a random move that does not throw a piece away), and scores the
end position with :func:`values.evaluate`. The move with the best average over the samples is played.

Only the Observation is read: the sampled worlds are built by the agent from its own guesses.

Strength levels are budgets of the same agent (``make_agent("search", level="hard")`` or the registry
names ``search-easy``, ``search-medium``, ``search-hard``):

========  ==================  ==========
level     seconds per move    iterations
========  ==================  ==========
easy      0.05                100
medium    0.2                 400
hard      1.0                 2000
========  ==================  ==========

Whichever limit comes first stops the search. A ``budget`` given to :meth:`choose_move` replaces the
level's seconds. ``seconds=None`` with an ``iterations`` count makes the agent fully deterministic for a
given random generator (the tests use that).
"""

from __future__ import annotations

import math
import random
import time

from ..fastpath import kernel_or_none
from ..moves import MOVE
from ..observe import Observation
from .base import Agent
from .heuristic import HeuristicAgent, MoveScorer
from .values import CombatProbe, evaluate
from .world import variant_of

LEVELS = {"easy": (0.05, 100), "medium": (0.2, 400), "hard": (1.0, 2000)}
EXPLORE = 2.0  # UCB exploration constant, in material units
PRIOR = 1.0  # weight of the heuristic prior (it fades as a move is visited)


class Playout:
    """Greedy-random playout policy for a sampled world (both sides see the sampled types)."""

    def __init__(self, variant, rng: random.Random, greed: float = 0.9):
        self.variant = variant
        self.rng = rng
        self.greed = greed
        self.probe = CombatProbe(variant)
        self.index = variant.grid.index

    def choose(self, state):
        """A move for the side to move, or None when it has none."""
        moves = state.legal_moves()
        if not moves:
            return None
        rng, index, board, ptype = self.rng, self.index, state.board, state.ptype
        wins = self.variant.win_arrive[state.to_move]
        best, best_gain = None, 0.0
        quiet = []
        before = None
        for move in moves:
            if move.kind != MOVE:
                if before is None:
                    before = evaluate(state, state.to_move)
                state.push(move)
                gain = evaluate(state, 1 - state.to_move) - before
                state.pop()
                if gain > best_gain:
                    best, best_gain = move, gain
                continue
            o, d = index[move.origin], index[move.dest]
            if d in wins and move.target is None and state.wins_on_arrival(board[o], o, d):
                return move
            if move.target is None:
                quiet.append(move)
                continue
            a, t = board[o], board[index[move.target]]
            gain = self.probe.gain(state, a, t, ptype[a], ptype[t], d)
            if gain > best_gain:
                best, best_gain = move, gain
            elif gain >= 0:
                quiet.append(move)
        if best is not None and rng.random() < self.greed:
            return best
        return rng.choice(quiet) if quiet else rng.choice(moves)

    def run(self, state, first, depth: int, player: int) -> float:
        """Push ``first``, then up to ``depth`` moves of this policy, then the no-move ending; returns the
        evaluation for ``player`` (the kernel's ``greedy_value`` does exactly this, compiled)."""
        state.push(first)
        pushed = 1
        while pushed <= depth and state.result is None:
            move = self.choose(state)
            if move is None:
                break
            state.push(move)
            pushed += 1
        state.outcome()
        return evaluate(state, player)


class SearchAgent(Agent):
    """Determinized Monte Carlo search over sampled hidden positions (see the module docstring)."""

    name = "search"

    def __init__(self, level: str = "medium", seconds: float | None = -1.0, iterations: int | None = None,
                 depth: int = 6, width: int = 12):
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
        default_seconds, default_iterations = LEVELS[level]
        self.level = level
        self.seconds = default_seconds if seconds == -1.0 else seconds
        self.iterations = iterations if iterations is not None else default_iterations
        self.depth = depth
        self.width = width
        self.last_iterations = 0  # how many iterations the last choose_move ran (for tests and tuning)
        self._setup = HeuristicAgent()

    def choose_setup(self, variant, player: str, rng: random.Random) -> dict[str, str]:
        return self._setup.choose_setup(variant, player, rng)

    def choose_move(self, observation: Observation, rng: random.Random, budget: float | None = None):
        legal = observation.legal_moves
        if not legal:
            raise ValueError(f"{observation.player} has no legal move to choose from")
        start = time.perf_counter()
        seconds = budget if budget is not None else self.seconds
        deadline = None if seconds is None else start + seconds
        variant = variant_of(observation)
        scorer = MoveScorer(observation, variant, rng)
        ranked = sorted(((scorer.score(m), i) for i, m in enumerate(legal)), reverse=True)
        if len(legal) == 1 or ranked[0][0] >= 1e6:
            self.last_iterations = 0
            return legal[ranked[0][1]]
        candidates = [legal[i] for _s, i in ranked[: self.width]]
        priors = _normalise([s for s, _i in ranked[: self.width]])
        world, beliefs, me = scorer.world, scorer.beliefs, scorer.me
        playout = Playout(variant, rng)
        kernel = kernel_or_none(variant)  # the same playouts, compiled (gibson_core.fastpath), when it can
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        done = 0
        while done < self.iterations and (deadline is None or time.perf_counter() < deadline):
            state = world.build(beliefs.sample(rng))
            base = evaluate(state, me)  # scoring against the same sample's start removes its noise
            k = _select(visits, totals, priors, done)
            if kernel is not None:
                value = kernel.greedy_value(state, candidates[k], self.depth, rng, playout.greed, me) - base
            else:
                value = playout.run(state, candidates[k], self.depth, me) - base
            visits[k] += 1
            totals[k] += value
            done += 1
        self.last_iterations = done
        best = max(range(len(candidates)),
                   key=lambda i: (totals[i] / visits[i] + 0.01 * priors[i]) if visits[i] else -1e9 + priors[i])
        return candidates[best]


def _normalise(scores: list) -> list:
    """Scores scaled to 0..1 (best = 1)."""
    lo, hi = min(scores), max(scores)
    return [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]


def _select(visits: list, totals: list, priors: list, done: int) -> int:
    """UCB1 with a fading prior; unvisited moves first, best prior first."""
    for i, n in enumerate(visits):
        if n == 0:
            return i
    log_n = math.log(done + 1)
    return max(range(len(visits)), key=lambda i: totals[i] / visits[i] + EXPLORE * math.sqrt(log_n / visits[i])
               + PRIOR * priors[i] / (visits[i] + 1))
