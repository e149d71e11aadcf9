"""The search agent: single-observer information-set Monte Carlo tree search (IS-MCTS).

Each iteration takes a determinization: a full position consistent with the agent's Beliefs (a sample of
the hidden enemy types, :meth:`Beliefs.sample`), built by the agent from its own Observation (``pool`` of
them are sampled per move and the iterations cycle through them, each undone after use). It then
walks one tree shared by all determinizations, whose nodes are keyed by the moves played from the root:

- at our root, the candidates are the heuristic's best ``width`` moves, chosen by UCB1; each starts with
  its heuristic score counted as ``PRIOR_VISITS`` visits, and a fading bonus for the heuristic's order;
- below, each side's moves legal in *this* determinization compete by UCB1 over their availability
  (a move is only counted as available in the determinizations where it is legal), with progressive
  widening: a node visited ``n`` times may have about ``2 * sqrt(n)`` children, and each new child is the
  playout policy's choice (the opponent's replies are in the tree, best-looking first). In the tree each
  side's choices are made on the determinization's outcomes, so the opponent there plays as if it saw our
  hidden pieces: the deeper the tree, the more of the game is played so. ``reach`` can bound the moves on
  a path (the root's included; the non-peeking playout plays on below); no level does, as hard grows
  several trees of medium's size instead of one deep tree (below);
- after the tree, a playout of ``depth`` plies by the greedy policy (:class:`Playout`: a win by arriving,
  the best winning fight or shot, else a Flag carrier's step home, else often the quiet move that most
  improves its piece's square, otherwise a random move that does not throw a piece away). Neither side
  peeks: a fight against a piece the attacker has not seen is judged by the mean over the types its owner
  still hides, not by the determinization's guess;
- the end is scored by :func:`values.evaluate` against the start of the same determinization (so its
  noise cancels), clamped to ``±CLAMP``, and backed up to every node on the path from the side of the
  player who made that node's move.
- after ``QUIET`` plies without a capture (:func:`quiet_plies`, read from the Observation) the search is
  restless: its ends are scored by ``evaluate(..., restless=True)``, which hunts the enemy's movers and
  pushes our nearest winner home from an even game on, and counts the hunt, the push and the guards of
  the enemy's goal ``values.RESTLESS`` times as much. Aviation's drawn games stood still from ply 500 to
  the ply limit, neither side's share of the mobile worth moving, and no pull was strong enough to end a
  wait that costs nothing. Restless, a root move's heuristic score also gains ``URGENCY`` times its own
  change of the pulls (:func:`urgency`): progress now, not after a wait.
- a root move's heuristic score counts from the mean of ``DRIFT`` playouts from the root (``_drift``):
  the change every move's iterations share, however good the move.

The move visited most is played (the robust child: UCB comes back to the moves that keep looking best,
and the heuristic's score starts each at ``PRIOR_VISITS`` visits, so with a tiny budget the heuristic's
order stands; with more time the search's own findings win), unless its mean beats the mean of the
heuristic's first choice by less than ``margin`` (``MARGIN``, 0.5 material units): then the heuristic's
choice is played. Where every move's playouts end alike, the mean of a few hundred iterations differs by
noise alone, and the most visited move was a Searchlight's shuffle while the heuristic's first choice
walked a winner towards its goal. Between moves the tree is reused:
the child for our move and the opponent's reply, when both are in the tree, becomes the new root. It guides
where the new iterations go, but only they vote: the visits and means that choose the move are the new
search's own. Voted by the visits kept too, a move's favourite of earlier searches (15,000-32,000 visits
late in a long game, against 2,000-8,000 new iterations) stayed played while fresh searches of the same
positions found a move worth a whole game.

Where the compiled kernel plays the variant (``gibson_core.fastpath``), the tree and the iterations live
there (:class:`KernelTree`: nodes keyed by packed move codes, the determinizations as kernel Games), with
exactly the choices, values and draws from the generator of the Python tree (:class:`PythonTree`, nodes
keyed by Move objects), which plays every other variant. Only the worlds are sampled and built in Python.

Strength levels are budgets of the same agent (``make_agent("search", level="hard")`` or the registry
names ``search-easy``, ``search-medium``, ``search-hard``):

========  ==================  ==========  ====  =====  =====  =====  =====  =====
level     seconds per move    iterations  pool  depth  width  reach  trees  prior
========  ==================  ==========  ====  =====  =====  =====  =====  =====
easy      0.05                150         16    6      12     --     1      0.75
medium    0.2                 10000       32    6      40     --     1      0.75
hard      1.0                 50000       128   6      40     --     4      0.75
========  ==================  ==========  ====  =====  =====  =====  =====  =====

Whichever limit comes first stops the search (``--``: no bound on a path's moves); ``prior`` is the share
of the set-up statistics in the beliefs the worlds are sampled from (:mod:`.setup_prior`; 0: uniform).
Medium and hard weigh the heuristic's best 40 moves at the root (nearly every move of a turn), not its best
12 as they did until the seventeenth session: the moves that carry a plan of many moves (a Troop Carrier
walking in, a gun brought to the front, a hunter far off) were often not among the heuristic's first 12,
so the search never weighed them (docs/ai.md, "Measured strength"). Easy's 150 iterations keep 12.

Hard spends its second on four trees, each grown as medium grows its one (a quarter of the time, the
iterations and the worlds: 32 of 128), and plays the root move with the most visits summed over them. One
tree grown on 3-4 times medium's iterations did not beat medium once both ran in the kernel, whatever its shape (docs/ai.md): the
deeper a tree, the more of the game the opponent in it plays as if it saw our pieces, while more trees
only see more of the beliefs and average out each tree's accidents. A ``budget`` given to
:meth:`choose_move` replaces the level's seconds. ``seconds=None`` with an ``iterations`` count makes the
agent fully deterministic for a given random generator (the tests use that).
"""

from __future__ import annotations

import math
import random
import time
from array import array
from typing import NamedTuple

from ..errors import GibsonError, NoLegalMoveError
from ..events import Removed
from ..fastpath import FastGame, Twister, kernel_or_none
from ..moves import FIRE, MOVE, Move
from ..observe import Observation
from ..pieces import IMMOBILE
from ..seeding import derive
from .analysis import Analysis, ScoredMove
from .base import Agent
from .beliefs import infer_beliefs
from .heuristic import MoveScorer, planned_setup
from .setup_prior import setup_ratios
from .values import CombatProbe, distance_to, evaluate, pull_terms, search_values, square_tables
from .world import variant_of


class Level(NamedTuple):
    """A strength level's budget and shape: seconds and iterations a move (whichever ends first), sampled
    worlds, playout plies after the tree, root candidates, the most moves on a path through the tree
    (the root's move included; the playout plays on below), how many trees share the budget (each
    grown on its own share of the worlds, their root visits summed), and the share of the set-up
    statistics in the beliefs' prior (:mod:`.setup_prior`; 0: the uniform prior)."""

    seconds: float
    iterations: int
    pool: int
    depth: int
    width: int
    reach: int
    trees: int = 1
    prior: float = 0.0


UNBOUNDED = 1_000_000_000  # a reach no path can attain: more moves than any search has iterations
SETUP_PRIOR = 0.75  # share of the set-up statistics in every level's beliefs (docs/ai.md, "Beliefs")
LEVELS = {"easy": Level(0.05, 150, 16, 6, 12, UNBOUNDED, 1, SETUP_PRIOR),
          "medium": Level(0.2, 10000, 32, 6, 40, UNBOUNDED, 1, SETUP_PRIOR),
          "hard": Level(1.0, 50000, 128, 6, 40, UNBOUNDED, 4, SETUP_PRIOR)}

EXPLORE = 2.0  # UCB exploration constant, in material units
PRIOR = 1.0  # weight of the heuristic prior at the root (it fades as a move is visited)
SLACK = 0.9  # share of the budget the iterations may use
PRIOR_VISITS = 2  # a root move starts with its heuristic score counted as this many visits
CLAMP = 40.0  # a won or lost end counts this much (material units), so one result cannot swamp the mean
WIDEN = 2.0  # progressive widening: children allowed = WIDEN * sqrt(visits) + 1
MARGIN = 0.5  # the heuristic's first choice is played unless the search's best beats its mean by this much
QUIET = 100  # plies without a capture after which the search is restless (values.evaluate, restless=True)
DRIFT = 16  # playouts from the root (in the likeliest world) whose mean value the root's priors start from
URGENCY = 3.0  # restless, a root move's heuristic score gains this many times its change of values.pull_terms


def clamped(value: float) -> float:
    """``value`` within ``±CLAMP``: what one iteration, a root prior or the drift may count (the kernel's
    ``clamp`` is the same)."""
    return max(-CLAMP, min(CLAMP, value))


def urgency(scorer: MoveScorer, moves: list) -> list:
    """For each of ``moves``, how much it changes :func:`values.pull_terms` (restless) for the side to move
    in the scorer's likeliest world. A restless search's root adds it to the heuristic's scores: the
    greedy playouts make the same progress after any first move, so a wait and a step forward ended alike
    and the search shuffled (an Aviation side 26 pieces to 23 moved a Troop Carrier back and forth for 500
    plies with a free square before it, every move's mean within 0.3 of the others)."""
    state, me = scorer.state, scorer.me
    before = pull_terms(state, me, restless=True)
    out = []
    for move in moves:
        state.push(move)
        try:
            out.append(0.0 if state.result is not None else pull_terms(state, me, restless=True) - before)
        finally:
            state.pop()
    return out


def quiet_plies(observation: Observation) -> int:
    """How many plies have passed since a piece was last removed (all of them, if none ever was)."""
    for n, events in enumerate(reversed(observation.events)):
        if any(isinstance(event, Removed) for event in events):
            return n
    return len(observation.events)


class Playout:
    """Greedy-random playout policy for a sampled world (both sides see the sampled types)."""

    def __init__(self, variant, rng: random.Random, greed: float = 0.9, restless: bool = False):
        self.variant = variant
        self.rng = rng
        self.greed = greed
        self.restless = restless  # the ends are scored by values.evaluate(..., restless=True)
        self.probe = CombatProbe(variant)
        self.index = variant.grid.index
        self.values = search_values(variant)
        self.tables = square_tables(variant)
        self.flags = variant.rules.get("flags")
        self.mobile = [ptype.movement.kind != IMMOBILE for ptype in variant.types]

    def choose(self, state, moves=None):
        """A move for the side to move (from ``moves`` if given), or None when it has none."""
        moves = state.legal_moves() if moves is None else moves
        if not moves:
            return None
        rng, index, board, ptype = self.rng, self.index, state.board, state.ptype
        wins = self.variant.win_arrive[state.to_move]
        best, best_gain = None, 0.0
        best_quiet, best_quiet_gain = None, 0.0
        quiet = []
        carriers = self._carriers(state)
        carry, carry_gain = None, 0.0
        hidden, mobile = self._hidden(state, 1 - state.to_move)
        for move in moves:
            if move.kind != MOVE:
                # firing is worth its target; other actions (illuminate, hand-over) are left to the tree
                if move.kind == FIRE:
                    gain = self.values[ptype[board[index[move.target]]]]
                    if gain > best_gain:
                        best, best_gain = move, gain
                continue
            o, d = index[move.origin], index[move.dest]
            if d in wins and move.target is None and state.wins_on_arrival(board[o], o, d):
                return move
            if move.target is None:
                pid = board[o]
                t, p = ptype[pid], state.owner[pid]
                gain = self.tables[p][t][d] - self.tables[p][t][o]
                if carriers and pid in carriers:
                    home = self._homeward(state, pid, o, d)
                    if home > carry_gain:
                        carry, carry_gain = move, home
                if gain > best_quiet_gain:
                    best_quiet, best_quiet_gain = move, gain
                quiet.append(move)
                continue
            a, t = board[o], board[index[move.target]]
            if state.revealed[t]:
                gain = self.probe.gain(state, a, t, ptype[a], ptype[t], d, self.values, self.values)
            else:  # the mover does not know what it attacks: the mean over what it may be
                gain = self._blind_gain(state, a, t, d, *(mobile if state.moved[t] and mobile[1] else hidden))
            if gain > best_gain:
                best, best_gain = move, gain
            elif gain >= 0:
                quiet.append(move)
        if best is not None and rng.random() < self.greed:
            return best
        if carry is not None and rng.random() < self.greed:
            return carry
        if best_quiet is not None and rng.random() < self.greed / 2:
            return best_quiet
        return rng.choice(quiet) if quiet else rng.choice(moves)

    def _hidden(self, state, player: int) -> tuple:
        """``player``'s pieces whose types the other side has not seen, counted by type, with their total:
        ``((counts, total), (counts, total))`` for all of them and for those of types that can move (a piece
        seen moving is one of these)."""
        counts = [0] * len(self.mobile)
        for pid in state.pids[player]:
            if state.square[pid] >= 0 and not state.revealed[pid]:
                counts[state.ptype[pid]] += 1
        mobile = [c if can else 0 for c, can in zip(counts, self.mobile, strict=True)]
        return (counts, sum(counts)), (mobile, sum(mobile))

    def _blind_gain(self, state, a: int, d: int, dest: int, counts: list, total: int) -> float:
        """The expected material change of ``a`` (moved to ``dest``) attacking the hidden ``d``: the mean of
        the fight's gain over the types ``counts`` (``total`` pieces) says ``d`` may be (the playout's sides
        do not peek at each other's hidden pieces: the search's determinization is its own guess, the
        opponent's is not known)."""
        gain = 0.0
        ta = state.ptype[a]
        for td, c in enumerate(counts):
            if c:
                gain += c * self.probe.gain(state, a, d, ta, td, dest, self.values, self.values)
        return gain / total

    def finish(self, state, depth: int, player: int) -> float:
        """Up to ``depth`` moves of this policy, the no-move ending, then :func:`evaluate` for ``player``
        (``gibson_core.fastpath.Kernel.finish_value`` does exactly this, compiled)."""
        for _ in range(depth):
            if state.result is not None:
                break
            move = self.choose(state)
            if move is None:
                break
            state.push(move)
        state.outcome()
        return evaluate(state, player, restless=self.restless)

    def _carriers(self, state) -> dict:
        """``{piece: its owner's Base square}`` for pieces carrying a Flag (empty without Flags)."""
        if self.flags is None:
            return {}
        out = {}
        for key in self.flags.keys:
            carrier = state.tokens[key][1]
            if carrier:
                out[carrier] = self.flags.bases[state.owner[carrier]]
        return out

    def _homeward(self, state, pid: int, o: int, d: int) -> float:
        """A Flag carrier's steps saved on the way to its Base."""
        home = self.flags.bases[state.owner[pid]]
        dist = distance_to(self.variant, state.ptype[pid], home)
        return 2.0 * (dist[o] - dist[d])


class Node:
    """A node of :class:`PythonTree`: the statistics of the move that leads to it, from the side of the
    player who made that move, and its children by Move."""

    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self):
        self.children: dict = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class SearchAgent(Agent):
    """Information-set Monte Carlo tree search over sampled hidden positions (see the module docstring)."""

    name = "search"

    def __init__(self, level: str = "medium", seconds: float | None = -1.0, iterations: int | None = None,
                 depth: int | None = None, width: int | None = None, reuse: bool = True, compiled: bool = True,
                 pool: int | None = None, reach: int | None = None, trees: int | None = None,
                 prior: float | None = None, margin: float = MARGIN):
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
        given = {"iterations": iterations, "pool": pool, "depth": depth, "width": width, "reach": reach,
                 "trees": trees, "prior": prior}
        shape = LEVELS[level]._replace(**{k: v for k, v in given.items() if v is not None})
        if shape.pool < 1:
            raise ValueError(f"pool must be at least 1, not {shape.pool}")
        if shape.reach < 1:
            raise ValueError(f"reach must be at least 1 (the root's move), not {shape.reach}")
        if not 1 <= shape.trees <= shape.pool:
            raise ValueError(f"trees must be at least 1 and at most the pool ({shape.pool}), not {shape.trees}")
        self.level = level
        self.seconds = shape.seconds if seconds == -1.0 else seconds
        self.iterations, self.pool, self.reach = shape.iterations, shape.pool, shape.reach
        self.depth, self.width, self.trees = shape.depth, shape.width, shape.trees
        if not 0.0 <= shape.prior <= 1.0:
            raise ValueError(f"prior must be between 0 and 1, not {shape.prior}")
        self.prior = shape.prior  # share of the set-up statistics in the beliefs' prior; 0: none
        self.reuse = reuse
        if not margin >= 0.0:
            raise ValueError(f"margin must be at least 0, not {margin}")
        self.margin = margin  # the search overrides the heuristic's first choice only when it is this much better
        self.compiled = compiled  # the tree and playouts in the fast path's kernel when it plays the variant (same choices)
        self.last_iterations = 0  # how many iterations the last choose_move ran (for tests and tuning)
        self._tree: tuple | None = None  # (moves so far when it was searched, the trees, our move text)

    def choose_setup(self, variant, player: str, rng: random.Random) -> dict[str, str]:
        """The heuristic's planned set-up with the breakers of the enemy's guards kept back (Aviation's
        Bombers, the only pieces that destroy a gun: ``planned_setup(..., breakers=True)``). The
        heuristic's set-ups put them in front, where the first lights reveal them and the guns shoot them
        down: both sides lost about 8 of their 9 a game, most before ply 500, and a side without Bombers
        cannot break the enemy's guns, the only way to a win. The set-up statistics of the enemy are
        counted now (once per process and variant), so that the first move's budget is not spent on them."""
        self._enemy_setups(variant, player)
        return planned_setup(variant, player, rng, breakers=True)

    def _enemy_setups(self, variant, player: str) -> dict:
        """The set-up statistics' ratios of ``player``'s enemy at this agent's share (empty: no prior)."""
        return setup_ratios(variant, variant.players[1 - variant.player_index(player)], self.prior)

    def choose_move(self, observation: Observation, rng: random.Random, budget: float | None = None):
        legal = observation.legal_moves
        if not legal:
            raise NoLegalMoveError(f"{observation.player} has no legal move to choose from")
        ranked, tree, scorer = self._search(observation, rng, budget)
        if not ranked:
            return legal[0]
        best = ranked[0].move
        self._tree = (observation.moves, tree, str(best)) if self.reuse and tree is not None else None
        return best

    def analyse(self, observation: Observation, budget: float | None = None, top: int = 5) -> Analysis:
        """The best ``top`` moves with their estimated scores (mean material change over the search) and
        the beliefs used; deterministic for an Observation when the search is limited by iterations.
        Does not disturb the tree kept for the agent's own next move."""
        rng = derive(observation.ply, "analyse", observation.player, len(observation.moves))
        saved, self._tree = self._tree, None
        try:
            ranked, _tree, scorer = self._search(observation, rng, budget)
        finally:
            self._tree = saved
        beliefs = scorer.marginals if scorer is not None else {}
        return Analysis(tuple(ranked[:top]), beliefs, self.last_iterations)

    # -- the search ----------------------------------------------------------------------------------
    def _reused_trees(self, observation: Observation, names: TreeMoves) -> list:
        """The subtrees for what happened since the last search (our move, then the reply), one per tree
        kept (None where a tree lacks them)."""
        if self._tree is None:
            return []
        moves, forest, ours = self._tree
        now = observation.moves
        if len(now) != len(moves) + 2 or now[: len(moves)] != moves or now[len(moves)] != ours:
            return []
        try:
            ours_key, reply_key = (names.key(Move.parse(text)) for text in now[-2:])
        except (GibsonError, ValueError):  # a move the tree cannot name: start afresh
            return []
        return [tree.after(ours_key, reply_key) for tree in forest]

    def _search(self, observation: Observation, rng: random.Random, budget: float | None):
        legal = observation.legal_moves
        variant = variant_of(observation)
        # the enemy's set-up statistics are counted once per process and variant (choose_setup does it before
        # a game): the budget starts after them, or an analysis of a loaded position searched nothing
        ratios = self._enemy_setups(variant, observation.player)
        start = time.perf_counter()
        seconds = budget if budget is not None else self.seconds
        deadline = None if seconds is None else start + SLACK * seconds  # the rest: ranking, a late iteration
        scorer = MoveScorer(observation, variant, rng, infer_beliefs(observation, variant, ratios) if ratios else None)
        # Every move is scored, even when that alone outruns the budget on a loaded machine: leaving moves
        # out (as once tried) made the search play worse than the heuristic it starts from
        restless = quiet_plies(observation) >= QUIET
        urged = urgency(scorer, legal) if restless else [0.0] * len(legal)
        scored = sorted(((scorer.score(m) + URGENCY * u, i) for i, (m, u) in enumerate(zip(legal, urged, strict=True))),
                        reverse=True)
        self.last_iterations = 0
        if not legal:
            return [], None, scorer
        if len(scored) == 1 or scored[0][0] >= 1e6:
            return [ScoredMove(legal[i], s, 0) for s, i in scored], None, scorer
        kernel = kernel_or_none(variant) if self.compiled else None
        names = TreeMoves(kernel)
        candidates = [legal[i] for _s, i in scored[: self.width]]
        kept = self._reused_trees(observation, names) if self.reuse else []
        playout = Playout(variant, rng, restless=restless)
        # with the fast path the kernel draws from rng's state in place (a Twister); Python code that draws
        # from rng gets the state back first and lends it again after
        twister = Twister(rng) if kernel is not None else None
        drift = self._drift(scorer, playout, twister)
        root = Root([names.key(m) for m in candidates], [s + drift for s, _i in scored[: self.width]])
        forest, inherited = [], []
        for k in range(self.trees):  # each tree its share of what is left of the time, iterations and worlds
            tree = (kept[k] if k < len(kept) else None) or (PythonTree() if kernel is None else KernelTree(kernel))
            inherited.append([tree.child_stats(key) for key in root.keys])
            share = self.trees - k
            until = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / share
            iterations = (self.iterations - self.last_iterations) // share
            self.last_iterations += self._grow(tree, scorer, rng, root, until, iterations, self.pool // self.trees,
                                               playout, twister)
            forest.append(tree)
        if twister is not None:
            twister.give()
        ranked = []
        for i, (move, key) in enumerate(zip(candidates, root.keys, strict=True)):
            # this search's iterations vote: each tree's statistics less what it held before them
            visits = total = 0
            for tree, before in zip(forest, inherited, strict=True):
                v, t = tree.child_stats(key)
                visits += v - before[i][0]
                total += t - before[i][1]
            if visits:
                ranked.append(ScoredMove(move, total / visits, visits))
        # the robust child: the move the search kept coming back to (UCB visits the best-looking moves most,
        # and the heuristic's score counts as PRIOR_VISITS visits, so an unsearched position keeps its choice)
        ranked.sort(key=lambda s: (s.visits, s.score), reverse=True)
        first = next((i for i, s in enumerate(ranked) if s.move is candidates[0]), None)
        if first and ranked[0].score - ranked[first].score < self.margin:
            ranked.insert(0, ranked.pop(first))
        seen = {str(s.move) for s in ranked}
        ranked += [ScoredMove(legal[i], s, 0) for s, i in scored if str(legal[i]) not in seen]
        return ranked, forest, scorer

    def _drift(self, scorer: MoveScorer, playout: Playout, twister: Twister | None) -> float:
        """The mean value of ``DRIFT`` playouts from the root in the scorer's likeliest world (clamped as the
        iterations' values are): what every move's iterations share, however good the move. A root move's
        heuristic score is a gain over standing still, and counted as ``PRIOR_VISITS`` visits of that
        value it held the moves not yet searched far below the searched ones wherever the playouts drift:
        in a Dover Patrol end game 14 pieces to 1 ahead, where the enemy's random playout moves blundered
        into a loss, the first move searched got 5,550 of 5,587 iterations at +25 while the rest, one
        iteration each, stayed at +13 under their priors of 0 and were never looked at again, and the
        side shuffled for 1,500 plies."""
        me, total = scorer.me, 0.0
        base = evaluate(scorer.state, me, restless=playout.restless)
        state = scorer.state if twister is None else FastGame(scorer.state)
        for _ in range(DRIFT):
            if twister is None:
                bottom = len(state.history)
                end = playout.finish(state, self.depth, me)
                while len(state.history) > bottom:
                    state.pop()
            else:
                mark = state.mark()
                end = state.finish(self.depth, twister, playout.greed, me, playout.restless)
                state.rewind(mark)
            total += clamped(end - base)
        return total / DRIFT

    def _grow(self, tree, scorer: MoveScorer, rng: random.Random, root: Root, deadline: float | None,
              iterations: int, pool: int, playout: Playout, twister: Twister | None) -> int:
        """Up to ``iterations`` iterations of one tree over up to ``pool`` worlds sampled for it, until the
        ``deadline``; returns how many ran. ``twister`` (with the fast path) holds rng's state, lent back to
        Python only to sample a world."""
        world, beliefs, me = scorer.world, scorer.beliefs, scorer.me
        done = 0
        worlds: list = []  # (determinization, its evaluation at the start), at most pool of them
        while done < iterations:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                break
            count = 1  # while the pool fills, one iteration in each new world
            if len(worlds) < pool:
                # each world is scored against its own start (noise cancels); with the fast path it is a
                # kernel Game made from the first world's arrays, only the hidden pieces' types changed
                if twister is None:
                    state = world.build(beliefs.sample(rng))
                    worlds.append((state, evaluate(state, me, restless=playout.restless)))
                else:
                    twister.give()
                    state = FastGame(world.state, world.types(beliefs.sample(rng)))
                    twister.take()
                    worlds.append((state, state.evaluate(me, playout.restless)))
            else:
                count = iterations - done
            ran = tree.run(worlds, done, count, left, root, me, self.depth, self.reach, playout, twister)
            if not ran:
                break
            done += ran
        return done

class Root:
    """The root of one search: the candidates' tree keys, their heuristic scores, and those scaled to 0..1
    (the fading prior of :class:`PythonTree`'s root selection)."""

    def __init__(self, keys: list, scores: list):
        self.keys = keys
        self.scores = scores
        self.priors = _normalise(scores)


class PythonTree:
    """The search's tree in Python (:class:`Node` objects keyed by Move), for variants the compiled kernel
    does not play; :class:`KernelTree` is the same tree and the same iterations in the kernel."""

    def __init__(self, root: Node | None = None):
        self.root = root if root is not None else Node()

    @property
    def visits(self) -> int:
        """Iterations that went through the root (through the move that led to it, for a kept subtree)."""
        return self.root.visits

    def child_stats(self, key) -> tuple:
        """``(visits, total)`` of the root's child for ``key`` (zeros when it is not in the tree)."""
        node = self.root.children.get(key)
        return (node.visits, node.total) if node is not None else (0, 0.0)

    def after(self, ours, reply) -> PythonTree | None:
        """The tree below our move and the reply, if both are in it."""
        node = self.root.children.get(ours)
        node = node.children.get(reply) if node is not None else None
        return PythonTree(node) if node is not None else None

    def run(self, worlds: list, done: int, count: int, left: float | None, root: Root, me: int, depth: int,
            reach: int, playout: Playout, _twister=None) -> int:
        """Up to ``count`` iterations (iteration ``i`` in ``worlds[i % len(worlds)]``, a ``(GameState, its
        evaluation)`` pair, numbered from ``done``), stopping once ``left`` seconds have passed; returns how
        many ran. See the module docstring."""
        deadline = None if left is None else time.perf_counter() + left
        for n in range(count):
            if deadline is not None and time.perf_counter() >= deadline:
                return n
            state, base = worlds[(done + n) % len(worlds)]
            bottom = len(state.history)
            key, child = self._select_root(root, done + n)
            path = [(child, me)]
            state.push(key)
            self._descend(state, child, path, playout.choose, reach)
            end = playout.finish(state, depth, me)
            value = clamped(end - base)
            for node, mover in path:
                node.visits += 1
                node.total += value if mover == me else -value
            while len(state.history) > bottom:
                state.pop()
        return count

    def _select_root(self, root: Root, done: int) -> tuple:
        """UCB1 with a fading prior over the root's candidates: ``(key, child)``. The first candidate not yet
        in the tree comes first, added with its heuristic score counted as ``PRIOR_VISITS`` visits."""
        children = self.root.children
        best, best_value = None, -math.inf
        log_n = math.log(done + 1)
        for key, score, prior in zip(root.keys, root.scores, root.priors, strict=True):
            node = children.get(key)
            if node is None:
                node = children[key] = Node()
                node.visits, node.total = PRIOR_VISITS, PRIOR_VISITS * clamped(score)
                return key, node
            value = node.mean() + EXPLORE * math.sqrt(log_n / node.visits) + PRIOR * prior / (node.visits + 1)
            if value > best_value:
                best, best_value = (key, node), value
        return best

    @staticmethod
    def _descend(state, node: Node, path: list, choose, reach: int) -> None:
        """Walk down the tree in this determinization, adding at most one new node, until the path holds
        ``reach`` moves; ``choose(state, moves)`` is the playout policy's choice among the legal moves."""
        sqrt, log = math.sqrt, math.log
        while state.result is None and len(path) < reach:
            moves = state.legal_moves()
            if not moves:
                return
            mover = state.to_move
            children = node.children
            available = [(m, children[m]) for m in moves if m in children]
            for _m, child in available:
                child.avail += 1
            if len(available) < WIDEN * sqrt(node.visits) + 1:
                move = choose(state, moves)
                if move not in children:
                    child = children[move] = Node()
                    child.avail = 1
                    state.push(move)
                    path.append((child, mover))
                    return
            if not available:
                return
            best, best_value = None, -math.inf
            for m, child in available:  # UCB1 over availability (the first of equals, as max() would)
                n = child.visits  # every node in the tree has been backed up at least once
                value = child.total / n + EXPLORE * sqrt(log(max(child.avail, 1)) / (n + 1))
                if value > best_value:
                    best, best_value, node = m, value, child
            state.push(best)
            path.append((node, mover))


class KernelTree:
    """The search's tree in the compiled kernel (``_kernel.Tree``, keyed by packed move codes), whose
    iterations run there with exactly :class:`PythonTree`'s choices, values and draws from the generator."""

    def __init__(self, kernel, tree=None):
        self.kernel = kernel
        self.tree = tree if tree is not None else kernel.module.Tree()
        self._buffers: tuple | None = None  # (root, its buffers) of the search in progress

    @property
    def visits(self) -> int:
        """Iterations that went through the root (through the move that led to it, for a kept subtree)."""
        return self.tree.stats(0)[0]

    def child_stats(self, key) -> tuple:
        """``(visits, total)`` of the root's child for ``key`` (zeros when it is not in the tree)."""
        node = self.tree.find(0, key)
        return self.tree.stats(node) if node >= 0 else (0, 0.0)

    def after(self, ours, reply) -> KernelTree | None:
        """The tree below our move and the reply, if both are in it (a copy of that subtree)."""
        node = self.tree.find(0, ours)
        node = self.tree.find(node, reply) if node >= 0 else -1
        return KernelTree(self.kernel, self.tree.subtree(node)) if node >= 0 else None

    def run(self, worlds: list, done: int, count: int, left: float | None, root: Root, me: int, depth: int,
            reach: int, playout: Playout, twister: Twister) -> int:
        """:meth:`PythonTree.run` in the kernel (``worlds`` hold FastGames; ``twister`` lends the generator)."""
        if self._buffers is None or self._buffers[0] is not root:
            constants = [EXPLORE, PRIOR, PRIOR_VISITS, CLAMP, WIDEN, playout.greed, depth, me, reach]
            self._buffers = (root, array("q", root.keys), array("d", root.scores), array("d", root.priors),
                             array("d", constants))
        _root, keys, scores, priors, constants = self._buffers
        return self.tree.run([state.game for state, _base in worlds], [base for _state, base in worlds], done,
                             count, -1.0 if left is None else left, twister.buf, self.kernel.policy(playout.restless), keys,
                             scores, priors, constants)


class TreeMoves:
    """How the tree names moves: by the kernel's packed codes when it plays the variant, else by the Move
    objects of the Python engine."""

    def __init__(self, kernel):
        self.kernel = kernel

    def key(self, move):
        """The tree key of a Move."""
        return move if self.kernel is None else self.kernel.code(move)


def _normalise(scores: list) -> list:
    """Scores scaled to 0..1 (best = 1)."""
    lo, hi = min(scores), max(scores)
    return [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]
