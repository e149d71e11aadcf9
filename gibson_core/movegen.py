"""Move tables compiled once per variant: for every piece movement and every origin square, the
destinations with their ready-made Move objects and the attack Moves from each destination.

Generating legal moves is then a walk over these tables with occupancy checks; no Move is built and
no hook is called per square.
"""

from __future__ import annotations

import weakref

from .moves import Move
from .pieces import ANY_SIDE, DIAGONAL, IMMOBILE, IN_LINE, JUMP, ONTO, SLIDE, STEP

RULE_HOOKS = ("gibson_init_state", "gibson_extra_moves", "gibson_filter_moves", "gibson_arrival_wins", "gibson_on_arrival",
              "gibson_after_move", "gibson_game_result", "gibson_no_legal_moves", "gibson_resolve_combat",
              "gibson_on_removed", "gibson_apply_action", "gibson_vector_setup", "gibson_vector_expect")

_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class MoveTables:
    """Per-variant tables: ``by_type[t] = (slides, table, can_attack, long_needs_attack)``, zone confinement,
    path tracking for "arrive via a path" wins, and which rule hooks the variant implements.

    ``special[t]`` is None for pieces that attack after moving to any side (the family rule), else
    ``(onto, slides, slide_attack, long_needs_attack, rows)`` for pieces that attack by moving onto the enemy
    or slide and attack only in line (or only after one square): ``rows[o]`` is a tuple of rays (a stepping
    piece's destinations are rays of one square), each a tuple of ``(d, plain move, attacks)`` where
    ``attacks`` is ``((a, move), ...)``: for ``onto``, the move onto ``d`` itself (``e4xe5``, taken when ``d``
    holds an enemy); in line, the attack on the next square of the ray; ``none``, the attack pattern's.
    """

    @classmethod
    def for_variant(cls, variant) -> MoveTables:
        tables = _CACHE.get(variant)
        if tables is None:
            tables = _CACHE[variant] = cls(variant)
        return tables

    def __init__(self, variant):
        grid = variant.grid
        names = grid.names
        # per square: can a piece ever stand there (impassable terrain is never entered)
        passable = self.passable = tuple(variant.kinds[k].passable if k in variant.kinds else True
                                         for k in variant.cell_kind)
        interned: dict[tuple, Move] = {}

        def move(o: int, d: int, a: int = -1) -> Move:
            key = (o, d, a)
            mv = interned.get(key)
            if mv is None:
                mv = interned[key] = Move(names[o], names[d], names[a] if a >= 0 else None)
            return mv

        def entry(o: int, d: int, attack_pattern: str) -> tuple:
            around = grid.orth[d] if attack_pattern == "orthogonal" else grid.diag[d] if attack_pattern == "diagonal" else ()
            return (d, move(o, d), tuple((a, move(o, d, a)) for a in around if a != o))

        built: dict[tuple, tuple] = {}

        def table(kind: str, distance: int, attack_pattern: str):
            key = (kind, distance, attack_pattern)
            if key in built:
                return built[key]
            rows = []
            for o in range(grid.size):
                if kind == STEP:
                    dests = grid.orth[o]
                elif kind == DIAGONAL:
                    dests = grid.diag[o]
                elif kind == JUMP:
                    dests = tuple(j for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0))
                                  if (j := grid.offset(o, df * distance, dr * distance)) is not None)
                else:  # SLIDE: rays, each cut at the first impassable square
                    rays = []
                    for ray in grid.rays[o]:
                        cut = []
                        for d in ray:
                            if not passable[d]:
                                break
                            cut.append(entry(o, d, attack_pattern))
                        rays.append(tuple(cut))
                    rows.append(tuple(rays))
                    continue
                rows.append(tuple(entry(o, d, attack_pattern) for d in dests if passable[d]))
            built[key] = tuple(rows)
            return built[key]

        self.by_type = tuple(
            (t.movement.kind == SLIDE, None if t.movement.kind == IMMOBILE else table(t.movement.kind, t.movement.distance, t.attack),
             t.can_attack, t.movement.long_needs_attack)
            for t in variant.types
        )
        self.special = tuple(self._special(t, move, table) for t in variant.types)
        self.confined = tuple(
            tuple(variant.zone(t.confined_to, player) if t.confined_to else None for t in variant.types)
            for player in variant.players
        )
        # A piece's own moves read the squares it can reach and the squares next to those; for pieces that
        # do not slide that is within ``reach`` king-moves. Sliders read whole lines, up to the first blocker.
        # A slider remembers, as a bit mask, the squares its moves read (``GameState._moves_of``).
        reach = 1 + max((t.movement.distance if t.movement.kind == JUMP else 1) for t in variant.types)
        self.influence = tuple(tuple(grid.within_king(sq, reach)) + (sq,) for sq in range(grid.size))
        self.bit = tuple(1 << sq for sq in range(grid.size))
        self.around_mask = tuple(sum(1 << n for n in grid.within_king(sq, 1)) | (1 << sq) for sq in range(grid.size))
        self.slider_types = frozenset(i for i, t in enumerate(variant.types) if t.movement.kind == SLIDE)
        self.win_types = tuple(
            frozenset(t for entries in wins.values() for types, _p, _r in entries for t in types)
            for wins in variant.win_arrive
        )
        # (table, can_attack, may_win) for piece types whose moves need no check beyond empty squares, enemies
        # next to them and winning squares (no slide, zone limit or compulsory attack): generated inline every
        # time, as that costs no more than a cache. None sends a type to the cached general generator.
        self.lean = tuple(
            tuple(
                (table_, can_attack, t in winners) if table_ is not None and not slides and confined[t] is None
                and not variant.compulsory_attack and self.special[t] is None else None
                for t, (slides, table_, can_attack, _long) in enumerate(self.by_type)
            )
            for confined, winners in zip(self.confined, self.win_types, strict=True)
        )
        # whether any cached piece steps rather than slides (its moves are forgotten by ``influence``)
        self.cached_steppers = any(
            plan is None and table_ is not None and not slides
            for plans in self.lean for plan, (slides, table_, _a, _l) in zip(plans, self.by_type, strict=True)
        )
        self.path_ids: dict[tuple, int] = {}
        self.path_entries: dict[tuple, int] = {}
        self.path_inner: list[frozenset] = []
        used = {path for wins in variant.win_arrive for entries in wins.values() for _t, path, _r in entries if path}
        for path in sorted(used):
            k = len(self.path_inner)
            self.path_ids[path] = k
            self.path_entries[(path[0], path[1])] = k
            self.path_inner.append(frozenset(path[1:-1]))
        pm = variant.plugin_manager
        self.hooks_present = {
            name: bool(pm is not None and hasattr(pm.hook, name) and getattr(pm.hook, name).get_hookimpls())
            for name in RULE_HOOKS
        }
        self.move = move

    @staticmethod
    def _special(t, move, table) -> tuple | None:
        """The ``special`` entry of one piece type (see the class docstring)."""
        kind = t.movement.kind
        slides = kind == SLIDE
        onto = t.attack_mode == ONTO
        if kind == IMMOBILE or not (onto or (slides and t.slide_attack != ANY_SIDE)):
            return None
        base = table(kind, t.movement.distance, t.attack)
        rows = []
        for o, row in enumerate(base):
            rays = row if slides else tuple((e,) for e in row)
            out = []
            for ray in rays:
                cut = []
                for i, (d, plain, attacks) in enumerate(ray):
                    if onto:
                        attacks = ((d, move(o, d, d)),)
                    elif t.slide_attack == IN_LINE:
                        attacks = ((ray[i + 1][0], move(o, d, ray[i + 1][0])),) if i + 1 < len(ray) else ()
                    cut.append((d, plain, attacks))
                out.append(tuple(cut))
            rows.append(tuple(out))
        return (onto, slides, t.slide_attack, t.movement.long_needs_attack, tuple(rows))


__all__ = ["MoveTables", "SLIDE", "STEP", "DIAGONAL", "JUMP", "IMMOBILE"]
