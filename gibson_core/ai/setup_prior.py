"""Where each type of piece is likely to start: the beliefs' prior from set-up statistics.

A player who knows a game knows how its set-ups usually look: the Flag on the back rank behind its Mines,
the Troop Carriers screened at the back, Scouts in front. :func:`setup_ratios` reads that from the variant
itself: it draws ``SAMPLES`` set-ups for the enemy from the agents' own set-up planner
(:func:`heuristic.planned_setup`, with a generator seeded by the variant and the player only, so every
process gets the same table) and counts, square by square, how much more or less often each type stands
there than the army's share of it would say. Mixed with the uniform prior (``share`` of the statistics,
the rest uniform) no set-up is ever ruled out: a ratio never falls below ``1 - share``.

:func:`start_squares` follows the public move events back to where each enemy piece stood at the start,
which is the square whose ratios apply to it however far it has moved since (a piece that moved is still
told apart by what may start where, among the mobile types).
"""

from __future__ import annotations

import random
from collections import Counter

from ..errors import GibsonError
from ..events import Moved, Retreated
from ..observe import Observation

SAMPLES = 256  # set-ups drawn per variant and player: about 0.6 s for the largest shipped army, once
SHRINK = 32  # pseudo-set-ups of the army's plain shares added to each square's counts (see setup_frequencies)
_TABLES: dict = {}  # (variant, player) -> setup_frequencies
_RATIOS: dict = {}  # (variant, player, share) -> setup_ratios


def setup_frequencies(variant, player: str) -> dict:
    """``{square name: {type id: share of the sampled set-ups with that type there, given a piece there}}``
    for ``player``'s set-ups by the agents' planner (cached; empty when the planner cannot set up).

    Each square's counts get ``SHRINK`` set-ups' worth of the army's plain shares added: a type with one
    piece stands on a given square in a handful of the samples, and raw counts that small are mostly
    noise (L'Attaque's Commander-in-Chief, Brigadier-General and Spy were believed less well with them
    than without any prior); shrunk, only what the samples show again and again moves the beliefs."""
    key = (variant, player)
    table = _TABLES.get(key)
    if table is None:
        from .heuristic import planned_setup  # the planner scores with what the beliefs feed: import late

        rng = random.Random(f"gibson setup prior {variant.name} {player}")
        counts: dict = {}
        try:
            for _ in range(SAMPLES):
                for square, type_id in planned_setup(variant, player, rng).items():
                    counts.setdefault(square, Counter())[type_id] += 1
        except GibsonError:  # a variant whose set-ups the planner cannot make: no statistics, no prior
            counts = {}
        shares = army_shares(variant)
        table = _TABLES[key] = {sq: {t: (c[t] + SHRINK * b) / (c.total() + SHRINK) for t, b in shares.items()}
                                for sq, c in counts.items()}
    return table


def setup_ratios(variant, player: str, share: float) -> dict:
    """``{square name: {type id: ratio}}``: how much likelier each type is to start on each square of
    ``player``'s set-up than its share of the army says, ``share`` of it from the set-up statistics and
    the rest uniform (1 everywhere). ``share`` 0 gives no table (no prior)."""
    if share <= 0:
        return {}
    key = (variant, player, share)
    table = _RATIOS.get(key)
    if table is None:
        keep, shares = 1.0 - min(share, 1.0), army_shares(variant)
        table = _RATIOS[key] = {sq: {t: keep + (1.0 - keep) * freq.get(t, 0.0) / b for t, b in shares.items()}
                                for sq, freq in setup_frequencies(variant, player).items()}
    return table


def army_shares(variant) -> dict:
    """``{type id: its share of the army}`` for every type the army has: the uniform prior's odds."""
    total = sum(t.count for t in variant.types) or 1
    return {t.id: t.count / total for t in variant.types if t.count}


def start_squares(observation: Observation) -> dict:
    """``{handle: square name}``: where each piece on the board or removed stood when the game began, read
    back from the public move events (the origin of its first move or retreat, else where it is now)."""
    start: dict = {}
    for ply_events in observation.events:
        for e in ply_events:
            if isinstance(e, Moved | Retreated) and e.handle not in start:
                start[e.handle] = e.origin
    for piece in observation.pieces + observation.removed:
        start.setdefault(piece.handle, piece.square)
    return start
