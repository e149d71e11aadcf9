"""Fear what may be hidden: per square, what ending a move there probably costs one of our piece types,
from the variant's declared effects and actions and the Beliefs about each enemy piece.

For our piece type ``t`` and every square, :class:`DangerMap` gives

- ``destroy``: the probability that a piece of type ``t`` ending its move there is removed by an enemy
  piece's automatic effect (an anti-aircraft zone, a Mine's blast...);
- ``backfire``: the expected worth of enemy pieces it would destroy there instead (a Bomber next to a gun);
- ``reveal``: the probability that it is revealed there (an Observation Balloon's sight, or a Searchlight
  that may illuminate it on the next turn);
- ``fire``: the probability that some enemy piece can fire at it there (within range of a fire action
  that targets its type) once it is revealed.

Every enemy piece counts with the probability of each type it may be (a revealed piece with certainty);
sources are taken as independent. Nothing here is game-specific: it reads ``variant.rules["effects"]``.
"""

from __future__ import annotations

from ..moves import FIRE, ILLUMINATE
from .values import _cached


def _balls(variant, radius: int) -> tuple:
    """``[square]`` -> squares within ``radius`` orthogonal steps (Manhattan distance), cached."""
    cache = _cached(variant)
    key = ("ball", radius)
    if key not in cache:
        grid = variant.grid
        cache[key] = tuple(tuple(b for b in range(grid.size) if grid.manhattan(a, b) <= radius)
                           for a in range(grid.size))
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

    def _build(self, t: int) -> tuple:
        size = self.variant.grid.size
        spared_d = [1.0] * size  # probability that no source destroys
        spared_r = [1.0] * size
        spared_f = [1.0] * size
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
                        elif effect.hits(t):
                            target = spared_d if effect.kind == "destroy" else spared_r
                            for a in squares[sq]:
                                target[a] *= 1.0 - p
                for act in tables.actions[g]:
                    if act.kind == FIRE and t in act.targets:
                        for a in _balls(self.variant, act.range)[sq]:
                            spared_f[a] *= 1.0 - p
                    elif act.kind == ILLUMINATE:
                        for a in self.variant.grid.within_king(sq, act.radius):
                            spared_r[a] *= 1.0 - p
        return ([1.0 - x for x in spared_d], backfire, [1.0 - x for x in spared_r], [1.0 - x for x in spared_f])

    def arrival(self, t: int, sq: int, worth: float, revealed: bool) -> float:
        """Expected material change of our piece of type ``t`` (worth ``worth``) ending a move on ``sq``:
        lost to effects, gained by backfire, and exposed to fire when revealed (or likely to be there)."""
        destroy, backfire, reveal, fire = self.of(t)
        seen = 1.0 if revealed else reveal[sq]
        survive = 1.0 - destroy[sq]
        return -destroy[sq] * worth + backfire[sq] - survive * seen * fire[sq] * worth

    def standing(self, t: int, sq: int, worth: float, revealed: bool) -> float:
        """The exposure of a piece that stays on ``sq`` (fire only: effects act on arrival)."""
        if not revealed:
            return 0.0
        return -self.of(t)[3][sq] * worth
