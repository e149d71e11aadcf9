"""What the public events say about the enemy's hidden pieces besides their own moves, read from one
player's Observation alone (for :func:`.beliefs.infer_beliefs`):

- **spared by effects** (:func:`spared_by_effects`, certain): one of our pieces that ended its own move
  within reach of a hidden enemy piece and came through that move (not removed, or not revealed where the
  effect reveals) shows that the piece is of no type whose automatic effect would have destroyed or
  revealed ours there; a piece of a type that an effect backfires on (a Bomber beside a gun) shows it by
  the enemy piece's survival. A Dover Patrol ship that ended its move beside an unmoved piece and is still
  afloat was not beside a Mine; an Aviation aircraft that ended next to one and flies on was not beside a
  gun.
- **held fire** (:func:`held_fire`, a weight): a piece that let our seen pieces stand within a gun
  type's range, turn after turn, without a shot is probably not a gun of that type. A gun may keep quiet
  to stay hidden or have had a better move, so the evidence weighs (``HOLD`` per turn, down to
  ``HOLD_FLOOR``), it does not exclude.

Where every piece stood on each turn is read back from the public move events, what
the enemy has seen of ours from the public reveals. Nothing here is game-specific: the effects, their
reach and the fire actions are the variant's data (``variant.rules["effects"]``).
"""

from __future__ import annotations

from ..events import Acted, Attacked, GameOver, Moved, Removed, Retreated, Revealed
from ..moves import FIRE
from ..observe import Observation
from .setup_prior import start_squares
from .values import _cached

HOLD = 0.5  # a type's weight for a hidden piece, times this for every turn it held fire as that type could have
HOLD_FLOOR = 0.05  # the least weight held fire leaves a type (a gun may keep quiet to stay hidden)


def _replay(observation: Observation, variant):
    """Yield ``(events, where)`` for every ply: the ply's events and ``{handle: square index}`` of every
    piece as it stood before them (updated from the moves and retreats once the consumer has looked)."""
    index = variant.grid.index
    where = {h: index[s] for h, s in start_squares(observation).items()}
    for ply_events in observation.events:
        yield ply_events, where
        for e in ply_events:
            if type(e) is Moved or type(e) is Retreated:
                where[e.handle] = index[e.dest]


def _sides(observation: Observation, variant) -> tuple:
    """``(ours, hidden)``: our pieces' types by handle (on the board or removed) and the handles of the
    enemy's pieces on the board whose types we have not seen."""
    me = observation.player
    ours = {p.handle: variant.type_index[p.type] for p in observation.pieces + observation.removed
            if p.owner == me and p.type is not None}
    hidden = [p.handle for p in observation.pieces if p.owner != me and p.type is None]
    return ours, hidden


def spared_by_effects(observation: Observation, variant) -> dict:
    """``{handle: frozenset of type ids}``: the types each hidden enemy piece cannot be, because one of our
    pieces ended its own move within reach of it and that type's effect would have shown (see the module
    docstring). A move that won the game is left out: a winning arrival meets no effect."""
    tables = variant.rules.get("effects")
    ours, hidden = _sides(observation, variant)
    if tables is None or not hidden:
        return {}
    index, out_of_sight, rules = variant.grid.index, set(hidden), _effect_rules(variant)
    out: dict = {}
    seen: set = set()  # our pieces the enemy has seen
    at = {index[s]: h for h, s in start_squares(observation).items() if h in out_of_sight}
    for ply_events in observation.events:
        arrivals = [e for e in ply_events if type(e) is Moved and e.handle in ours]
        if arrivals and not any(type(e) is GameOver for e in ply_events):
            gone = {e.handle for e in ply_events if type(e) is Removed}
            shown = {e.handle for e in ply_events if type(e) is Revealed}
            for e in arrivals:
                p, t, d = e.handle, ours[e.handle], index[e.dest]
                for squares, killed, backfired, spotted in rules:
                    near = [at[a] for a in squares[d] if a in at]
                    if not near:
                        continue
                    ruled = backfired[t] | (killed[t] if p not in gone else set()) | (
                        spotted[t] if p not in seen and p not in shown else set())
                    for q in near:
                        out.setdefault(q, set()).update(ruled)
        for e in ply_events:
            if type(e) is Revealed and e.handle in ours:
                seen.add(e.handle)
            elif (type(e) is Moved or type(e) is Retreated) and e.handle in out_of_sight:
                del at[index[e.origin]]
                at[index[e.dest]] = e.handle
    return {h: frozenset(types) for h, types in out.items() if types}


def _effect_rules(variant) -> list:
    """Per reach of the variant's effects, ``(squares, killed, backfired, spotted)``: by our type, the
    enemy type ids ruled out beside an arrival by our piece's survival, by the enemy piece's survival (an
    effect that backfires on ours) and by our piece staying unseen (a reveal effect); cached per variant."""
    cache = _cached(variant)
    if "spared" not in cache:
        ids = [t.id for t in variant.types]
        rules = []
        for squares, by_type in variant.rules["effects"].reaches:
            killed, backfired, spotted = ([set() for _ in ids] for _ in range(3))
            for g, effects in enumerate(by_type):
                for effect in effects:
                    for t in range(len(ids)):
                        if t in effect.backfire:
                            backfired[t].add(ids[g])
                        elif effect.destroys(t):
                            killed[t].add(ids[g])
                        elif effect.kind == "reveal" and effect.hits(t):
                            spotted[t].add(ids[g])
            rules.append((squares, killed, backfired, spotted))
        cache["spared"] = rules
    return cache["spared"]


def held_fire(observation: Observation, variant) -> dict:
    """``{handle: {type id: ratio}}`` for the hidden enemy pieces that held fire: a type that can fire
    (an action of kind ``fire`` in the variant's data) gets ``HOLD ** n``, at least ``HOLD_FLOOR``, where
    ``n`` counts the enemy's turns without a shot on which that piece, had it been of that type, could
    have fired at one of our pieces (of a type the shot targets, seen by the enemy where the shot needs
    it, within its range of the piece's square then)."""
    tables = variant.rules.get("effects")
    if tables is None:
        return {}
    guns = [(variant.types[t].id, act) for t, acts in enumerate(tables.actions) for act in acts if act.kind == FIRE]
    ours, hidden = _sides(observation, variant)
    if not guns or not hidden:
        return {}
    groups: dict = {}  # guns that shoot at the same pieces share one look at where those stand
    for g, (_gid, act) in enumerate(guns):
        groups.setdefault((act.targets, act.revealed_only), []).append((g, act.range))
    size, far = variant.grid.size, _manhattan(variant)
    me = observation.player
    alive, seen = set(ours), set()
    missed = {h: [0] * len(guns) for h in hidden}
    for ply_events, where in _replay(observation, variant):
        mover = next((e.player for e in ply_events if isinstance(e, Moved | Acted | Attacked)), me)
        if mover != me and not any(isinstance(e, Acted) and e.kind == FIRE for e in ply_events):
            for (targets, revealed_only), ranged in groups.items():
                marks = [where[h] * size for h in (seen & alive if revealed_only else alive) if ours[h] in targets]
                if marks:
                    for h, counts in missed.items():
                        s = where[h]
                        near = min(far[m + s] for m in marks)
                        for g, reach in ranged:
                            if near <= reach:
                                counts[g] += 1
        for e in ply_events:
            if isinstance(e, Removed):
                alive.discard(e.handle)
            elif isinstance(e, Revealed) and e.handle in ours:
                seen.add(e.handle)
    out = {}
    for h, counts in missed.items():
        if any(counts):
            out[h] = {gid: max(HOLD_FLOOR, HOLD ** n) for (gid, _act), n in zip(guns, counts, strict=True) if n}
    return out


def _manhattan(variant) -> list:
    """``[a * size + b]`` -> orthogonal steps from square ``a`` to ``b``, cached per variant."""
    cache = _cached(variant)
    if "manhattan" not in cache:
        grid = variant.grid
        cache["manhattan"] = [grid.manhattan(a, b) for a in range(grid.size) for b in range(grid.size)]
    return cache["manhattan"]
