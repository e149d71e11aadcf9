"""Fear what may be hidden: per square, what ending a move there probably costs one of our piece types,
from the variant's declared effects and actions and the Beliefs about each enemy piece.

For our piece type ``t`` and every square, :class:`DangerMap` gives

- ``destroy``: the probability that a piece of type ``t`` ending its move there is removed by an enemy
  piece's automatic effect (an anti-aircraft zone, a Mine's blast...);
- ``backfire``: the expected worth of enemy pieces it would destroy there instead (a Bomber next to a gun);
- ``reveal``: the probability that it is revealed there (an Observation Balloon's sight, or a Searchlight
  that may illuminate it on the next turn);
- ``fire``: the expected number of enemy pieces that can fire at it there (within range of a fire action
  that targets its type) once it is revealed: not the chance that one can, which is near 1 everywhere
  the enemy's many hidden pieces reach and so shows no way out, while their number falls square by square.

Being within range of a gun is not being shot at once: the shot may come on any turn the piece lingers
there, or never if it gets away or is screened. So the risk of a square (:meth:`DangerMap.loss`) charges
the two hazards one after the other rather than as one event: what destroys the piece on arrival, plus
:data:`SHOT` times the chance that it is seen times the number of guns in range. A revealed piece standing in range thus
still pays for every added risk of its move (had the shot been counted as certain death, any further gamble
would have looked free) and gains by leaving the range of the guns that can fire at it.

Every enemy piece counts with the probability of each type it may be (a revealed piece with certainty);
sources are taken as independent. Nothing here is game-specific: it reads ``variant.rules["effects"]``.
"""

from __future__ import annotations

from ..movegen import MoveTables
from ..moves import FIRE, ILLUMINATE
from ..pieces import DIAGONAL, IMMOBILE, JUMP, ONTO, SLIDE, STEP
from .values import _cached

SHOT = 1.0  # weight of lingering, seen, within range of a gun, against a certain loss on arrival


def _balls(variant, radius: int) -> tuple:
    """``[square]`` -> squares within ``radius`` orthogonal steps (Manhattan distance), cached."""
    cache = _cached(variant)
    key = ("ball", radius)
    if key not in cache:
        grid = variant.grid
        cache[key] = tuple(tuple(b for b in range(grid.size) if grid.manhattan(a, b) <= radius)
                           for a in range(grid.size))
    return cache[key]


def strike_squares(variant, player: int) -> tuple:
    """``[type][square]`` -> the squares from which a piece of that type, ``player``'s, can attack a piece
    standing on the square with its next move (occupancy ignored), by its movement, attack pattern, attack
    mode and confinement: an after-move attacker first moves beside the target by its pattern, an onto
    attacker moves onto it, and a confined one (Aviation's guns, which never enter the enemy's half) only
    within its zone. Cached per variant and player; ``[-1][square]`` is the union over types."""
    cache = _cached(variant)
    key = ("strikes", player)
    if key not in cache:
        grid = variant.grid
        zones = MoveTables.for_variant(variant).confined[player]

        def into(kind, a: int) -> tuple:  # squares a single move of ``kind`` goes from to reach ``a``
            if kind == STEP:
                return grid.orth[a]
            if kind == DIAGONAL:
                return grid.diag[a]
            if kind == SLIDE:
                return tuple(sq for ray in grid.rays[a] for sq in ray)
            if kind == JUMP:
                return grid.jumps[a]
            return ()

        table = []
        for pt, zone in zip(variant.types, zones, strict=True):
            kind, near = pt.movement.kind, {"orthogonal": grid.orth, "diagonal": grid.diag}.get(pt.attack)
            rows = []
            for sq in range(grid.size):
                if near is None or kind == IMMOBILE:
                    rows.append(frozenset())
                elif pt.attack_mode == ONTO:
                    rows.append(frozenset(into(kind, sq)) if zone is None or sq in zone else frozenset())
                else:
                    stops = [a for a in near[sq] if zone is None or a in zone]  # where it moves to attack from
                    rows.append(frozenset(m for a in stops for m in into(kind, a)) - {sq})
            table.append(tuple(rows))
        table.append(tuple(frozenset().union(*(rows[sq] for rows in table)) for sq in range(grid.size)))
        cache[key] = tuple(table)
    return cache[key]


class DangerMap:
    """Danger of each square for our piece types in one position (see the module docstring).

    ``state`` is the agent's own guessed world, ``enemy_types(pid)`` gives ``[(type index, probability)]``
    for an enemy piece number, ``me`` is our player index. Tables are built per type on first use.
    """

    def __init__(self, variant, state, me: int, enemy_types, values):
        self.variant = variant
        self.tables = variant.rules.get("effects")
        self.state = state
        self.me = me
        self.enemy_types = enemy_types
        self.values = values
        self._by_type: dict = {}
        self._loss: dict = {}
        self._destroy: dict = {}

    @property
    def active(self) -> bool:
        """True when the variant declares effects or actions at all."""
        return self.tables is not None

    def of(self, t: int) -> tuple:
        """``(destroy, backfire, reveal, fire)`` lists by square for our type ``t``."""
        hit = self._by_type.get(t)
        if hit is None:
            hit = self._by_type[t] = self._build(t)
        return hit

    def destroy(self, t: int, sources: frozenset | None = None) -> list:
        """Per square, the probability that an effect of an enemy piece destroys our type ``t`` ending its
        move there; with ``sources``, of an enemy piece of one of those types only (the Mines, say, that
        one of our pieces can clear)."""
        key = (t, sources)
        hit = self._destroy.get(key)
        if hit is None:
            spared = [1.0] * self.variant.grid.size
            state = self.state
            for e in state.alive(1 - self.me):
                sq = state.square[e]
                for g, p in self.enemy_types(e):
                    if sources is not None and g not in sources:
                        continue
                    for squares, by_type in self.tables.reaches:
                        for effect in by_type[g]:
                            if effect.destroys(t):
                                for a in squares[sq]:
                                    spared[a] *= 1.0 - p
            hit = self._destroy[key] = [1.0 - x for x in spared]
        return hit

    def _build(self, t: int) -> tuple:
        size = self.variant.grid.size
        spared_r = [1.0] * size  # probability that no source reveals
        fire = [0.0] * size
        backfire = [0.0] * size
        tables, state = self.tables, self.state
        if tables is None:
            return [0.0] * size, backfire, [0.0] * size, [0.0] * size
        for e in state.alive(1 - self.me):
            sq = state.square[e]
            for g, p in self.enemy_types(e):
                for squares, by_type in tables.reaches:
                    for effect in by_type[g]:
                        if t in effect.backfire:
                            gain = p * self.values[g]
                            for a in squares[sq]:
                                backfire[a] += gain
                        elif effect.kind != "destroy" and effect.hits(t):
                            for a in squares[sq]:
                                spared_r[a] *= 1.0 - p
                for act in tables.actions[g]:
                    if act.kind == FIRE and t in act.targets:
                        for a in _balls(self.variant, act.range)[sq]:
                            fire[a] += p
                    elif act.kind == ILLUMINATE:
                        for a in self.variant.grid.within_king(sq, act.radius):
                            spared_r[a] *= 1.0 - p
        return self.destroy(t), backfire, [1.0 - x for x in spared_r], fire

    def loss(self, t: int, revealed: bool) -> list:
        """Per square, the risk to our piece of type ``t`` ending a move there: the chance it is destroyed on
        arrival plus ``SHOT`` times the chance it is seen (already revealed, or revealed there) times the
        number of guns in range (hazards met one after the other, so one never hides the other)."""
        key = (t, revealed)
        hit = self._loss.get(key)
        if hit is None:
            destroy, _backfire, reveal, fire = self.of(t)
            hit = self._loss[key] = [x + (1.0 if revealed else r) * f * SHOT
                                     for x, r, f in zip(destroy, reveal, fire, strict=True)]
        return hit

    def arrival(self, t: int, sq: int, worth: float, revealed: bool) -> float:
        """Expected material change of our piece of type ``t`` (worth ``worth``) ending a move on ``sq``:
        lost to effects or fire (:meth:`loss`), gained by backfire."""
        return self.of(t)[1][sq] - self.loss(t, revealed)[sq] * worth

    def standing(self, t: int, sq: int, worth: float, revealed: bool) -> float:
        """The exposure of a piece that stays on ``sq`` (fire only: effects act on arrival)."""
        if not revealed:
            return 0.0
        return -self.of(t)[3][sq] * SHOT * worth
