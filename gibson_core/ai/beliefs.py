"""Beliefs: what each unrevealed enemy piece can still be, from one player's Observation alone.

Evidence used, all public to the viewer:

- the counts of each enemy type still unaccounted for (types the viewer has seen are taken out; a piece
  that left the board unseen still used up one of the unknown pieces);
- identities seen in combat or otherwise revealed, followed by handle as the pieces move;
- a piece that moved cannot be of an immobile type (``movement.kind == "none"``);
- a piece that moved several squares in one line is a slider (or a jumper of exactly that distance), a
  diagonal step needs a diagonal mover;
- a piece seen outside a type's confinement zone (``confined_to``, e.g. guns kept to their own half) is
  not of that type;
- a piece is of no type whose automatic effect one of our pieces came through beside it (a ship still
  afloat after ending its move next to it was not next to a Mine: :func:`.evidence.spared_by_effects`);
- a piece that held its fire is probably not a gun (:func:`.evidence.held_fire`): each enemy turn without
  a shot while one of our pieces that a gun of some type could have shot at (seen, of a type it targets)
  stood within that type's range of the piece makes the type ``HOLD`` times less likely for it (down to
  ``HOLD_FLOOR``). Not a certainty: a gun may hold its fire to stay hidden, or have had a better move.

Marginal probabilities come from balancing the pieces-by-types possibility matrix so every piece sums to 1
and every type to its remaining count (Sinkhorn scaling); :meth:`Beliefs.sample` draws a full assignment
consistent with every constraint, for search.

``beliefs(observation, variant)`` is the front-end friendly form: ``{handle: {type id: probability}}``.
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect
from collections import Counter
from itertools import accumulate

import attrs

from ..events import Moved
from ..observe import Observation
from ..pieces import DIAGONAL, IMMOBILE, JUMP, SLIDE, STEP
from .evidence import held_fire, spared_by_effects
from .setup_prior import start_squares


def can_travel(piece_type, grid, origin: int, dest: int) -> bool:
    """True when a piece of ``piece_type`` can go from ``origin`` to ``dest`` in one ordinary move (by its
    movement kind, ignoring occupancy)."""
    kind = piece_type.movement.kind
    (f0, r0), (f1, r1) = grid.coords(origin), grid.coords(dest)
    df, dr = abs(f1 - f0), abs(r1 - r0)
    straight = (df == 0) != (dr == 0)
    if kind == STEP:
        return straight and df + dr == 1
    if kind == DIAGONAL:
        return df == dr == 1
    if kind == JUMP:
        return straight and df + dr == piece_type.movement.distance
    if kind == SLIDE:
        return straight
    return kind != IMMOBILE


@attrs.define
class Beliefs:
    """Possible types of every unrevealed enemy piece, by handle.

    ``allowed[handle]`` is the set of type ids still possible for that piece; ``remaining`` counts each type
    not yet seen; ``unseen_removed`` is how many enemy pieces left the board without being identified (they
    absorb part of ``remaining``, with no constraint beyond their own moves). ``prior[handle]``, where
    given, weighs each type by how much likelier it is to have started where that piece started
    (:mod:`.setup_prior`) and how often the piece held the fire that type could have shot
    (:func:`.evidence.held_fire`); the marginals and the samples then follow it as far as the counts allow.
    """

    player: str
    allowed: dict  # handle -> frozenset(type id)
    remaining: dict  # type id -> count not yet identified
    unseen_removed: dict  # handle -> frozenset(type id), removed enemy pieces never identified
    prior: dict = attrs.Factory(dict)  # handle -> {type id: ratio}: set-up statistics and held fire (1: none)
    _marginals: dict | None = None

    # -- probabilities -------------------------------------------------------------------------------
    def marginals(self) -> dict:
        """``{handle: {type id: probability}}`` for every hidden enemy piece on the board."""
        if self._marginals is None:
            self._marginals = self._balance()
        return self._marginals

    def _balance(self, rounds: int = 60) -> dict:
        rows = {**self.allowed, **self.unseen_removed}
        types = [t for t, n in self.remaining.items() if n > 0]
        if not rows or not types:
            return {h: {} for h in self.allowed}
        # Pieces with the same possible types and prior share one row of weights: balance the classes.
        key = {h: self._row_class(h, a, types) for h, a in rows.items()}
        classes = Counter(key.values())
        # Type order, never a frozenset's (string hashes change between processes): sums stay identical.
        cols = {c: [i for i, t in enumerate(types) if t in c[0]] for c in classes}
        weight = {c: list(c[1] or itertools.repeat(1.0, len(cols[c]))) for c in classes}
        total = sum(self.remaining[t] for t in types)
        target = [self.remaining[t] * len(rows) / total for t in types]
        for _ in range(rounds):
            col = [0.0] * len(types)
            for c, w in weight.items():
                n = classes[c]
                for i, x in zip(cols[c], w, strict=True):
                    col[i] += x * n
            scale = [target[i] / col[i] if col[i] > 0 else 1.0 for i in range(len(types))]
            for c, w in weight.items():
                for j, i in enumerate(cols[c]):
                    w[j] *= scale[i]
                s = sum(w)
                for j in range(len(w)):
                    w[j] /= s
        return {h: {types[i]: x for i, x in zip(cols[key[h]], weight[key[h]], strict=True)} for h in self.allowed}

    def _row_class(self, handle: int, allowed: frozenset, types: list) -> tuple:
        """``(possible types, their prior ratios in type order or None)``: pieces alike in both share one
        row of the balance."""
        possible = frozenset(allowed & set(types)) or frozenset(types)
        ratios = self.prior.get(handle)
        if not ratios:
            return possible, None
        return possible, tuple(ratios.get(t, 1.0) for t in types if t in possible)

    def most_likely(self, handle: int) -> str | None:
        """The likeliest type of a hidden piece (None for an unknown handle)."""
        dist = self.marginals().get(handle)
        return max(dist, key=dist.get) if dist else None

    # -- sampling ------------------------------------------------------------------------------------
    def sample(self, rng: random.Random, tries: int = 20) -> dict:
        """A full assignment ``{handle: type id}`` of the hidden enemy pieces on the board that respects
        every constraint and the remaining counts (most constrained pieces first; if the counts cannot be
        met after ``tries`` attempts, the last attempt relaxes constraints rather than fail)."""
        rows = {**self.allowed, **self.unseen_removed}
        order = sorted(rows, key=lambda h: (len(rows[h]), h))
        types = list(self.remaining)  # the variant's type order: choices must not follow string hashes
        kinds = [[t for t in types if t in rows[h]] for h in order]
        draw = rng.random
        for attempt in range(tries):
            left = Counter(self.remaining)
            out = {}
            ok = True
            for h, allowed in zip(order, kinds, strict=True):
                options = [t for t in allowed if left[t] > 0]
                if not options:
                    if attempt < tries - 1:
                        ok = False
                        break
                    options = [t for t, n in left.items() if n > 0] or sorted(rows[h])
                ratios = self.prior.get(h)
                weights = list(accumulate(left[t] * ratios.get(t, 1.0) for t in options) if ratios
                               else accumulate(left[t] for t in options))
                if weights[-1] > 0:  # rng.choices(options, weights), drawn exactly as it draws
                    t = options[bisect(weights, draw() * (weights[-1] + 0.0), 0, len(options) - 1)]
                else:
                    t = rng.choice(options)
                left[t] -= 1
                out[h] = t
            if ok:
                return {h: out[h] for h in self.allowed}
        return {h: out.get(h) or sorted(self.allowed[h])[0] for h in self.allowed}


def infer_beliefs(observation: Observation, variant, prior: dict | None = None, held: bool = True) -> Beliefs:
    """Beliefs of ``observation.player`` about every unrevealed enemy piece; ``prior`` (``{square name:
    {type id: ratio}}``, :func:`.setup_prior.setup_ratios`) weighs each piece's types by where it started,
    and with ``held`` the fire each piece held weighs its gun types (:func:`.evidence.held_fire`)."""
    me = observation.player
    grid = variant.grid
    type_ids = [t.id for t in variant.types]
    remaining = Counter({t.id: t.count for t in variant.types})
    hidden_on_board = []
    hidden_removed = []
    for gone, pieces in ((False, observation.pieces), (True, observation.removed)):
        for piece in pieces:
            if piece.owner == me:
                continue
            if piece.type is not None:
                remaining[piece.type] -= 1
            elif gone:
                hidden_removed.append(piece.handle)
            else:
                hidden_on_board.append(piece)
    possible = {h: set(type_ids) for h in [p.handle for p in hidden_on_board] + hidden_removed}
    mobile = {t.id for t in variant.types if t.movement.kind != IMMOBILE}
    enemy = next((p for p in variant.players if p != me), me)
    confined = [(t.id, variant.zone(t.confined_to, enemy)) for t in variant.types if t.confined_to]
    index = grid.index

    def outside(square: str) -> set:
        return {t for t, zone in confined if zone and index[square] not in zone}

    for handle, ruled_out in spared_by_effects(observation, variant).items():
        possible[handle] = (possible[handle] - ruled_out) or possible[handle]
    for piece in hidden_on_board:
        if piece.moved:
            possible[piece.handle] &= mobile
        if confined:
            possible[piece.handle] -= outside(piece.square)
    travels: dict = {}  # (origin, dest) -> the types that can make that move
    for ply_events in observation.events:
        for e in ply_events:
            if isinstance(e, Moved) and e.player != me and e.handle in possible:
                o, d = grid.index[e.origin], grid.index[e.dest]
                fits = travels.get((o, d))
                if fits is None:
                    fits = travels[o, d] = {t.id for t in variant.types if can_travel(t, grid, o, d)}
                narrowed = possible[e.handle] & fits & mobile
                if confined:
                    narrowed -= outside(e.dest) | outside(e.origin)
                # Plugins may grant moves the movement kind does not describe: never narrow to nothing.
                possible[e.handle] = narrowed or (possible[e.handle] & mobile) or possible[e.handle]
    remaining = {t: max(0, n) for t, n in remaining.items()}
    alive = {t for t, n in remaining.items() if n > 0}
    allowed = {}
    for h, types in possible.items():
        allowed[h] = frozenset(types & alive) or frozenset(alive)
    on_board = {p.handle for p in hidden_on_board}
    weights = {}
    if prior:
        start = start_squares(observation)
        weights = {h: prior[start[h]] for h in possible if start.get(h) in prior}
    if held:
        for h, ratios in held_fire(observation, variant).items():
            before = weights.get(h, {})
            weights[h] = {**before, **{t: before.get(t, 1.0) * r for t, r in ratios.items()}}
    return Beliefs(
        player=me,
        allowed={h: s for h, s in allowed.items() if h in on_board},
        remaining=remaining,
        unseen_removed={h: s for h, s in allowed.items() if h not in on_board},
        prior=weights,
    )


def beliefs(observation: Observation, variant) -> dict:
    """``{handle: {type id: probability}}`` for every unrevealed enemy piece on the board, as the viewer
    of ``observation`` may infer it (for front ends: show the likely identities of hidden pieces)."""
    return infer_beliefs(observation, variant).marginals()
