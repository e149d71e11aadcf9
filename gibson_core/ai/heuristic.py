"""The heuristic agent: plays from the rules, one move deep, weighing what hidden pieces probably are.

Each legal move is scored from the mover's Observation and Beliefs:

- a move that wins by arriving is taken at once;
- an attack counts the expected material change over the defender's possible types, each fight resolved
  by the variant's own combat rules on the actual squares (so elements, rivers and coastlines count);
- a move is worth the positional change of its piece (:func:`values.square_tables`: stay in element, keep
  off transit squares, advance pieces that can win towards their goal);
- a piece is moved out of danger and not into it: the expected loss from adjacent mobile enemy pieces that
  probably beat it; attacks on enemy pieces closing on our own goal squares count double;
- hidden effects are feared (:class:`danger.DangerMap`): a square where an enemy zone or blast may
  destroy the piece, or where enemy guns may fire at it once it is revealed, costs its expected loss; a
  square where it would destroy the source (a Bomber next to a gun) gains it. A piece counts with its
  worth to the plan: the last pieces that can win by arriving are worth far more than their material;
- in a game with Flags, the change of the Flag terms of :func:`values.flag_terms` (fetching the enemy
  Flag, bringing it home, keeping the enemy from ours) is added, judged in the guessed world;
- goals are pursued and defended in the real position: near a goal (or the enemy Flag) a piece's way is
  read through the pieces in it (:meth:`MoveScorer.open_way`; a piece that cannot clear it makes room for
  those that can, which are drawn to the obstacle), and a move that leaves an enemy piece a win by
  arriving next turn costs that loss's probability (:meth:`MoveScorer.threat_left`).

Set-ups follow the rulebook's hints expressed generically: each piece on a square of its native element,
pieces that win by arriving forward (but the few precious ones back, screened, where enemy effects and
actions can strike at a distance, and so are the only removers of the enemy's Mines), pieces that beat
what attacks our goals beside them, vital pieces back, a goal we never need to reach held by an immobile
piece, blasters covering the enemy's way to our goals but not our own way home, mixed by a little
randomness (:func:`planned_setup`); no immobile piece of ours shuts one of our pieces that win by arriving
off from its goal (an Aviation Troop Carrier in the corner behind its own Balloon never moves again).
"""

from __future__ import annotations

import random

from ..combat import ATTACKER, DEFENDER
from ..errors import NoLegalMoveError
from ..movegen import MoveTables
from ..moves import MOVE
from ..observe import Observation
from ..pieces import DIAGONAL, IMMOBILE, STEP
from ..seeding import derive
from .analysis import Analysis, ScoredMove
from .base import Agent
from .beliefs import Beliefs, infer_beliefs
from .danger import SHOT, DangerMap, strike_squares
from .values import (
    OUT_OF_ELEMENT_STEP,
    CombatProbe,
    breaker_types,
    distance_to,
    evaluate,
    flag_terms,
    goal_distances,
    goal_pull,
    goal_targets,
    menacing,
    neighbours_of,
    open_distances,
    piece_values,
    safe_distances,
    scarce_types,
    square_tables,
    sweeper_types,
    usual_outcome,
    usual_table,
    win_types,
    winner_bonus,
)
from .world import World, variant_of

DANGER = 0.6  # share of the expected loss to an adjacent enemy counted against a move
PATH = 0.6  # pull of a piece that wins by arriving along its safest way (per step of danger-weighted cost)
PATH_RISK = 8.0  # steps a certain loss on a square is worth on that way
REACH2 = 0.5  # weight of an enemy that must first move beside our piece to attack it
CAUTION = 2.0  # the last winning pieces risk hidden dangers twice as reluctantly (a later chance is better)
HUNT = 0.5  # pull of a piece towards the enemy piece it most profitably attacks (gain / (1 + distance))
REVEAL = 0.3  # worth of learning one hidden enemy piece's type
MENACE = 0.3  # share of our last winning pieces' worth added to enemy types that can strike them at a distance
VACATE = 0.5  # share of what a revealed winning piece gains by escaping fire through a square we vacate
ACTION_COST = 0.2  # an action gives up the move it replaces
WAY_RADIUS = 8  # this near its goal, a winning piece's way is read from the real position (pieces in the way)
BLOCK = 12.0  # steps an enemy piece the mover cannot remove costs on that way (a mobile one, which may leave: half)
CLEAR = 2.0  # steps an enemy piece costs on that way when another of our types can remove it
ROOM = 1.0  # per step, push of a piece whose own way is blocked out of the goal's surroundings (room for others)
KEY = 20.0  # extra worth of removing an immobile enemy piece that shuts the way to a square we must reach
KEY_NEAR = 3  # ...when it stands this many steps (walls ignored) from that square
LOSE = 50.0  # what a move that leaves the enemy a win by arriving next turn costs (times its probability)
SHIELD = 3.0  # set-up: worth of each vital immobile piece beside a square, for a piece few enemies remove
SHUT = 100.0  # set-up: what a square costs where our immobile pieces would shut a winner off from its goal
ARRIVAL_SAMPLES = 8  # sampled worlds used to judge the automatic effects of moving a key piece


class MoveScorer:
    """Scores moves of one position for the side to move, seen through its Observation and Beliefs."""

    def __init__(self, observation: Observation, variant, rng: random.Random, beliefs: Beliefs | None = None):
        self.observation = observation
        self.variant = variant
        self.beliefs = beliefs or infer_beliefs(observation, variant)
        self.marginals = self.beliefs.marginals()
        guess = {h: max(d, key=d.get) for h, d in self.marginals.items()}
        self.world = World(observation, variant, guess)
        self.state = self.world.state
        self.me = self.world.me
        self.probe = CombatProbe(variant)
        self.values = piece_values(variant)
        self.squares = square_tables(variant)[self.me]
        self.type_index = variant.type_index
        enemy_goals = goal_distances(variant, 1 - self.me)
        self.threat_zone = {sq for dists in enemy_goals if dists for sq, d in enumerate(dists) if d <= 2}
        self.rng = rng
        self._before: float | None = None
        hooks = MoveTables.for_variant(variant).hooks_present
        self.effects = hooks.get("gibson_on_arrival") or hooks.get("gibson_after_move")
        self.key_types = win_types(variant) | variant.draw_when_none_left | variant.lose_when_removed
        self._worlds: list | None = None
        self.worth = self._worth(self.me)
        self.enemy_worth = self._menaced(self._worth(1 - self.me))
        self.hazard = DangerMap(variant, self.state, self.me, self.enemy_types, self.enemy_worth)
        self.flags = "flags" in variant.rules
        self._prey: dict = {}
        self._prey_targets: dict = {}
        self.winners = win_types(variant)
        self.scarce = scarce_types(variant)
        # what risking a piece costs: the last winning pieces count CAUTION times their worth, and so do the
        # pieces whose loss loses the game (traded for the enemy's own, both lost at once is only a draw)
        careful = self.scarce | variant.lose_when_removed
        self.careful = tuple(w * (CAUTION if t in careful else 1.0) for t, w in enumerate(self.worth))
        self._ways: dict = {}
        self._flags_before: float | None = None
        self.strikes = strike_squares(variant, 1 - self.me)  # the enemy's attacks
        self._escape: dict | None = None
        self.goal_threats = self._goal_threats()
        self.goal_dist = goal_distances(variant, self.me)
        self._open: dict = {}
        self._team: list | None = None
        self._near_keys: set | None = None
        self.usual = usual_table(variant)
        self._fetch: int | None = None  # the square of the enemy Flag lying on the board (-1: carried)
        self._lead: int | None = None  # see fetch_lead
        self._blast: dict = {}  # (type, alone) -> blast_cost
        self.far = variant.grid.files + variant.grid.ranks

    def _goal_threats(self) -> list:
        """``[(goal square, enemy piece, {type index: probability})]``: enemy pieces that may win by arriving
        on an empty goal square with their next move (the types they may be that can), computed from the
        variant's ``win`` squares; a goal our own piece stands on counts too (it may move away)."""
        state, variant = self.state, self.variant
        wins = variant.win_arrive[1 - self.me]
        if not wins:
            return []
        board, owner = state.board, state.owner
        out = []
        for g, entries in wins.items():
            if board[g] and owner[board[g]] != self.me:
                continue
            able = frozenset(t for types, path, _r in entries if path is None for t in types)
            seen: dict = {}
            for te in sorted(able):
                if not variant.types[te].mobile:
                    continue
                for s in neighbours_of(variant, te)[g]:
                    e = board[s]
                    if e and owner[e] != self.me:
                        seen.setdefault(e, set()).add(te)
            for e in sorted(seen):
                p = {t: q for t, q in self.enemy_types(e) if t in seen[e]}
                if p:
                    out.append((g, e, p))
        return out

    def threat_left(self, move, pid: int, o: int, d: int) -> float:
        """The probability that after ``move`` (our ``pid`` from ``o`` to ``d``) some enemy piece can still
        win by arriving on one of our goal squares next turn (each threat counted on its own)."""
        state = self.state
        target = state.board[self.variant.grid.index[move.target]] if move.target is not None else 0
        left = 0.0
        for g, e, types in self.goal_threats:
            if d == g or (state.board[g] and g != o):
                continue  # the goal is held (or still held)
            if e == target:
                mine = state.ptype[pid]
                left += sum(q for te, q in types.items()
                            if DEFENDER not in self.probe.outcome(state, pid, e, mine, te, d).removed)
            else:
                left += sum(types.values())
        return left

    def open_way(self, t: int, alone: bool = False, target: int | None = None) -> list:
        """Per square, the steps our type ``t`` needs to its goal in the real position: an enemy piece in the
        way costs a step more (the attack), plus, by the chance that ``t`` cannot remove it (by the combat
        table), ``CLEAR`` steps when another of our mobile types can (it clears the way), else ``BLOCK``
        (half for a mobile one, which may leave); with ``alone``, ``BLOCK`` whoever else could. Our own
        immobile pieces in the way cost ``BLOCK`` (our mobile ones make room: see :meth:`way_gain`); a square
        where an effect may destroy ``t`` costs its :meth:`blast_cost`. With ``target``, the way to that
        square instead (the enemy Flag)."""
        key = (t, alone, target)
        hit = self._open.get(key)
        if hit is not None:
            return hit
        state, variant = self.state, self.variant
        team, usual = self.team(), self.usual[t]
        extra = [0.0] * variant.grid.size
        for e in state.alive(1 - self.me):
            cost = 1.0
            for te, p in self.enemy_types(e):
                if DEFENDER not in usual[te].removed:
                    if team[te] and not alone:
                        cost += p * CLEAR
                    else:
                        cost += p * (BLOCK if not variant.types[te].mobile else BLOCK / 2)
            extra[state.square[e]] = cost
        for q in state.alive(self.me):
            if not variant.types[state.ptype[q]].mobile:
                extra[state.square[q]] = BLOCK
        if self.hazard.active:
            extra = [a + b for a, b in zip(extra, self.blast_cost(t, alone), strict=True)]
        hit = self._open[key] = open_distances(variant, self.me, t, extra, target)
        return hit

    def team(self) -> list:
        """Per enemy type, whether one of our mobile pieces that can attack removes it (by the combat
        table's usual outcome)."""
        if self._team is None:
            state, variant = self.state, self.variant
            removers = {state.ptype[q] for q in state.alive(self.me)
                        if variant.types[state.ptype[q]].mobile and variant.types[state.ptype[q]].can_attack}
            self._team = [any(DEFENDER in self.usual[r][te].removed for r in removers)
                          for te in range(len(variant.types))]
        return self._team

    def entered_way(self, t: int, way: list, d: int) -> float:
        """``way[d]`` for our type ``t`` stepping onto ``d``, with the :meth:`blast_cost` of ``d`` added back:
        the risk taken is not progress (the hazard term charges it); counted as progress, it sent piece
        after piece beside a Mine already seen."""
        return way[d] + (self.blast_cost(t)[d] if self.hazard.active else 0.0)

    def blast_cost(self, t: int, alone: bool = False) -> list:
        """Per square, the steps :meth:`open_way` adds for entering it where hidden effects may destroy our
        type ``t``: someone must clear the source first. The chance of it times ``CLEAR`` where another of
        our pieces can remove the source (a Mine Sweeper a Mine), else (and ``alone``) ``BLOCK``: were it
        ``CLEAR`` with nobody left to clear, every piece would make room near the enemy Flag and none would
        go for it."""
        key = (t, alone)
        hit = self._blast.get(key)
        if hit is None:
            clearable = frozenset(() if alone else (g for g, can in enumerate(self.team()) if can))
            hit = self._blast[key] = [c * CLEAR + (x - c) * BLOCK for x, c in
                                      zip(self.hazard.destroy(t), self.hazard.destroy(t, clearable), strict=True)]
        return hit

    def way_gain(self, t: int, o: int, d: int) -> float:
        """The goal terms of a winning piece's step (its square table's pull, and the safest way's where
        hidden effects are feared) read on its :meth:`open_way` rather than on the empty board (within
        ``WAY_RADIUS`` of the goal), and ``ROOM`` a step for leaving those surroundings when
        it cannot itself remove what stands in its way but another of our pieces can (it makes room for
        the pieces that clear the way: a Mine Sweeper for a Mine); the square entered is read by
        :meth:`entered_way`."""
        stat = self.goal_dist[t]
        if stat is None or min(stat[o], stat[d]) > WAY_RADIUS or not self.variant.types[t].mobile:
            return 0.0
        way, far = self.open_way(t), self.far
        to = self.entered_way(t, way, d)
        gain = goal_pull(to, far) - goal_pull(way[o], far) - (goal_pull(stat[d], far) - goal_pull(stat[o], far))
        if self.hazard.active:  # the safest way's pull (PATH) is corrected alike for the pieces in the way
            gain += PATH * ((way[o] - to) - (stat[o] - stat[d]))
        if self.open_way(t, alone=True)[o] - way[o] >= BLOCK / 2 - CLEAR:  # e.g. a known mobile blocker
            gain += ROOM * (min(stat[d], WAY_RADIUS + 1) - min(stat[o], WAY_RADIUS + 1))
        return gain

    def fetch_gain(self, t: int, o: int, d: int) -> float:
        """Within ``WAY_RADIUS`` of the enemy Flag lying somewhere, the pull of a piece that may pick it up
        along its :meth:`open_way` to it (and ``ROOM`` for leaving when it cannot clear that way itself).
        Further off nothing more than :func:`values.flag_terms` pulls: drawing the whole army on left our
        own Flag to a random player's piece (tried: 35-4-1 instead of 38-2-0 in 40 games). The square
        entered is read by :meth:`entered_way`. The :meth:`fetch_lead` never makes room, so that someone
        always goes (pulled from any distance too, it was sent into the enemy's Mines one after another:
        two games lost to a random player in 200)."""
        f = self._flag_lying()
        if f < 0 or not self._may_fetch(t):
            return 0.0
        stat = distance_to(self.variant, t, f)
        if min(stat[o], stat[d]) > WAY_RADIUS:
            return 0.0
        way, far = self.open_way(t, target=f), self.far
        gain = goal_pull(self.entered_way(t, way, d), far) - goal_pull(way[o], far)
        if (self.state.board[o] != self.fetch_lead()
                and self.open_way(t, alone=True, target=f)[o] - way[o] >= BLOCK / 2 - CLEAR):
            gain += ROOM * (min(stat[d], WAY_RADIUS + 1) - min(stat[o], WAY_RADIUS + 1))
        return gain

    def _flag_lying(self) -> int:
        """The square of the enemy Flag lying on the board, -1 when it is carried."""
        if self._fetch is None:
            self._fetch = -1
            flags = self.variant.rules["flags"]
            where, carrier, mined = self.state.tokens[flags.keys[1 - self.me]]
            if not carrier:
                self._fetch = self.variant.grid.index[where]
                self._fetchers = flags.mined_pickup if mined else None
                self._no_carry = flags.cannot_carry
        return self._fetch

    def _may_fetch(self, t: int) -> bool:
        """Whether our type ``t`` may pick up the enemy Flag where it lies (after :meth:`_flag_lying` found it)."""
        return t not in self._no_carry and (self._fetchers is None or t in self._fetchers)

    def fetch_lead(self) -> int:
        """Our piece (number) within ``WAY_RADIUS`` of the enemy Flag lying on the board with the shortest way
        to it that it could go alone (:meth:`open_way` with ``alone``; the less precious first on a tie), 0
        if none. Were everyone to make room for another (the Mine Sweeper for ships too far off to come,
        ships for a sweeper that cannot fight the guard), nobody would go."""
        if self._lead is None:
            self._lead, f, state = 0, self._flag_lying() if self.flags else -1, self.state
            if f >= 0:
                best, nowhere = None, self.far * OUT_OF_ELEMENT_STEP  # the distance of a square with no way
                for q in state.alive(self.me):
                    t = state.ptype[q]
                    if (self.variant.types[t].mobile and self._may_fetch(t)
                            and distance_to(self.variant, t, f)[state.square[q]] <= WAY_RADIUS):
                        key = (self.open_way(t, alone=True, target=f)[state.square[q]], self.values[t], q)
                        if key[0] < nowhere and (best is None or key < best):
                            best = key
                if best is not None:
                    self._lead = best[2]
        return self._lead

    def _worth(self, player: int) -> tuple:
        """Worth of each type to ``player``'s plan: its material, and for the last pieces that can win by
        arriving what losing one costs in :func:`values.winner_bonus` (counted in the guessed world)."""
        scarce = scarce_types(self.variant)
        n = sum(1 for pid in self.state.alive(player) if self.state.ptype[pid] in scarce)
        extra = winner_bonus(n) - winner_bonus(n - 1) if n else 0.0
        return tuple(v + (extra if t in scarce else 0.0) for t, v in enumerate(self.values))

    def _menaced(self, worth: tuple) -> tuple:
        """The enemy's worth by type, each type that can strike our last winning pieces at a distance
        (:func:`values.menacing`: guns for Troop Carriers) raised by ``MENACE`` times the most precious of
        them: removing it clears their way, so it is hunted (by Bombers ending beside it, by attacks)."""
        scarce = scarce_types(self.variant)
        extra = [0.0] * len(worth)
        for t in scarce:
            for g in menacing(self.variant, t):
                extra[g] = max(extra[g], MENACE * CAUTION * self.worth[t])
        return tuple(w + x for w, x in zip(worth, extra, strict=True))

    def enemy_types(self, pid: int) -> list:
        """``[(type index, probability)]`` of an enemy piece number."""
        handle = self.world.handle[pid]
        dist = self.marginals.get(handle)
        if dist is None:
            return [(self.state.ptype[pid], 1.0)]
        return [(self.type_index[t], p) for t, p in dist.items() if p > 1e-3]

    def danger(self, pid: int, sq: int, ignore: int = 0) -> float:
        """Expected material loss of our piece ``pid`` standing on ``sq`` from mobile enemies that can attack
        it: adjacent ones, and at ``REACH2`` weight those a step further that can move beside it first
        (pieces attack after moving)."""
        state = self.state
        board, owner, orth = state.board, state.owner, state.grid.orth
        worst = 0.0
        for n in orth[sq]:
            e = board[n]
            if e and e not in (ignore, pid) and owner[e] != self.me:
                worst = max(worst, self._threat(e, pid, n, sq))
            elif not e or e == pid:
                for m in orth[n]:
                    e = board[m]
                    if m != sq and e and e not in (ignore, pid) and owner[e] != self.me:
                        worst = max(worst, REACH2 * self._threat(e, pid, n, sq))
        return worst

    def exposure(self, pid: int, sq: int) -> float:
        """Chance that our hidden piece ``pid`` standing on ``sq`` can be attacked next turn, and so
        revealed, by some enemy piece (:func:`danger.strike_squares`: its movement, attack pattern and
        mode; each possible type with its probability): even a fight it wins shows it to the enemy's guns."""
        spared = 1.0
        for _e, _m, types in self._strikers(pid, sq):
            spared *= 1.0 - sum(p for _te, p in types)
        return 1.0 - spared

    def _strikers(self, pid: int, sq: int, ignore: int = 0):
        """``(enemy piece, its square, [(type, probability)])`` for each enemy piece but ``ignore`` that
        could attack our ``pid`` standing on ``sq`` next turn, with the types it may be that reach ``sq``
        from there (:func:`danger.strike_squares`)."""
        board, owner = self.state.board, self.state.owner
        for m in self.strikes[-1][sq]:
            e = board[m]
            if e and e not in (ignore, pid) and owner[e] != self.me:
                yield e, m, [(te, p) for te, p in self.enemy_types(e) if m in self.strikes[te][sq]]

    def _escapes(self) -> dict:
        """``{square: gain}``: squares held by our own pieces onto which one of our last winning pieces
        could step out of danger once the square is vacated (out of the range of enemy guns when it is
        revealed, out of reach of the enemies that can attack it next turn); the gain is the drop of its
        expected loss, at its worth to the plan, less what the square itself risks."""
        if self._escape is None:
            self._escape = {}
            state, grid = self.state, self.variant.grid
            for pid in state.alive(self.me):
                t = state.ptype[pid]
                kind = self.variant.types[t].movement.kind
                if t not in self.scarce or kind not in (STEP, DIAGONAL):
                    continue
                sq, seen, worth = state.square[pid], state.revealed[pid], self.careful[t]
                here = self.strike_danger(pid, sq)
                if not (here or (seen and self.hazard.of(t)[3][sq])):
                    continue
                for n in (grid.diag if kind == DIAGONAL else grid.orth)[sq]:
                    q = state.board[n]
                    if q and state.owner[q] == self.me:
                        gain = (DANGER * (here - self.strike_danger(pid, n))
                                + self.hazard.arrival(t, n, worth, seen) - self.hazard.standing(t, sq, worth, seen))
                        if gain > self._escape.get(n, 0.0):
                            self._escape[n] = gain
        return self._escape

    def strike_danger(self, pid: int, sq: int, ignore: int = 0) -> float:
        """Like :meth:`danger`, for the last pieces that can win: the worst expected loss of our ``pid``
        standing on ``sq`` to one enemy piece that can attack it next turn by the exact geometry of its
        type (:func:`danger.strike_squares`), each possible type with its probability."""
        mine = self.state.ptype[pid]
        worst = 0.0
        for e, m, types in self._strikers(pid, sq, ignore):
            worst = max(worst, sum(p * max(0.0, -self._defence(e, pid, te, mine, m, sq)) for te, p in types))
        return worst

    def _threat(self, e: int, pid: int, e_sq: int, sq: int) -> float:
        """Expected loss of our ``pid`` on ``sq`` attacked by enemy ``e`` from ``e_sq``."""
        mine = self.state.ptype[pid]
        loss = 0.0
        for t, p in self.enemy_types(e):
            if self.variant.types[t].movement.kind == IMMOBILE or not self.variant.types[t].can_attack:
                continue
            loss += p * max(0.0, -self._defence(e, pid, t, mine, e_sq, sq))
        return loss

    def _defence(self, e: int, pid: int, te: int, mine: int, e_sq: int, my_sq: int) -> float:
        """Our material change when enemy ``e`` (type ``te``) attacks our piece standing on ``my_sq``."""
        state = self.state
        old, held = state.square[pid], state.board[my_sq]  # ``held``: the enemy an onto attack would take
        if old != my_sq:
            state.board[old], state.board[my_sq], state.square[pid] = 0, pid, my_sq
        try:
            return -self.probe.gain(state, e, pid, te, mine, e_sq, self.enemy_worth, self.careful)
        finally:
            if old != my_sq:
                state.board[my_sq], state.board[old], state.square[pid] = held, pid, old

    def attack_gain(self, pid: int, dest: int, target: int) -> float:
        """Expected material change of our piece ``pid`` moving to ``dest`` and attacking ``target``."""
        mine = self.state.ptype[pid]
        total = 0.0
        for t, p in self.enemy_types(target):
            total += p * self.probe.gain(self.state, pid, target, mine, t, dest, self.careful, self.enemy_worth)
        if self.hazard.active and not self.state.revealed[pid]:
            total += self.hazard.standing(mine, dest, self.worth[mine], True)  # a fight reveals the attacker
        return total

    def action_gain(self, move) -> float:
        """What an action (fire, illuminate, hand-over...) is worth: the change of :func:`evaluate` in the
        guessed world, plus ``REVEAL`` for each enemy piece it reveals. Actions aim at what the mover can
        see, so the guesses about hidden pieces hardly matter here."""
        state = self.state
        if self._before is None:
            self._before = evaluate(state, self.me, secrecy=False, hunt=False)
        seen = sum(state.revealed[pid] for pid in state.alive(1 - self.me))
        state.push(move)
        try:
            gain = evaluate(state, self.me, secrecy=False, hunt=False) - self._before
            gain += REVEAL * (sum(state.revealed[pid] for pid in state.alive(1 - self.me)) - seen)
        finally:
            state.pop()
        return gain - ACTION_COST

    def arrival_risk(self, move, pid: int) -> float:
        """Share of ``ARRIVAL_SAMPLES`` sampled worlds in which the move itself (no fight) costs the moved
        piece: automatic effects of the variant (a gun's zone, a blast...) that depend on hidden pieces."""
        if self._worlds is None:
            self._worlds = [self.world.build(self.beliefs.sample(self.rng)) for _ in range(ARRIVAL_SAMPLES)]
        lost = 0
        for state in self._worlds:
            state.push(move)
            lost += state.square[pid] < 0
            state.pop()
        return lost / len(self._worlds)

    def prey(self, t: int, sq: int) -> float:
        """The best expected gain per distance of our type ``t`` on ``sq`` attacking some enemy piece (by
        the combat table's usual outcome on any square; a pull towards fights worth having); the distance
        is Manhattan's, or where the board has walls the type's steps round them (a Mine Sweeper beside a
        Mine across the Harbour Wall once stayed there for good). An immobile
        enemy piece within ``KEY_NEAR`` steps of a square we must reach (our goal, the enemy Flag lying)
        that ``t`` removes counts ``KEY`` more: it shuts the way there until one of its removers comes."""
        key = (t, sq)
        hit = self._prey.get(key)
        if hit is not None:
            return hit
        targets = self._prey_targets.get(t)
        if targets is None:
            state, coords = self.state, self.variant.grid.coords
            targets = []
            backfire = self._backfire_gain(t)
            if self._near_keys is None:
                keys, grid = self._key_squares(), self.variant.grid
                self._near_keys = {e for e in state.alive(1 - self.me)
                                   if any(grid.manhattan(state.square[e], k) <= KEY_NEAR for k in keys)}
            types, near_keys, usual = self.variant.types, self._near_keys, self.usual[t]
            far_row = [_table_gain(self.variant, t, te, self.careful, self.enemy_worth) + backfire[te]
                       for te in range(len(types))]
            near_row = [g + (KEY if not types[te].mobile and DEFENDER in usual[te].removed else 0.0)
                        for te, g in enumerate(far_row)]
            for e in state.alive(1 - self.me):
                row = near_row if e in near_keys else far_row
                g = sum(p * row[te] for te, p in self.enemy_types(e))
                if g > 0:
                    targets.append((state.square[e], *coords(state.square[e]), g))
            self._prey_targets[t] = targets
        if self.variant.grid.walls:  # the steps round the walls: a prey behind one is not near
            variant = self.variant
            best = max((g / (1 + distance_to(variant, t, e)[sq]) for e, _ef, _er, g in targets), default=0.0)
        else:
            f, r = self.variant.grid.coords(sq)
            best = max((g / (1 + abs(f - ef) + abs(r - er)) for _e, ef, er, g in targets), default=0.0)
        self._prey[key] = best
        return best

    def _key_squares(self) -> list:
        """The squares we must reach: where we win by arriving, and the enemy Flag lying on the board."""
        keys = sorted(self.variant.win_arrive[self.me])
        if self.flags:
            flags = self.variant.rules["flags"]
            where, carrier, _mined = self.state.tokens[flags.keys[1 - self.me]]
            if not carrier:
                keys.append(self.variant.grid.index[where])
        return keys

    def _backfire_gain(self, t: int) -> list:
        """By enemy type: what our type ``t`` gains by ending its move beside it (its effect backfires, as a
        Bomber beside a gun destroys it), so such pieces are sought out."""
        tables = self.hazard.tables
        out = [0.0] * len(self.values)
        if tables is not None:
            for _squares, by_type in tables.reaches:
                for g, effects in enumerate(by_type):
                    if any(t in effect.backfire for effect in effects):
                        out[g] = self.enemy_worth[g]
        return out

    def safe_way(self, t: int, revealed: bool) -> tuple:
        """Per square, the danger-weighted cost of the way to our goal for our type ``t`` (each square
        entered costs a step plus ``PATH_RISK`` times its chance of losing the piece, :meth:`DangerMap.loss`),
        and that added cost of each square."""
        key = (t, revealed)
        if key not in self._ways:
            risk = [PATH_RISK * x for x in self.hazard.loss(t, revealed)]
            self._ways[key] = (safe_distances(self.variant, self.me, t, risk), risk)
        return self._ways[key]

    def flag_gain(self, move) -> float:
        """Change of the Flag terms (ours minus theirs) that ``move`` makes in the guessed world."""
        state = self.state
        if self._flags_before is None:
            self._flags_before = flag_terms(state, self.me) - flag_terms(state, 1 - self.me)
        state.push(move)
        try:
            if state.result is not None:
                return 0.0
            return flag_terms(state, self.me) - flag_terms(state, 1 - self.me) - self._flags_before
        finally:
            state.pop()

    def score(self, move) -> float:
        """Higher is better for the side to move."""
        if move.kind != MOVE:
            return self.action_gain(move) + self.rng.random() * 0.05
        state, index = self.state, self.variant.grid.index
        o, d = index[move.origin], index[move.dest]
        pid = state.board[o]
        t = state.ptype[pid]
        if state.wins_on_arrival(pid, o, d):
            return 1e6
        table = self.squares[t]
        value = table[d] - table[o]
        if t in self.winners:
            value += self.way_gain(t, o, d)
        if move.target is not None:
            target = state.board[index[move.target]]
            gain = self.attack_gain(pid, d, target)
            if index[move.target] in self.threat_zone:
                gain *= 2.0 if gain > 0 else 1.0
            value += gain
            ignore = target
        else:
            ignore = 0
        if t in self.scarce:
            value += DANGER * (self.strike_danger(pid, o) - self.strike_danger(pid, d, ignore))
        else:
            value += DANGER * (self.danger(pid, o) - self.danger(pid, d, ignore))
        if self.hazard.active and t in self.winners:
            # progress along the safest way; the risk of the square entered is not progress (the hazard
            # term below charges it), else a step onto the riskiest square of a way would pay the most
            way, risk = self.safe_way(t, bool(state.revealed[pid]))
            value += PATH * (way[o] - way[d] - (0.0 if way[d] == 0 else risk[d]))
        if move.target is None and self.variant.types[t].can_attack:
            value += HUNT * (self.prey(t, d) - self.prey(t, o))
        if self.hazard.active:
            worth, seen = self.careful[t], state.revealed[pid]
            value += self.hazard.arrival(t, d, worth, seen) - self.hazard.standing(t, o, worth, seen)
            fire = self.hazard.of(t)[3]
            if not seen and move.target is None and (fire[o] or fire[d]):
                # attacked, it would be revealed within the range of guns: keep away from enemies that may
                value -= DANGER * SHOT * worth * (self.exposure(pid, d) * fire[d] - self.exposure(pid, o) * fire[o])
        elif self.effects and t in self.key_types:
            value -= self.arrival_risk(move, pid) * self.values[t]
        if self.hazard.active and self.scarce:
            escapes = self._escapes()
            if escapes:  # make way for a revealed winning piece out of the guns' range
                value += VACATE * (escapes.get(o, 0.0) - escapes.get(d, 0.0))
        if self.flags:
            value += self.flag_gain(move) + self.fetch_gain(t, o, d)
        if self.goal_threats:
            value -= LOSE * self.threat_left(move, pid, o, d)
        return value + self.rng.random() * 0.05


class HeuristicAgent(Agent):
    """Plays the best move by :class:`MoveScorer` (one move deep, expected values over beliefs)."""

    name = "heuristic"

    def choose_move(self, observation: Observation, rng: random.Random, budget: float | None = None):
        if not observation.legal_moves:
            raise NoLegalMoveError(f"{observation.player} has no legal move to choose from")
        scorer = MoveScorer(observation, variant_of(observation), rng)
        return max(observation.legal_moves, key=scorer.score)

    def analyse(self, observation: Observation, budget: float | None = None, top: int = 5) -> Analysis:
        """The best ``top`` moves by :class:`MoveScorer` with their scores and the beliefs used
        (deterministic for an Observation; ``budget`` is ignored: the heuristic does not search)."""
        rng = derive(observation.ply, "analyse", observation.player, len(observation.moves))
        scorer = MoveScorer(observation, variant_of(observation), rng)
        ranked = sorted((ScoredMove(m, scorer.score(m)) for m in observation.legal_moves),
                        key=lambda s: s.score, reverse=True)
        return Analysis(tuple(ranked[:top]), scorer.marginals)

    def choose_setup(self, variant, player: str, rng: random.Random) -> dict[str, str]:
        return planned_setup(variant, player, rng)


def _table_gain(variant, ta: int, td: int, worth_a, worth_d) -> float:
    """Material change for the attacker by the combat table's usual outcome of ``ta`` against ``td`` (its
    first rule without conditions, else the values': a Mine Sweeper clears a Mine, a Submarine sinks ships).
    Against a piece whose loss loses the game only the values count: a rule that lets anything capture it
    (L'Attaque's Flag) pulled every piece towards every hidden piece that might be it, leaving our own Flag
    unguarded (38-0-2 instead of 40-0-0 in 40 games of L'Attaque)."""
    out = variant.combat_cells[ta][td][1] if td in variant.lose_when_removed else usual_outcome(variant, ta, td)
    return (worth_d[td] if DEFENDER in out.removed else 0.0) - (worth_a[ta] if ATTACKER in out.removed else 0.0)


def goal_squares(variant, p: int) -> tuple[frozenset, frozenset]:
    """``(theirs, ours)``: the squares player ``p``'s enemy must reach to win (where it wins by arriving,
    and with Flags our Base, where our Flag lies), and the squares ``p`` must reach itself (where it wins by
    arriving; with Flags and no such square, its own Base, where the enemy Flag must be brought)."""
    theirs = set(variant.win_arrive[1 - p])
    ours = set(variant.win_arrive[p])
    flags = variant.rules.get("flags")
    if flags is not None:
        theirs.add(flags.bases[p])
        if not ours:
            ours.add(flags.bases[p])
    return frozenset(theirs), frozenset(ours)


def _steps_to(variant, targets, blocked=frozenset(), neighbours=None) -> list:
    """Steps (orthogonal, or by ``neighbours[square]`` when given; walls and impassable terrain respected)
    from every square to the nearest of ``targets``, not passing through ``blocked``; ``None`` where there
    is no way."""
    grid = variant.grid
    passable = MoveTables.for_variant(variant).passable
    neighbours = grid.orth if neighbours is None else neighbours
    dist: list = [None] * grid.size
    frontier = [sq for sq in sorted(targets) if sq not in blocked]
    for sq in frontier:
        dist[sq] = 0
    while frontier:
        nxt = []
        for sq in frontier:
            for n in neighbours[sq]:
                if dist[n] is None and passable[n] and n not in blocked:
                    dist[n] = dist[sq] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def _cut(variant, ours, outside, blocked, base) -> float:
    """How much immobile pieces on ``blocked`` lengthen our own way from ``outside`` squares to ``ours``
    (compared with ``base``, the way without them): the sum of the extra steps, a lost way counting 10."""
    if not ours:
        return 0.0
    dist = _steps_to(variant, ours, blocked)
    extra = 0.0
    for sq in outside:
        if base[sq] is not None:
            extra += 10.0 if dist[sq] is None else dist[sq] - base[sq]
    return extra


def _shut_in_by(variant, t: int, at: int, goals: frozenset, fixed: set) -> set:
    """The squares where one more immobile piece of ours would cut our piece of type ``t`` on ``at`` off
    from all of ``goals``, past our immobile pieces on ``fixed``. Only a square that every shortest way
    passes (the one square of its distance from ``at`` on them) can; each such is tried."""
    neighbours = neighbours_of(variant, t)
    to_goal = _steps_to(variant, goals, fixed, neighbours)
    if to_goal[at] is None:
        return set()
    from_at = _steps_to(variant, {at}, fixed, neighbours)
    layers: dict = {}
    for sq, d in enumerate(from_at):
        if d and to_goal[sq] is not None and d + to_goal[sq] == to_goal[at]:
            layers.setdefault(d, []).append(sq)
    return {on[0] for on in layers.values()
            if len(on) == 1 and _steps_to(variant, goals, fixed | {on[0]}, neighbours)[at] is None}


def _blocker_rank(variant, t: int) -> int:
    """How many enemy pieces remove a piece of type ``t`` attacking it (by the combat table's usual outcome)."""
    return sum(a.count for i, a in enumerate(variant.types) if DEFENDER in variant.combat_cells[i][t][1].removed)


def planned_setup(variant, player: str, rng: random.Random, noise: float = 0.8,
                  breakers: bool = False) -> dict[str, str]:
    """A set-up following the rulebook's generic hints (see the module docstring), randomised by ``noise``.
    With ``breakers`` the pieces that alone remove the enemy's guards of our goal (:func:`breaker_types`:
    Aviation's Bombers) are kept back too, out of the first fights (the search's set-ups).

    Goals are guarded: a square where the enemy wins by arriving, and that we never need to reach ourselves,
    is held by the immobile piece the fewest enemy pieces can remove (a Mine on the Base in Dover Patrol's
    shorter games); immobile pieces with a destroying effect are placed where it covers the enemy's way to
    our goals (by its reach, squares nearer the goal counting more); no immobile piece lengthens our own
    way to the squares we must reach (the harbour's mouth stays open for our Flag's carrier). Immobile
    pieces whose loss loses the game are shielded: they are placed first, and the immobile pieces that few
    enemy pieces can remove (at most a quarter of the enemy army) next, beside them (Mines round
    L'Attaque's Flag)."""
    p = variant.player_index(player)
    grid = variant.grid
    squares = list(variant.setup_squares[player])
    values = piece_values(variant)
    own_goals = goal_distances(variant, p)
    enemy_goals = [d for d in goal_distances(variant, 1 - p) if d]
    far = grid.files + grid.ranks
    home = [min(dists[sq] for dists in enemy_goals) if enemy_goals else far for sq in range(grid.size)]
    forward = _forwardness(variant, player)
    # the few pieces that can win, in a game where hidden effects or actions can strike them at a distance,
    # and the only pieces that remove the enemy's Mines: both kept back, out of the first fights
    screened = scarce_types(variant) if variant.rules.get("effects") is not None else frozenset()
    screened |= {t for t, sweeps in enumerate(sweeper_types(variant)[1]) if sweeps}
    if breakers:
        screened |= breaker_types(variant)
    immobile = [t for t, ptype in enumerate(variant.types) if ptype.movement.kind == IMMOBILE and ptype.count
                and t not in variant.lose_when_removed]
    theirs, ours = goal_squares(variant, p)
    zone = set(squares)
    setup = {}
    counts = [ptype.count for ptype in variant.types]
    free = list(squares)  # a list: the order of the noise draws is fixed
    # goals we never need to reach ourselves are held by the immobile piece the fewest enemies remove
    hold = [sq for sq in squares if sq in theirs and sq not in ours and sq in variant.win_arrive[1 - p]]
    for sq in hold:
        able = [t for t in immobile if variant.types[t].element is None
                or variant.elements[t][sq] in (None, variant.types[t].element)]
        if not able:
            continue
        t = min(able, key=lambda t: (_blocker_rank(variant, t), t))
        if counts[t]:
            counts[t] -= 1
            free.remove(sq)
            setup[grid.names[sq]] = variant.types[t].id
    blocked = {grid.index[name] for name in setup}  # our immobile pieces placed so far
    # the enemy's way to our goals (Flags included): immobile blasters cover it, nearer squares counting more
    near = _steps_to(variant, theirs) if theirs else [None] * grid.size
    approach = [0.0 if d is None or sq in blocked else 1.0 / (1 + d) ** 2 for sq, d in enumerate(near)]
    tables = variant.rules.get("effects")
    blast = {}
    if tables is not None:
        for t in immobile:
            reaches = [squares_of for squares_of, by_type in tables.reaches
                       if any(e.kind == "destroy" for e in by_type[t])]
            if reaches:
                blast[t] = reaches
    pieces = [t for t, n in enumerate(counts) for _ in range(n)]
    rng.shuffle(pieces)
    # blasters first (where they stand is all they do), then the most valuable: they get the best squares
    army = sum(ptype.count for ptype in variant.types)
    shielded = frozenset(t for t in variant.lose_when_removed if variant.types[t].movement.kind == IMMOBILE)
    shields = frozenset(t for t in immobile if 4 * _blocker_rank(variant, t) <= army) if shielded else frozenset()
    shielded_at: list = []  # squares of the shielded pieces placed so far
    pieces.sort(key=lambda t: (t not in blast, t not in shielded, t not in shields, -values[t]))
    outside = [sq for sq in range(grid.size) if sq not in zone]
    ours = frozenset(sq for sq in ours if sq in zone)  # only a way home can be blocked by our own set-up
    own_way = _steps_to(variant, ours) if ours else None
    # our pieces that win by arriving, with the squares where they do
    winners = {t: frozenset(sq for sq, _n in goal_targets(variant, p, t)) for t in win_types(variant)
               if variant.types[t].movement.kind != IMMOBILE}
    winners = {t: goals for t, goals in winners.items() if goals}
    placed_winners: list = []  # (type, square) of our pieces that win by arriving placed so far

    def fit(t: int, sq: int) -> float:
        ptype = variant.types[t]
        s = 0.0
        here = variant.elements[t][sq]
        if ptype.element is not None and here is not None:
            s += 3.0 if here == ptype.element else -3.0
        if t in screened:
            s += 4.0 * (1 - forward[sq])  # few and precious: kept back, out of sight and range, screened
        elif own_goals[t] is not None and ptype.movement.kind != IMMOBILE:
            s += 2.0 * (far - own_goals[t][sq]) / far
        if t in variant.lose_when_removed:
            s += 4.0 * (1 - forward[sq])
        elif own_goals[t] is None and values[t] >= 3.0:
            s += 1.5 / (1 + home[sq])
        if t in blast:
            s += 4.0 * sum(approach[a] for reach in blast[t] for a in reach[sq])
        if t in shields:
            s += SHIELD * sum(1 for v in shielded_at if sq in grid.orth[v])
        return s + rng.random() * noise

    for t in pieces:
        if not free:
            break
        # no winner is placed where our immobile pieces shut it in, nor an immobile piece where it shuts one in
        shut = set()
        if t in winners and blocked:
            way = _steps_to(variant, winners[t], blocked, neighbours_of(variant, t))
            shut = {sq for sq in free if way[sq] is None}
        elif t in immobile:
            for w, at in placed_winners:
                shut |= _shut_in_by(variant, w, at, winners[w], blocked)
        if t in immobile and own_way is not None:
            # an immobile piece must not lengthen our own way to the squares we must reach
            cost = {sq: _cut(variant, ours, outside, blocked | {sq}, own_way) for sq in free}
            sq = max(free, key=lambda s: fit(t, s) - 2.0 * cost[s] - SHUT * (s in shut))
        else:
            sq = max(free, key=lambda s: fit(t, s) - SHUT * (s in shut))
        free.remove(sq)
        setup[grid.names[sq]] = variant.types[t].id
        if t in shielded:
            shielded_at.append(sq)
        if t in immobile:
            blocked.add(sq)
        elif t in winners:
            placed_winners.append((t, sq))
    return setup


def _forwardness(variant, player: str) -> list:
    """For every square, 0 at the player's own back edge to 1 at the edge facing the enemy's set-up zone."""
    grid = variant.grid
    other = variant.players[1 - variant.player_index(player)]

    def centre(squares):
        squares = list(squares) or [0]
        return (sum(grid.coords(s)[0] for s in squares) / len(squares),
                sum(grid.coords(s)[1] for s in squares) / len(squares))

    (mf, mr), (ef, er) = centre(variant.setup_squares[player]), centre(variant.setup_squares[other])
    df, dr = ef - mf, er - mr
    proj = [grid.coords(s)[0] * df + grid.coords(s)[1] * dr for s in range(grid.size)]
    lo, hi = min(proj), max(proj)
    return [(x - lo) / (hi - lo) if hi > lo else 0.5 for x in proj]
