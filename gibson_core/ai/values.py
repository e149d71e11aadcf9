"""What pieces and squares are worth, read from a variant's data alone (no game-specific knowledge).

- :func:`piece_values`: a type's worth from how much of the enemy army it beats in the combat table (as
  attacker and as defender), plus a bonus for pieces that can win by arriving and a very large worth for
  pieces whose loss loses the game; a type's own ``value`` from the data is used when every type has one.
- :func:`search_values`: the worth :func:`evaluate` and the search's playouts read: :func:`piece_values`,
  a guard of a goal (a gun, which alone keeps the enemy's winners out) counted ``GUARD_WORTH`` times.
- :func:`square_tables`: per player, type and square, a positional term: a penalty for standing out of
  element or on a transit square, a pull towards the squares where that type wins by arriving, and for a
  type with actions at a distance, towards where they reach the enemy's set-up zone (:func:`action_cover`).
- :func:`evaluate`: material plus position of one side minus the other's, in a full GameState, plus what
  the variant's way of winning asks for: the last pieces that can win by arriving are worth more than
  their material (:func:`winner_bonus`: without them a side cannot win), and Flags are tokens to fetch and
  bring home (:func:`flag_terms`: holding the enemy Flag and nearing home with it, or nearing it), a
  piece the enemy has not seen is worth a little more to its owner (:func:`secrecy_values`), the enemy's
  breakers near our vital immobile piece count against us (:func:`siege`), the enemy's guards of our
  goal (guns) count the steps of our pieces that remove them and, while we can still win, how few are
  left (:func:`guards`), so do our last sweepers of the enemy's Mines (:func:`sweeper_types`), and far ahead
  (:func:`hunt_lead`) the side whose evaluation it is hunts down the enemy's last movers (:func:`mopup`)
  and pushes its nearest winner by arriving home (:func:`arrival`), that side's only. A ``restless`` side
  (the search's, after a long stretch without a capture) hunts and pushes from an even game on, and the
  hunt, the push and the guards count ``RESTLESS`` times as much. Where arriving is the only way to win, a
  side with no piece left that wins so is at best drawing: it keeps ``HOPELESS`` of its lead
  (:func:`hopeless_share`), and the side that can still win keeps that much of its deficit.
- :class:`CombatProbe`: the outcome of a hypothetical fight (given types on given squares) from the
  variant's own resolver, cached when no plugin hook can change it.
"""

from __future__ import annotations

import heapq
import weakref
from typing import NamedTuple

from ..combat import ATTACKER, DEFENDER
from ..movegen import MoveTables
from ..moves import FIRE, ILLUMINATE
from ..pieces import DIAGONAL, IMMOBILE, JUMP

VITAL = 100.0  # the worth of a piece whose loss loses the game
SCARCE = 10.0  # what the ability to win by arriving is worth: winner_bonus(k) approaches it as k grows
FLAG_HELD = 6.0  # carrying the enemy Flag
FLAG_HOME = 10.0  # ...and bringing it home (full when on the Base)
FLAG_REACH = 3.0  # a piece that may carry it drawing near the enemy Flag lying somewhere
FLAG_AWAY = 2.0  # our own Flag not lying on our own Base
SIEGE = 3.0  # the enemy's nearest breaker beside our vital immobile piece (falling off with the distance)
MOPUP = 2.0  # per mobile enemy piece: the steps our nearest piece that takes it still has to go, over the board
MOPUP_FROM = 0.6  # our share of both sides' mobile worth from which the enemy's last mobile pieces are hunted
MOPUP_FULL = 0.8  # ...and the share at which the hunt counts in full
MOPUP_WORTH = 10.0  # the most one piece counts for in that share (a vital piece's 100 would swamp it)
COVER = 2.0  # positional worth of a piece whose actions at a distance reach the whole enemy set-up zone
GUARD = 2.0  # per enemy guard of our winners' goal (a gun): the steps of our nearest piece that removes it, over the board
PUSH = 10.0  # far ahead, our nearest winner by arriving: this much times the lead as its steps to go fall to 0
RESTLESS_FROM = 0.0  # restless (a long stretch without a capture): the share from which the hunt and push count
RESTLESS_FULL = 0.5  # ...and the share at which they count in full (an even game)
RESTLESS = 2.0  # restless, the hunt, the push and the guards count this many times as much
SECRECY = 0.2  # share of a piece's worth that its owner keeps while the enemy has not seen what it is
STEALTH = 0.5  # ...for a type that must come unseen to where the enemy shoots what it sees (stealth_types)
WIN_BONUS = 1.5  # extra worth of a type that can win by arriving
GUARD_WORTH = 2.0  # a guard of a goal (a gun) counts this many times its worth in evaluate and the playouts
GOAL_NEAR = 3.0  # positional bonus of a winning type next to its goal (halved a square further off, ...)
GOAL_PULL = 0.25  # positional bonus of a winning type per step closer to its goal
OUT_OF_ELEMENT_STEP = 3  # a step out of a piece's element counts as this many on the way to its goal
HOPELESS = 0.25  # share of its lead a side keeps with no winner by arriving left (a draw at best; see evaluate)
BOXED = 2  # more steps for a hunter or winner whose every step nearer is onto a square one of ours holds
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _cached(variant) -> dict:
    entry = _CACHE.get(variant)
    if entry is None:
        entry = _CACHE[variant] = {}
    return entry


def usual_outcome(variant, a: int, d: int):
    """The Outcome of type ``a`` attacking type ``d`` as the Value Table reads it: the first combat rule
    without conditions for the pair, else the values' outcome (conditional rules ignored). Cached."""
    return usual_table(variant)[a][d]


def usual_table(variant) -> tuple:
    """``[attacker type][defender type]`` -> :func:`usual_outcome` (cached per variant)."""
    cache = _cached(variant)
    table = cache.get("usual")
    if table is None:
        table = cache["usual"] = tuple(tuple(_usual(cell) for cell in row) for row in variant.combat_cells)
    return table


def _usual(cell):
    rules, base = cell
    for rule in rules:
        if not rule.conditions:
            return rule.outcome
    return base


def _base_score(variant, a: int, d: int) -> float:
    """+1 when ``a`` wins attacking ``d`` by the table's fallback outcome, -1 when it loses, else 0."""
    base = variant.combat_cells[a][d][1]
    if base.removed == (DEFENDER,):
        return 1.0
    if base.removed == (ATTACKER,):
        return -1.0
    return 0.0


def win_types(variant) -> frozenset:
    """Type indices that can win the game by arriving somewhere."""
    return frozenset(t for wins in variant.win_arrive for entries in wins.values() for types, _p, _r in entries
                     for t in types)


def piece_values(variant) -> tuple:
    """The worth of each type, by type index (roughly 1 to 7; ``VITAL`` for a piece the game is lost with)."""
    cache = _cached(variant)
    if "values" in cache:
        return cache["values"]
    types = variant.types
    n = len(types)
    total = sum(t.count for t in types) or 1
    given = [t.value for t in types]
    winners = win_types(variant)
    values = []
    top = max((v for v in given if v is not None), default=0) or 1
    for a in range(n):
        if all(v is not None for v in given):
            worth = 1.0 + 4.0 * given[a] / top
        else:
            strength = sum(types[d].count * (_base_score(variant, a, d) - _base_score(variant, d, a)) / 2
                           for d in range(n)) / total
            worth = 1.0 + 2.0 * (strength + 1.0)
        if a in winners:
            worth += WIN_BONUS
        if a in variant.draw_when_none_left:
            worth += WIN_BONUS  # the last of these gone, nobody can win
        if types[a].movement.kind == IMMOBILE:
            worth *= 0.8
        if a in variant.lose_when_removed:
            worth = VITAL
        values.append(worth)
    cache["values"] = tuple(values)
    return cache["values"]


def secrecy_values(variant) -> tuple:
    """What keeping each type unseen is worth to its owner, by type index: ``SECRECY`` times its worth
    (``STEALTH`` times it for a :func:`stealth_types` type), 0 for a type whose loss loses the game (seeing
    it is reaching it). The enemy's knowledge is worth this to them: attacking an unseen piece pays in part
    even when the attacker is lost, a Searchlight's light pays, and a piece that reveals itself by a fight
    pays for it. In a determinized search every sampled world is fully known, so without this term finding
    out what a piece is has no worth at all."""
    cache = _cached(variant)
    if "secrecy" not in cache:
        stealth = stealth_types(variant)
        cache["secrecy"] = tuple(0.0 if t in variant.lose_when_removed else (STEALTH if stealth[t] else SECRECY) * v
                                 for t, v in enumerate(piece_values(variant)))
    return cache["secrecy"]


def stealth_types(variant) -> tuple:
    """``stealth[t]``: whether type ``t`` must come unseen to where the enemy shoots what it sees: a target
    of a fire action that takes only pieces the firing side has seen, that wins by arriving or destroys
    such a shooter by arriving beside it (Aviation's Troop Carriers and Bombers; no type of another
    shipped variant). Seen, it is shot down as soon as it comes within a gun's range, so it can no longer
    reach the enemy Aerodrome or a gun: being seen costs it far more of its worth than a seen Fighter,
    which fights on as it did (cached)."""
    cache = _cached(variant)
    if "stealth" not in cache:
        tables = variant.rules.get("effects")
        shooters, targets = set(), set()
        for g, acts in enumerate(tables.actions if tables is not None else ()):
            for act in acts:
                if act.kind == FIRE and act.revealed_only:
                    shooters.add(g)
                    targets |= set(act.targets)
        near = set(win_types(variant))
        for _squares, by_type in tables.reaches if shooters else ():
            for g in shooters:
                for effect in by_type[g]:
                    near |= set(effect.backfire)
        cache["stealth"] = tuple(t in targets and t in near for t in range(len(variant.types)))
    return cache["stealth"]


def neighbours_of(variant, t: int) -> tuple:
    """``[square]`` -> the squares a piece of type ``t`` reaches in one plain move on an empty board: a
    step (walls respected), a diagonal step, or a jump of its distance in a straight line (over walls)."""
    movement = variant.types[t].movement
    grid = variant.grid
    if movement.kind == DIAGONAL:
        return grid.diag
    if movement.kind != JUMP:
        return grid.orth
    if movement.distance == 2:
        return grid.jumps
    cache = _cached(variant)
    key = ("jumps", movement.distance)
    if key not in cache:
        k = movement.distance
        cache[key] = tuple(tuple(j for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                                 if (j := grid.offset(sq, k * df, k * dr)) is not None)
                           for sq in range(grid.size))
    return cache[key]


def _distances(variant, t: int, targets, extra=None) -> list:
    """Cost of the cheapest way for a piece of type ``t`` from every square to the nearest of ``targets``
    (``(square, cost there)`` pairs): one a step, ``OUT_OF_ELEMENT_STEP`` a step onto a square out of the
    type's element (walls and impassable terrain respected; diagonal movers step diagonally), plus
    ``extra[square]`` for stepping onto a square when given (a danger)."""
    grid = variant.grid
    native = variant.types[t].element
    neighbours = neighbours_of(variant, t)
    elements = variant.elements[t]
    passable = MoveTables.for_variant(variant).passable
    step = [1 if native is None or elements[sq] in (None, native) else OUT_OF_ELEMENT_STEP
            for sq in range(grid.size)]
    if extra is not None:
        step = [a + b for a, b in zip(step, extra, strict=True)]
    far = grid.files + grid.ranks
    dist = [far * OUT_OF_ELEMENT_STEP] * grid.size
    heap = []
    for sq, start in targets:
        if start < dist[sq]:
            dist[sq] = start
            heapq.heappush(heap, (start, sq))
    while heap:
        d, sq = heapq.heappop(heap)
        if d > dist[sq]:
            continue
        for n in neighbours[sq]:
            # walking backwards from the goal: the cost is paid for the square stepped from
            nd = d + step[sq]
            if passable[n] and nd < dist[n]:
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist


def goal_targets(variant, player: int, t: int) -> list:
    """``(square, steps still needed there)`` where a piece of type ``t`` wins by arriving (a path's mouth
    counts the path's length)."""
    targets = []
    for sq, entries in variant.win_arrive[player].items():
        for types, path, _reason in entries:
            if t in types:
                targets.append((path[0], len(path) - 1) if path else (sq, 0))
    return targets


def _along_paths(variant, player: int, t: int, dist: list) -> list:
    """``dist`` with each square inside a goal's path (after its mouth) costing only the steps left along
    the path: a piece stands there because it entered at the mouth (a path is its only way in), so it is
    nearer its goal than the way back out to the mouth and in again (``dist`` is changed and returned)."""
    for entries in variant.win_arrive[player].values():
        for types, path, _reason in entries:
            if path and t in types:
                for i, sq in enumerate(path[1:-1], start=1):
                    dist[sq] = min(dist[sq], len(path) - 1 - i)
    return dist


def _goal_way(variant, player: int, t: int, targets: list, extra=None) -> list:
    """:func:`_distances` of type ``t`` to its goal ``targets`` (:func:`goal_targets`), read
    :func:`_along_paths` inside the goals' paths."""
    return _along_paths(variant, player, t, _distances(variant, t, targets, extra))


def safe_distances(variant, player: int, t: int, danger: list) -> list:
    """Like :func:`goal_distances` for one type, each square entered on the way costing ``danger`` more
    (the goal squares themselves cost nothing: arriving there ends the game)."""
    targets = goal_targets(variant, player, t)
    goals = {sq for sq, _n in targets}
    return _goal_way(variant, player, t, targets, [0.0 if sq in goals else x for sq, x in enumerate(danger)])


def goal_distances(variant, player: int) -> tuple:
    """``[type][square]`` steps a piece of that type still needs to win by arriving (None when it cannot):
    straight to a goal square, or to the start of the goal's path plus the path's length (inside the
    path, the steps left along it)."""
    cache = _cached(variant)
    key = ("goal", player)
    if key in cache:
        return cache[key]
    out = []
    for t in range(len(variant.types)):
        targets = goal_targets(variant, player, t)
        out.append(_goal_way(variant, player, t, targets) if targets else None)
    cache[key] = tuple(out)
    return cache[key]


def square_tables(variant) -> tuple:
    """``[player][type][square]`` positional terms (see the module docstring)."""
    cache = _cached(variant)
    if "squares" in cache:
        return cache["squares"]
    values = piece_values(variant)
    grid = variant.grid
    far = grid.files + grid.ranks
    tables = []
    for p in range(len(variant.players)):
        goals = goal_distances(variant, p)
        rows = []
        for t, ptype in enumerate(variant.types):
            row = [0.0] * grid.size
            worth = min(values[t], 8.0)
            for sq in range(grid.size):
                here = variant.elements[t][sq]
                if ptype.element is not None and here is not None and here != ptype.element:
                    row[sq] -= 0.35 * worth
                if sq in variant.transit_squares:
                    row[sq] -= 0.5 * worth
                if goals[t] is not None:
                    d = goals[t][sq]
                    row[sq] += goal_pull(d, far)
            for sq, share in enumerate(action_cover(variant, p, t)):
                row[sq] += COVER * share
            rows.append(tuple(row))
        tables.append(tuple(rows))
    cache["squares"] = tuple(tables)
    return cache["squares"]


def action_cover(variant, player: int, t: int) -> list:
    """``[square]``: the share of the enemy's set-up zone that ``player``'s piece of type ``t`` standing there
    reaches with its actions at a distance (a gun's Fire, by orthogonal steps; a Searchlight's light, by
    king moves; the widest of its actions), 0 everywhere for a type without them. Where the enemy's
    pieces stand is where shots and light find targets: a gun kept at the back shoots nothing."""
    grid = variant.grid
    row = [0.0] * grid.size
    tables = variant.rules.get("effects")
    acts = tables.actions[t] if tables is not None else ()
    enemy = variant.setup_squares[variant.players[1 - player]]
    if not acts or not enemy:
        return row
    for sq in range(grid.size):
        for act in acts:
            if act.kind == FIRE:
                reached = sum(1 for e in enemy if grid.manhattan(sq, e) <= act.range)
            elif act.kind == ILLUMINATE:
                reached = sum(1 for e in enemy if grid.king_distance(sq, e) <= act.radius)
            else:
                continue
            row[sq] = max(row[sq], reached / len(enemy))
    return row


def goal_pull(d: float, far: int) -> float:
    """The positional bonus of a winning type ``d`` steps from its goal (``far``: the board's files + ranks)."""
    return GOAL_NEAR / (1 + d) + GOAL_PULL * (far - d)


def open_distances(variant, player: int, t: int, extra: list, target: int | None = None) -> list:
    """Like :func:`goal_distances` for one type (or :func:`distance_to` ``target`` when given), each square
    entered costing ``extra`` more, the goal squares included (a piece on the goal must be removed too)."""
    if target is not None:
        return _distances(variant, t, [(target, 0)], extra)
    return _goal_way(variant, player, t, goal_targets(variant, player, t), extra)


def search_values(variant) -> tuple:
    """The worth :func:`evaluate`, :func:`hunt_lead` and the search's playouts give each type, by type
    index: :func:`piece_values`, a guard of a goal (:func:`guard_types`: Aviation's guns, which shoot the
    Troop Carriers and which only Bombers remove) ``GUARD_WORTH`` times over. Its value in the table
    (3.0, a Bomber's 2.4) made a Bomber that destroys one of four guns and is shot down for it an even
    trade, while the games are won only once the enemy's guns are gone. The heuristic's move scores keep
    :func:`piece_values` (cached)."""
    cache = _cached(variant)
    if "search" not in cache:
        guard = guard_types(variant)
        cache["search"] = tuple(v * GUARD_WORTH if guard[t] else v for t, v in enumerate(piece_values(variant)))
    return cache["search"]


def winner_bonus(k: int) -> float:
    """Extra worth of having ``k`` pieces able to win by arriving: the last one counts most."""
    return SCARCE * (1.0 - 0.5 ** k)


def winning_types(variant) -> frozenset:
    """The types :func:`evaluate` counts for :func:`winner_bonus`: the winners by arriving and the types whose
    last loss draws the game. However many there are at the start, the last few are worth more than
    their material: with none left a side cannot win (a Tri-Tactics side whose last Ship is sunk while the
    enemy has no Infantry or Ship left turns its win into a draw)."""
    return win_types(variant) | variant.draw_when_none_left


def hopeless_share(variant) -> float:
    """``HOPELESS`` where a side with no piece of :func:`winning_types` left cannot win but by leaving the
    enemy with no move (the only wins of the variant are arrivals, each by a type that ``winning_types``
    counts, and no piece is lost with or Flag fetched), else 0 (cached). :func:`evaluate` then keeps that
    share of such a side's lead, and of the deficit of an enemy that can no longer win so. Counted whole, an
    Aviation side 64 ahead read 50 ahead once its last Troop Carrier was shot down (its worth and
    last-winner bonus) where a likely win had become a draw, and in 5 of the 12 draws of 38 games the search
    had lost both its Troop Carriers to guns, most of them far ahead. A share above 0 keeps the hunt of the
    enemy's last movers worth something (a side left with no move loses)."""
    cache = _cached(variant)
    if "hopeless" not in cache:
        arriving = win_types(variant)
        only = (bool(arriving) and arriving == winning_types(variant) and not variant.lose_when_removed
                and not variant.lose_when_only_left and "flags" not in variant.rules)
        cache["hopeless"] = HOPELESS if only else 0.0
    return cache["hopeless"]


def scarce_types(variant) -> frozenset:
    """Types whose number matters beyond material: the winners by arriving and the types whose last loss
    draws the game, when they are a small part of the army (else each one matters little)."""
    cache = _cached(variant)
    if "scarce" not in cache:
        types = winning_types(variant)
        count = sum(variant.types[t].count for t in types)
        total = sum(t.count for t in variant.types) or 1
        cache["scarce"] = frozenset(types) if 0 < count <= total // 4 else frozenset()
    return cache["scarce"]


def distance_to(variant, t: int, target: int) -> list:
    """``[square]`` steps for a piece of type ``t`` to reach ``target`` (cached per type and target)."""
    cache = _cached(variant).setdefault("to", {})
    key = (t, target)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = _distances(variant, t, [(target, 0)])
    return hit


def attack_distance(variant, t: int, target: int) -> list:
    """``[square]`` steps for a piece of type ``t`` to take a piece standing on ``target``: its way to a
    square orthogonally beside ``target`` (not across a wall: where an attack or a blast starts), plus
    one for the attack (cached per type and target). A diagonal mover reaches only the pieces on the
    other colour so."""
    cache = _cached(variant).setdefault("attack", {})
    key = (t, target)
    hit = cache.get(key)
    if hit is None:
        passable = MoveTables.for_variant(variant).passable
        beside = [(n, 1) for n in variant.grid.orth[target] if passable[n]]
        hit = cache[key] = _distances(variant, t, beside)
    return hit


def blasted_types(state, sq: int, player: int) -> frozenset:
    """The types of ``player``'s pieces that an automatic effect of an enemy piece in reach of ``sq`` would
    destroy on arriving there (a Mine's blast beside it; empty without effects): such a piece cannot pick
    up a Flag lying on ``sq``, as the blast comes first."""
    table = _blast_table(state.variant)
    if not table:
        return frozenset()
    board, owner, ptype = state.board, state.owner, state.ptype
    out = frozenset()
    for squares, by_type in table:
        for a in squares[sq]:
            q = board[a]
            if q and owner[q] != player and by_type[ptype[q]]:
                out |= by_type[ptype[q]]
    return out


def _blast_table(variant) -> tuple:
    """``((squares, blasts), ...)``, one pair per reach of the variant's effects: ``squares[sq]`` within
    that reach of ``sq``, ``blasts[q]`` the arriving types a piece of type ``q`` destroys so (cached)."""
    cache = _cached(variant)
    if "blasts" not in cache:
        tables = variant.rules.get("effects")
        cache["blasts"] = tuple(
            (squares, tuple(frozenset(t for effect in effects for t in effect.targets if effect.destroys(t))
                            for effects in by_type))
            for squares, by_type in (tables.reaches if tables is not None else ()))
    return cache["blasts"]


def flag_terms(state, player: int) -> float:
    """The Flags' part of :func:`evaluate` for ``player`` (0 for a variant without Flags): holding the enemy
    Flag, and the way home with it; else our nearest possible carrier's way to it (not counting a piece an
    enemy effect would destroy on the Flag's square, :func:`blasted_types`); our own Flag away from our
    Base counts against us."""
    flags = state.variant.rules.get("flags")
    if flags is None:
        return 0.0
    variant = state.variant
    far = variant.grid.files + variant.grid.ranks
    index = variant.grid.index
    owner, ptype, square = state.owner, state.ptype, state.square
    home = flags.bases[player]
    where, carrier, mined = state.tokens[flags.keys[1 - player]]
    sq = index[where]
    score = 0.0
    if carrier and owner[carrier] == player:
        d = distance_to(variant, ptype[carrier], home)[sq]
        score += FLAG_HELD + FLAG_HOME * max(0.0, 1.0 - d / far)
    elif not carrier:
        able = flags.mined_pickup if mined else None
        blasted = blasted_types(state, sq, player)
        best = far
        for pid in state.pids[player]:
            at = square[pid]
            t = ptype[pid]
            if at < 0 or t in flags.cannot_carry or (able is not None and t not in able) or t in blasted:
                continue
            best = min(best, distance_to(variant, t, sq)[at])
        score += FLAG_REACH * max(0.0, 1.0 - best / far)
    own, own_carrier, _mined = state.tokens[flags.keys[player]]
    if own_carrier or index[own] != home:
        score -= FLAG_AWAY
    return score


def siege_types(variant) -> tuple:
    """``(vital, breakers)`` as type-index sets: the immobile types whose loss loses the game (L'Attaque's
    Flag), and the mobile types that remove every other immobile type by attacking it (its Sappers, who
    alone get through the Mines round a Flag). Both empty when no immobile type is vital."""
    cache = _cached(variant)
    if "siege" not in cache:
        types = variant.types
        vital = frozenset(t for t in variant.lose_when_removed if not types[t].mobile)
        shields = [u for u, ptype in enumerate(types) if not ptype.mobile and u not in vital]
        usual = usual_table(variant)
        breakers = frozenset(t for t, ptype in enumerate(types) if vital and ptype.mobile
                             and all(DEFENDER in usual[t][u].removed for u in shields))
        cache["siege"] = (vital, breakers)
    return cache["siege"]


def siege(state, player: int) -> float:
    """How near ``player``'s vital immobile pieces the enemy's nearest breaker stands: ``1 - d / far``
    (``d`` its orthogonal steps, ``far`` the board's files plus ranks), 0 when none is near."""
    grid = state.variant.grid
    vital, breakers = siege_types(state.variant)
    far = grid.files + grid.ranks
    square, ptype = state.square, state.ptype
    best = 0.0
    for pid in state.pids[player]:
        sq = square[pid]
        if sq < 0 or ptype[pid] not in vital:
            continue
        for e in state.pids[1 - player]:
            at = square[e]
            if at < 0 or ptype[e] not in breakers:
                continue
            near = 1.0 - grid.manhattan(sq, at) / far
            if near > best:
                best = near
    return best


def mopup_table(variant) -> tuple:
    """``hunts[a][d]``: 1.0 when type ``a`` can move and removes type ``d``, one :func:`prey_types` counts,
    by attacking it and survives (by :func:`usual_outcome`), the pairs :func:`mopup` measures."""
    cache = _cached(variant)
    if "mopup" not in cache:
        usual = usual_table(variant)
        mobile, prey = mobile_types(variant), prey_types(variant)
        cache["mopup"] = tuple(tuple(float(mobile[a] and prey[d] and DEFENDER in usual[a][d].removed
                                           and ATTACKER not in usual[a][d].removed) for d in range(len(mobile)))
                               for a in range(len(mobile)))
    return cache["mopup"]


def prey_types(variant) -> tuple:
    """``prey[t]``: whether the hunt of the last movers (:func:`mopup`) counts an enemy piece of type ``t``:
    every mobile type, and the immobile types whose effect destroys what arrives beside them (Dover Patrol's
    Mines). Those wall a fortress: a Battleship in a corner of its harbour, every square an attack on it
    would start from beside a Mine, cannot be taken until a Mine Sweeper has lifted the Mines, and the
    search, 30 pieces to 2 ahead, drew such games at the ply limit with its Mine Sweeper far off (cached)."""
    cache = _cached(variant)
    if "prey" not in cache:
        blasters = {q for _squares, blasts in _blast_table(variant) for q, hit in enumerate(blasts) if hit}
        cache["prey"] = tuple(ptype.mobile or t in blasters for t, ptype in enumerate(variant.types))
    return cache["prey"]


def menacing(variant, t: int) -> frozenset:
    """Enemy types whose effects destroy our type ``t`` or whose fire actions target it (guns, for a
    Troop Carrier): the pieces that keep it from its goal at a distance."""
    tables = variant.rules.get("effects")
    if tables is None:
        return frozenset()
    out = set()
    for _squares, by_type in tables.reaches:
        for g, effects in enumerate(by_type):
            if any(effect.kind == "destroy" and effect.hits(t) for effect in effects):
                out.add(g)
    for g, acts in enumerate(tables.actions):
        if any(act.kind == FIRE and t in act.targets for act in acts):
            out.add(g)
    return frozenset(out)


def guard_types(variant) -> tuple:
    """``guard[t]``: whether an enemy piece of type ``t`` keeps our last winners by arriving from their goal
    at a distance (:func:`menacing` of a :func:`scarce_types` type: Aviation's guns, which shoot a Troop
    Carrier seen within range and destroy one that ends beside them). Cached."""
    cache = _cached(variant)
    if "guard" not in cache:
        guards = set()
        for t in scarce_types(variant):
            guards |= menacing(variant, t)
        cache["guard"] = tuple(t in guards for t in range(len(variant.types)))
    return cache["guard"]


def breaker_types(variant) -> frozenset:
    """Our types that remove an enemy guard of our winners' goal (:func:`guard_types`, by
    :func:`mopup_table`): Aviation's Bombers, the only pieces that destroy a gun. Cached."""
    cache = _cached(variant)
    if "breakers" not in cache:
        guard = guard_types(variant)
        cache["breakers"] = frozenset(t for t, row in enumerate(mopup_table(variant))
                                      if any(r and g for r, g in zip(row, guard, strict=True)))
    return cache["breakers"]


def sweeper_types(variant) -> tuple:
    """``(walls, sweepers)``: ``walls[t]``, whether type ``t`` is an immobile piece whose effect destroys
    what arrives beside it (Dover Patrol's Mines, prey of the hunt: :func:`prey_types`);
    ``sweepers[t]``, whether type ``t`` removes one (by :func:`mopup_table`: its Mine Sweepers). While the
    enemy has such walls, :func:`evaluate` counts our last sweepers as our last winners: a Harbour whose
    every way in starts beside a Mine cannot be broken without them, and of 19 Dover Patrol games the
    search drew far ahead, 6 were drawn with its Mine Sweepers (and its other pieces a Mine spares) all
    lost against three Mines (cached)."""
    cache = _cached(variant)
    if "sweep" not in cache:
        hunts, prey, mobile = mopup_table(variant), prey_types(variant), mobile_types(variant)
        walls = tuple(prey[t] and not mobile[t] for t in range(len(mobile)))
        sweepers = tuple(any(row[w] and walls[w] for w in range(len(row))) for row in hunts)
        cache["sweep"] = (walls, sweepers)
    return cache["sweep"]


def guards(state, player: int) -> float:
    """How far ``player`` is from clearing its winners' way: :func:`hunted` over the enemy's guards
    (:func:`guard_types`), each counting the steps of ``player``'s nearest piece that removes it (a
    Bomber, which destroys a gun it ends beside). Lower is better; a guard removed no longer counts.
    Aviation's wins all came after the enemy's guns were gone, and with nothing to draw the Bombers to
    them the games stood still: no capture from ply 500 to 2,000 with one side 36 pieces to 31 ahead."""
    return hunted(state, player, guard_types(state.variant))


def mobile_types(variant) -> tuple:
    """``mobile[t]``: whether type ``t`` can move (cached: :func:`mopup` reads it in every evaluation)."""
    cache = _cached(variant)
    if "mobile" not in cache:
        cache["mobile"] = tuple(ptype.mobile for ptype in variant.types)
    return cache["mobile"]


class Pulls(NamedTuple):
    """The weights of the hunt, the push and the guards in :func:`evaluate`, and the shares of both sides'
    mobile worth over which the hunt's lead rises from 0 to 1 (:func:`hunt_lead`)."""

    mopup: float
    start: float
    full: float
    push: float
    guard: float


def pulls(restless: bool = False) -> Pulls:
    """The :class:`Pulls` of a calm or a ``restless`` evaluation (restless: from ``RESTLESS_FROM`` to
    ``RESTLESS_FULL``, the weights ``RESTLESS`` times as much); the kernel's policy table reads the same."""
    if restless:
        return Pulls(MOPUP * RESTLESS, RESTLESS_FROM, RESTLESS_FULL, PUSH * RESTLESS, GUARD * RESTLESS)
    return Pulls(MOPUP, MOPUP_FROM, MOPUP_FULL, PUSH, GUARD)


def hunt_lead(state, player: int, restless: bool = False) -> float:
    """How far ahead ``player`` is, from 0 to 1: 0 while its share of both sides' mobile worth (each piece
    at most ``MOPUP_WORTH``) is below ``MOPUP_FROM``, rising to 1 at ``MOPUP_FULL`` (0 with nothing to
    move); ``restless``, from ``RESTLESS_FROM`` to ``RESTLESS_FULL``. Far ahead, :func:`evaluate` hunts
    the enemy's last movers (:func:`mopup`) and pushes our nearest winner by arriving home
    (:func:`arrival`), each times this lead."""
    variant = state.variant
    values = search_values(variant)
    mobile = mobile_types(variant)
    square, ptype = state.square, state.ptype
    worth = [0.0, 0.0]
    for side in (player, 1 - player):
        for pid in state.pids[side]:
            t = ptype[pid]
            if square[pid] >= 0 and mobile[t]:
                worth[side] += min(values[t], MOPUP_WORTH)
    if worth[player] == 0.0:
        return 0.0
    weights = pulls(restless)
    lead = (worth[player] / (worth[player] + worth[1 - player]) - weights.start) / (weights.full - weights.start)
    if lead <= 0.0:
        return 0.0
    return 1.0 if lead > 1.0 else lead


def mopup(state, player: int, lead: float | None = None) -> float:
    """How far ``player`` is from hunting down the enemy's mobile pieces once far ahead: for every enemy
    piece :func:`prey_types` counts (the mobile ones, and the Mines that wall them in), ``d / far``, ``d``
    the steps of ``player``'s nearest piece that takes it (:func:`hunted`; ``far``, the board's files plus
    ranks, when none can), times how far ahead ``player`` is
    (:func:`hunt_lead`, read from ``state`` unless given). A side left with nothing to move loses, and far
    ahead the way to a win is often to take the enemy's last movers rather than to break its fortress;
    without this, a side 30 pieces to 7 ahead shuffled far from the enemy until the ply limit drew the
    game. Lower is better for ``player``; a piece taken no longer counts, so taking it always pays."""
    if lead is None:
        lead = hunt_lead(state, player)
    if lead <= 0.0:
        return 0.0
    return lead * hunted(state, player, prey_types(state.variant))


def hunted(state, player: int, counted: tuple) -> float:
    """For every enemy piece of a type ``counted`` marks, ``d / far``: ``d`` the steps of ``player``'s
    nearest piece that takes it (by :func:`mopup_table`), on the way that piece's type moves
    (:func:`attack_distance`: walls and terrain respected, the pieces on the way not), or ``far`` (the
    board's files plus ranks) when none is nearer; summed. :func:`mopup` and :func:`guards` read it. Steps
    over the board, not as the crow flies: counted so, Dover Patrol sides far ahead kept their Mine
    Sweepers just outside the enemy's Harbour Wall, two squares from a Mine as the crow flies and four by
    the way in, until the ply limit drew the game."""
    variant = state.variant
    hunts = mopup_table(variant)
    square, ptype = state.square, state.ptype
    far = variant.grid.files + variant.grid.ranks
    walls = sweeper_types(variant)[0]  # before a walled fortress our hunters queue at its gaps: see boxed
    leaders = counted if any(square[e] >= 0 and walls[ptype[e]] for e in state.pids[1 - player]) else None
    total = 0.0
    for e in state.pids[1 - player]:
        at = square[e]
        te = ptype[e]
        if at < 0 or not counted[te]:
            continue
        best = far
        for q in state.pids[player]:
            sq = square[q]
            if sq >= 0 and hunts[ptype[q]][te] != 0.0:
                dist = attack_distance(variant, ptype[q], at)
                d = dist[sq]
                if d < best and boxed(state, player, ptype[q], sq, dist, leaders):
                    d += BOXED
                if d < best:
                    best = d
        total += best / far
    return total


def boxed(state, player: int, t: int, sq: int, dist: list, counted: tuple | None = None) -> bool:
    """Whether a piece of ``player``'s of type ``t`` on ``sq`` is boxed in by its own side: there are squares
    one step of its away (:func:`neighbours_of`) that ``dist`` counts nearer, and ``player``'s pieces hold
    them all. :func:`hunted` and :func:`arrival` count ``BOXED`` more steps for it, so that a step that lets
    it out pays: Aviation Troop Carriers waited for hundreds of plies behind their own Fighters, Dover Patrol
    Mine Sweepers inside their own harbour, with nothing telling the pieces in the way to go. Given
    ``counted`` (the prey :func:`hunted` counts, while the enemy has a wall left: :func:`sweeper_types`), a
    piece in the way that itself hunts an enemy piece of those leads the way rather than blocks it: a Dover
    Patrol Mine Sweeper that went ahead of its Battleship into the one gap of the enemy's Harbour Wall
    counted the Battleship 2 steps further from the enemy's last movers, more than the 3 steps it gained on
    the Mines, and the search, 30 pieces to 3 ahead, kept it outside the wall until the ply limit. On boards
    without walls the leaders measured no better (L'Attaque, Tri-Tactics) or worse (Aviation)."""
    here = dist[sq]
    board, owner = state.board, state.owner
    nearer = False
    for n in neighbours_of(state.variant, t)[sq]:
        if dist[n] < here:
            q = board[n]
            if not q or owner[q] != player or (counted is not None and _hunts_any(state, player, q, counted)):
                return False
            nearer = True
    return nearer


def _hunts_any(state, player: int, q: int, counted: tuple) -> bool:
    """Whether ``player``'s piece ``q`` takes (:func:`mopup_table`) an enemy piece of a type ``counted`` marks."""
    row = mopup_table(state.variant)[state.ptype[q]]
    square, ptype = state.square, state.ptype
    return any(square[e] >= 0 and counted[ptype[e]] and row[ptype[e]] != 0.0 for e in state.pids[1 - player])


def arrival(state, player: int) -> float:
    """How near ``player``'s nearest piece that wins by arriving stands to its goal: ``1 - d / far`` (at
    least 0), ``d`` its steps (:func:`goal_distances`; ``BOXED`` more when :func:`boxed`), 0 without one.
    Far ahead :func:`evaluate` counts it
    ``PUSH`` times the lead: the goal pull alone (``GOAL_PULL`` a step) was lost in the playouts' noise, and
    an Aviation side 22 pieces to 6 ahead moved its Searchlights while its Troop Carriers waited 7 steps
    from the goal until the ply limit drew the game."""
    variant = state.variant
    goals = goal_distances(variant, player)
    square, ptype = state.square, state.ptype
    far = variant.grid.files + variant.grid.ranks
    best = float(far)
    for pid in state.pids[player]:
        sq = square[pid]
        if sq >= 0:
            dist = goals[ptype[pid]]
            if dist is None:
                continue
            d = dist[sq]
            if d < best and boxed(state, player, ptype[pid], sq, dist):
                d += BOXED
            if d < best:
                best = d
    near = 1.0 - best / far
    return near if near > 0.0 else 0.0


def evaluate(state, player: int, secrecy: bool = True, hunt: bool = True, restless: bool = False) -> float:
    """Material and position of ``player`` minus the opponent's, with the terms of the variant's way of
    winning (see the module docstring), and ``player``'s own hunt of the enemy's last movers when far
    ahead (not the opponent's: so ``evaluate(state, 0)`` is not ``-evaluate(state, 1)`` then); ±1000 for
    a finished game. ``secrecy=False`` leaves out what keeping pieces unseen is worth
    (:func:`secrecy_values`), ``hunt=False`` that hunt (:func:`mopup`) and the share a side that can no longer
    win keeps of its lead (:func:`hopeless_share`; the heuristic reads actions so);
    ``restless=True`` hunts and pushes from an even game on, the hunt, push and guards ``RESTLESS`` times
    as strong (the search's, after a long stretch without a capture)."""
    result = state.result
    if result is not None:
        if result.is_draw:
            return 0.0
        return 1000.0 if result.winner == state.variant.players[player] else -1000.0
    variant = state.variant
    values = search_values(variant)
    tables = square_tables(variant)
    secret = secrecy_values(variant) if secrecy else (0.0,) * len(values)
    counted = winning_types(variant)
    guard = guard_types(variant)
    walls, sweepers = sweeper_types(variant)
    square, ptype, owner, revealed = state.square, state.ptype, state.owner, state.revealed
    score = 0.0
    counts, guarded, walled, swept = [0, 0], [0, 0], [0, 0], [0, 0]
    for pid in range(1, len(owner)):
        sq = square[pid]
        if sq < 0:
            continue
        t = ptype[pid]
        p = owner[pid]
        v = values[t] + tables[p][t][sq]
        if not revealed[pid]:
            v += secret[t]
        score += v if p == player else -v
        if t in counted:
            counts[p] += 1
        if guard[t]:
            guarded[p] += 1
        if walls[t]:
            walled[p] += 1
        if sweepers[t]:
            swept[p] += 1
    if counted:
        score += winner_bonus(counts[player]) - winner_bonus(counts[1 - player])
    if guarded[0] or guarded[1]:  # the last guards of a goal the enemy can still reach count as its last winners do
        score += (winner_bonus(guarded[player]) if counts[1 - player] else 0.0) - (
            winner_bonus(guarded[1 - player]) if counts[player] else 0.0)
    if walled[0] or walled[1]:  # the last sweepers of the enemy's Mines count as the last winners do
        score += (winner_bonus(swept[player]) if walled[1 - player] else 0.0) - (
            winner_bonus(swept[1 - player]) if walled[player] else 0.0)
    if "flags" in variant.rules:
        score += flag_terms(state, player) - flag_terms(state, 1 - player)
    if siege_types(variant)[0]:  # the enemy's breakers near our vital piece, ours near theirs
        score += SIEGE * (siege(state, 1 - player) - siege(state, player))
    score += pull_terms(state, player, hunt, restless)
    share = hopeless_share(variant) if hunt else 0.0  # a side that can no longer win is at best drawing
    if share and ((score > 0.0 and not counts[player]) or (score < 0.0 and not counts[1 - player])):
        score *= share
    return score


def pull_terms(state, player: int, hunt: bool = True, restless: bool = False) -> float:
    """The part of :func:`evaluate` that pulls towards a win rather than counts what stands: our breakers
    near the enemy's guards of our goal and theirs near ours (:func:`guards`), and with ``hunt`` our own
    hunt of the enemy's movers (:func:`mopup`) and push of our nearest winner (:func:`arrival`), each
    times the lead (:func:`hunt_lead`); ``restless``, by :func:`pulls` ``(True)``. The search's root also
    reads how a move changes it (``search.urgency``)."""
    weights = pulls(restless)
    score = 0.0
    if any(guard_types(state.variant)):
        score -= weights.guard * (guards(state, player) - guards(state, 1 - player))
    if hunt:  # the searcher's own hunt and push only: fleeing a far stronger enemy is no plan
        lead = hunt_lead(state, player, restless)
        if lead > 0.0:
            score -= weights.mopup * mopup(state, player, lead)
            score += weights.push * (lead * arrival(state, player))
    return score


class CombatProbe:
    """Hypothetical fights in a GameState the agent owns: ``outcome(state, a, d, ta, td, a_sq)`` is what
    happens when piece ``a`` (given type ``ta``, standing on ``a_sq``) attacks ``d`` (given type ``td``)."""

    def __init__(self, variant):
        self.variant = variant
        self.stable = not MoveTables.for_variant(variant).hooks_present.get("gibson_resolve_combat")
        self.cache = _cached(variant).setdefault("fights", {}) if self.stable else {}

    def outcome(self, state, a: int, d: int, ta: int, td: int, a_sq: int):
        """The Outcome (the state is restored before returning)."""
        if a_sq == state.square[d]:  # an attack onto the defender's square is fought from where the attacker is
            a_sq = state.square[a]
        key = (ta, td, a_sq, state.square[d], state.owner[a])
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        board, square, ptype = state.board, state.square, state.ptype
        old_sq, old_ta, old_td = square[a], ptype[a], ptype[d]
        board[old_sq] = 0
        board[a_sq] = a
        square[a] = a_sq
        ptype[a], ptype[d] = ta, td
        try:
            out = state.resolve(a, d)
        finally:
            board[a_sq] = 0
            board[old_sq] = a
            square[a] = old_sq
            ptype[a], ptype[d] = old_ta, old_td
        self.cache[key] = out
        return out

    def gain(self, state, a: int, d: int, ta: int, td: int, a_sq: int, worth_a: tuple | None = None,
             worth_d: tuple | None = None) -> float:
        """Material change for the attacker's side of that fight (positive: good for the attacker); the
        pieces are worth ``piece_values`` unless ``worth_a`` / ``worth_d`` (by type) say otherwise."""
        values = piece_values(self.variant)
        out = self.outcome(state, a, d, ta, td, a_sq)
        g = 0.0
        if DEFENDER in out.removed:
            g += (worth_d or values)[td]
        if ATTACKER in out.removed:
            g -= (worth_a or values)[ta]
        if out.retreat == DEFENDER:
            g += 0.1
        elif out.retreat == ATTACKER:
            g -= 0.1
        return g
