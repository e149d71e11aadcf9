"""The fast path: a compiled kernel (``gibson_core._kernel``, C) for variants whose rules are data only.

:func:`unsupported` is the explicit feature check: it names the first rule feature of a variant that the
kernel does not know (a Python rule hook, an unknown data key or compiled field, a rule section such as
``effects``) or None when the kernel plays the variant exactly as :class:`~gibson_core.state.GameState`
does. :class:`FastGame` is a game in the kernel with the reference engine's interface for search and
playouts (``legal_moves``, ``push``, ``pop``, ``outcome``, ``history``); :func:`batch_playouts` plays many
games with the GIL released. See docs/fastpath.md for the design and how to teach the kernel a new feature.

Random choices: the kernel runs CPython's Mersenne Twister and ``Random.choice`` bit for bit, so
:meth:`FastGame.playout` called with a ``random.Random`` picks exactly the moves the Python engine's
:func:`gibson_core.bench.random_playout` would pick and leaves the generator in the same state.

``GIBSON_FASTPATH=0`` in the environment forces the Python engine everywhere (tests use it for the fallback).
"""

from __future__ import annotations

import os
import random
import weakref
from array import array

from . import events as ev
from .combat import ATTACKER, DEFENDER
from .movegen import RULE_HOOKS, MoveTables
from .moves import FIRE, HANDOVER, ILLUMINATE, MOVE, Move
from .pieces import AFTER_MOVE, ANY_SIDE, DIAGONAL, IMMOBILE, JUMP, SLIDE, STEP
from .state import GameState, Result
from .tokens import AGROUND, FLAG_KEYS

ENV = "GIBSON_FASTPATH"
NO_TARGET = 0xFFF
MAX_SQUARES = 0xFFF  # squares are 12-bit fields of a packed move

# The data features the kernel knows. Anything else sends a variant to the Python engine (see unsupported()).
KNOWN_TOP_LEVEL = frozenset({
    "name", "title", "description", "players", "board", "terrain", "zones", "paths", "overlays", "services",
    "setup", "pieces", "combat", "transit_forfeit", "win", "lose_when_removed", "lose_when_only_left",
    "draw_when_none_left", "compulsory_attack", "options", "extends", "rename", "counts", "flags", "attack_mode"})
KNOWN_PIECE_KEYS = frozenset({"id", "name", "count", "service", "element", "tags", "value", "number", "move",
                              "attack", "confined_to", "color", "description", "effects", "actions", "emblem",
                              "attack_mode", "slide_attack"})
KNOWN_VARIANT_FIELDS = frozenset({
    "name", "title", "description", "players", "grid", "kinds", "cell_kind", "zones", "paths", "types",
    "type_index", "setup_squares", "combat_cells", "elements", "win_arrive", "lose_when_removed",
    "lose_when_only_left", "draw_when_none_left", "transit_squares", "compulsory_attack", "ply_limit", "options",
    "option_specs", "data", "source", "plugin_manager", "spec", "rules", "attack_mode", "repetition"})
KNOWN_TYPE_FIELDS = frozenset({"id", "name", "count", "service", "element", "tags", "value", "number", "movement",
                               "attack", "confined_to", "effects", "actions", "color", "description", "emblem",
                               "attack_mode", "slide_attack"})
# Known fields whose only value the kernel plays (attacking onto the enemy's square, sliders that attack only in
# line, repetition rules: the Python engine plays those)
KERNEL_VALUES = {"attack_mode": AFTER_MOVE, "slide_attack": ANY_SIDE}
KNOWN_MOVEMENT_FIELDS = frozenset({"kind", "distance", "long_needs_attack"})
KNOWN_TERRAIN_FIELDS = frozenset({"id", "name", "element", "element_by_tag", "transit", "passable", "color",
                                  "stroke"})
KNOWN_MOVE_KINDS = frozenset({STEP, DIAGONAL, JUMP, SLIDE, IMMOBILE})
KNOWN_ATTACKS = frozenset({"orthogonal", "diagonal", "none"})
KNOWN_CONDITIONS = frozenset({"across-coast", "same-element", "both-sea", "both-land", "out", "on"})
KNOWN_RULE_SECTIONS = frozenset({"effects", "flags"})  # compiled rule sections (variant.rules) the kernel plays
RULE_MODULES = {"effects": "gibson_core.effects", "flags": "gibson_core.tokens"}  # their hook modules, mirrored in C
KNOWN_FLAG_KEYS = frozenset({"base", "cannot_carry", "mined_when", "mined_pickup", "leave_enemy_base"})
KNOWN_EFFECT_FIELDS = frozenset({"kind", "targets", "spare", "backfire", "cause", "reason", "backfire_reason"})
KNOWN_ACTION_FIELDS = frozenset({"kind", "radius", "range", "targets", "revealed_only", "reveal_self", "reason"})
KNOWN_EFFECT_KINDS = frozenset({"destroy", "reveal"})
KINDS = (MOVE, ILLUMINATE, FIRE, HANDOVER)  # move kinds as the kernel numbers them

# table sections, in the kernel's order (gibson_core/_kernel.c)
SECTIONS = ("scalars", "type", "lean", "maywin", "conf", "mask", "table", "win", "windata", "pathent",
            "pathinner", "transit", "combat", "cdata", "outcome", "elem", "back", "sqlist", "effect", "reach",
            "action", "flags")
MAGIC = 0x47494231
EV_MOVED, EV_ATTACKED, EV_REVEALED, EV_REMOVED, EV_RETREATED, EV_GAMEOVER, EV_ACTED, EV_TOKEN = range(1, 9)
RM_COMBAT, RM_FORFEIT, RM_BLAST, RM_BACKFIRE, RM_FIRE, RM_AGROUND = range(6)
(K_NONE, K_ARRIVE, K_BOTH_LOST, K_LOSER, K_NONE_LEFT, K_PLY_LIMIT, K_NO_MOVES, K_FLAGS_HOME, K_STALEMATE_LOSS,
 K_STALEMATE_DRAW) = range(10)
# reveal reasons and removal causes the kernel names by number (a variant's effect causes are added after these)
WORDS = ("combat", "spotted", "illuminated", ILLUMINATE, FIRE, "", "shot down", "aground")
TOKEN_REASONS = ("left on its own Base", "picked up", "dropped", "dropped (mined)", "handed over onto its own Base",
                 "handed over")

_MODULE = None
_TRIED = False


def kernel_module():
    """The compiled ``gibson_core._kernel`` module, or None when it is not built or ``GIBSON_FASTPATH=0``."""
    global _MODULE, _TRIED
    if os.environ.get(ENV, "1").strip().lower() in ("0", "no", "off", "false", "python"):
        return None
    if not _TRIED:
        _TRIED = True
        try:
            from . import _kernel
        except ImportError:
            _kernel = None
        if _kernel is not None and getattr(_kernel, "VERSION", None) == len(SECTIONS):
            _MODULE = _kernel
    return _MODULE


def _truthy_unknowns(obj, known: frozenset) -> list[str]:
    fields = getattr(type(obj), "__attrs_attrs__", ())
    return [f.name for f in fields if f.name not in known and getattr(obj, f.name)]


def _foreign_hooks(variant) -> list[str]:
    """Rule hooks implemented by anything but the core modules of the rule sections the kernel mirrors."""
    pm = variant.plugin_manager
    if pm is None:
        return []
    mirrored = {RULE_MODULES[section] for section in variant.rules if section in RULE_MODULES}
    out = []
    for name in RULE_HOOKS:
        caller = getattr(pm.hook, name, None)
        if caller is None or name.startswith("gibson_vector_"):  # conformance-file hooks never run in play
            continue
        if any(getattr(impl.plugin, "__name__", None) not in mirrored for impl in caller.get_hookimpls()):
            out.append(name)
    return out


def _effects_unsupported(effects) -> str | None:
    for per_type in [e for _squares, by_type in effects.reaches for effs in by_type for e in effs]:
        fields = _truthy_unknowns(per_type, KNOWN_EFFECT_FIELDS)
        if fields or per_type.kind not in KNOWN_EFFECT_KINDS:
            return f"effect {per_type.kind!r} " + ", ".join(fields)
    for action in [a for acts in effects.actions for a in acts]:
        fields = _truthy_unknowns(action, KNOWN_ACTION_FIELDS)
        if fields or action.kind not in KINDS[1:]:
            return f"action {action.kind!r} " + ", ".join(fields)
    return None


def unsupported(variant) -> str | None:
    """The first rule feature of ``variant`` the kernel does not play, in words, or None when it plays them all.
    An unknown compiled field counts when its value is truthy (switched on); an unknown data key always."""
    extra = sorted(set(variant.rules) - KNOWN_RULE_SECTIONS)
    if extra:
        return "rule sections: " + ", ".join(extra)
    hooks = _foreign_hooks(variant)
    if hooks:
        return "rule hooks: " + ", ".join(hooks)
    effects = variant.rules.get("effects")
    if effects is not None:
        why = _effects_unsupported(effects)
        if why:
            return why
    if "flags" in variant.rules:
        unknown_flags = (set(variant.data.get("flags") or {}) | FLAG_KEYS) - KNOWN_FLAG_KEYS
        if unknown_flags:
            return "flags keys: " + ", ".join(sorted(unknown_flags))
    unknown = sorted(k for k in variant.data if k not in KNOWN_TOP_LEVEL)
    if unknown:
        return "data keys: " + ", ".join(map(str, unknown))
    for spec in variant.data.get("pieces") or []:
        keys = sorted(k for k in spec if k not in KNOWN_PIECE_KEYS) if isinstance(spec, dict) else []
        if keys:
            return "piece keys: " + ", ".join(map(str, keys))
    fields = _truthy_unknowns(variant, KNOWN_VARIANT_FIELDS)
    if fields:
        return "variant fields: " + ", ".join(fields)
    if variant.repetition.active:
        return "repetition rules"
    if variant.attack_mode != AFTER_MOVE:
        return f"attack_mode {variant.attack_mode}"
    for t in variant.types:
        fields = _truthy_unknowns(t, KNOWN_TYPE_FIELDS) + _truthy_unknowns(t.movement, KNOWN_MOVEMENT_FIELDS)
        if fields:
            return f"piece {t.id} fields: " + ", ".join(fields)
        if t.movement.kind not in KNOWN_MOVE_KINDS or t.attack not in KNOWN_ATTACKS:
            return f"piece {t.id} moves {t.movement.kind!r} / attacks {t.attack!r}"
        for name, value in KERNEL_VALUES.items():
            if getattr(t, name) != value:
                return f"piece {t.id} {name} {getattr(t, name)}"
    for kind in variant.kinds.values():
        fields = _truthy_unknowns(kind, KNOWN_TERRAIN_FIELDS)
        if fields:
            return "terrain fields: " + ", ".join(fields)
    for row in variant.combat_cells:
        for rules, _base in row:
            for rule in rules:
                heads = {c[0] for c in rule.conditions} - KNOWN_CONDITIONS
                if heads:
                    return "combat conditions: " + ", ".join(sorted(heads))
    if variant.grid.size > MAX_SQUARES:
        return f"a board of {variant.grid.size} squares (the kernel packs squares in 12 bits)"
    return None


def engine_for(variant) -> str:
    """``"fast"`` when the kernel is built and plays this variant, otherwise ``"python"``."""
    return "fast" if kernel_module() is not None and unsupported(variant) is None else "python"


def kernel_or_none(variant) -> Kernel | None:
    """The variant's :class:`Kernel` when the fast path plays it here, else None (use the Python engine)."""
    return Kernel.for_variant(variant) if engine_for(variant) == "fast" else None


# ---------------------------------------------------------------------------------------------------------
# Compiling a variant into the kernel's tables
# ---------------------------------------------------------------------------------------------------------
class _Sections:
    def __init__(self):
        self.data = {name: [] for name in SECTIONS}

    def mask(self, values) -> int:
        """Append a 0/1 mask to the mask section; returns its offset."""
        out = self.data["mask"]
        off = len(out)
        out.extend(1 if v else 0 for v in values)
        return off

    def pack(self) -> bytes:
        header = [MAGIC, len(SECTIONS)]
        offsets, body = [], []
        base = len(header) + len(SECTIONS)
        for name in SECTIONS:
            offsets.append(base + len(body))
            body.extend(self.data[name] or [0])
        return array("i", header + offsets + body).tobytes()


class Kernel:
    """A variant compiled for the kernel: its tables (``rules``), move codes and the decoding of events and
    results back into the reference engine's objects. One per variant (:meth:`for_variant`)."""

    _cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @classmethod
    def for_variant(cls, variant) -> Kernel:
        """The variant's kernel; ValueError naming the feature when the variant is not supported."""
        module = kernel_module()
        if module is None:
            raise ValueError("the fast path is not available (not built, or GIBSON_FASTPATH=0)")
        k = cls._cache.get(variant)
        if k is None:
            why = unsupported(variant)
            if why:
                raise ValueError(f"{variant.name} needs the Python engine ({why})")
            k = cls._cache[variant] = cls(variant, module)
        return k

    def __init__(self, variant, module):
        self.variant = variant
        self.module = module
        self.tables = MoveTables.for_variant(variant)
        self.outcomes: list = []
        self._outcome_ids: dict = {}
        self.win_reasons: list[str] = []
        self.words: dict[str, int] = {w: i for i, w in enumerate(WORDS)}  # reveal reasons and causes
        self.effects: list = []  # Effect objects by the kernel's effect id
        self.actions: list = []  # Action objects by the kernel's action id
        self._sqlists: dict[int, tuple] = {}
        self._policies: dict[bool, bytes] = {}
        self._tables: bytes | None = None  # the policies' shared tables (Kernel._policy_tables)
        self.rules = module.Rules(self._compile())
        self._moves: dict[int, Move] = {}
        self._codes: dict[Move, int] = {}
        grid = variant.grid
        self.names = grid.names
        self.index = grid.index

    def _outcome(self, outcome) -> int:
        k = self._outcome_ids.get(outcome)
        if k is None:
            k = self._outcome_ids[outcome] = len(self.outcomes)
            self.outcomes.append(outcome)
        return k

    def _compile(self) -> bytes:
        v, tables = self.variant, self.tables
        grid = v.grid
        size, nt = grid.size, len(v.types)
        s = _Sections()
        d = s.data
        d["scalars"] = [size, nt, int(v.compulsory_attack), v.ply_limit or 0, len(tables.path_inner),
                        int(bool(v.lose_when_only_left)), int(bool(v.draw_when_none_left)), grid.files]
        # move tables: one per distinct compiled table, rows of rays of (dest, n attacks, attack squares)
        table_offsets: dict[int, int] = {}
        tab = d["table"]
        for slides, table, _can_attack, _long in tables.by_type:
            if table is None or id(table) in table_offsets:
                continue
            start = len(tab)
            table_offsets[id(table)] = start
            tab.extend([0] * size)
            for o in range(size):
                tab[start + o] = len(tab)
                rays = table[o] if slides else (table[o],)
                tab.append(len(rays))
                for ray in rays:
                    tab.append(len(ray))
                    for dest, _plain, attacks in ray:
                        tab += [dest, len(attacks)] + [a for a, _mv in attacks]
        for t, (slides, table, can_attack, long_only) in enumerate(tables.by_type):
            d["type"] += [int(slides), -1 if table is None else table_offsets[id(table)], int(can_attack),
                          int(long_only), int(t in v.lose_when_removed), int(t in v.lose_when_only_left),
                          int(t in v.draw_when_none_left), 0]
        for p in range(2):
            d["lean"] += [int(plan is not None) for plan in tables.lean[p]]
            d["maywin"] += [int(t in tables.win_types[p]) for t in range(nt)]
            d["conf"] += [-1 if zone is None else s.mask(sq in zone for sq in range(size))
                          for zone in tables.confined[p]]
        # arrival wins: per player and square, entries (type mask, path id, path's last-but-one square, reason)
        windata = d["windata"]
        for p in range(2):
            row = [-1] * size
            for sq, entries in sorted(v.win_arrive[p].items()):
                row[sq] = len(windata)
                windata.append(len(entries))
                for types, path, reason in entries:
                    self.win_reasons.append(reason)
                    windata += [s.mask(t in types for t in range(nt)),
                                -1 if path is None else tables.path_ids[path],
                                -1 if path is None else path[-2], len(self.win_reasons) - 1]
            d["win"] += row
        entries = sorted(tables.path_entries.items())
        d["pathent"] = [len(entries)] + [x for (o, dd), k in entries for x in (o, dd, k)]
        for inner in tables.path_inner:
            d["pathinner"] += [int(sq in inner) for sq in range(size)]
        transit = list(v.transit_squares)  # the Python engine's iteration order, which decides event order
        d["transit"] = [len(transit)] + transit
        element_ids: dict = {}  # each distinct element value (None included) gets a number
        d["elem"] = [element_ids.setdefault(v.elements[t][sq], len(element_ids)) for t in range(nt) for sq in range(size)]
        self._compile_combat(s, element_ids)
        self._compile_effects(s)
        self._compile_flags(s)
        for p in range(2):
            step = -1 if p == 0 else 1
            for sq in range(size):
                dest = grid.offset(sq, 0, step)
                d["back"].append(-1 if dest is None or grid.wall_between(sq, dest) else dest)
        return s.pack()

    def _compile_combat(self, s: _Sections, ids: dict) -> None:
        v = self.variant
        nt = len(v.types)
        d = s.data
        cdata = d["cdata"]
        for ta in range(nt):
            for td in range(nt):
                rules, base = v.combat_cells[ta][td]
                d["combat"].append(len(cdata))
                cdata.append(len(rules))
                for rule in rules:
                    conds = [self._condition(s, c, rule.first, ta, td, ids) for c in rule.conditions]
                    cdata.append(len(conds))
                    for c in conds:
                        cdata += c
                    cdata.append(self._outcome(rule.outcome))
                cdata.append(self._outcome(base))
        for outcome in self.outcomes:
            roles = [0 if r == ATTACKER else 1 for r in outcome.removed]
            retreat = -1 if not outcome.retreat else (0 if outcome.retreat == ATTACKER else 1)
            d["outcome"] += [len(roles)] + (roles + [0, 0])[:2] + [retreat]

    def _sqlist(self, s: _Sections, rows) -> int:
        """A per-square list of squares (neighbours in a reach) in the sqlist section; returns its offset."""
        known = self._sqlists.get(id(rows))
        if known is None:
            out = s.data["sqlist"]
            off = len(out)
            self._sqlists[id(rows)] = (off, rows)  # holding rows keeps its id unique
            out.extend([0] * len(rows))
            for sq, squares in enumerate(rows):
                out[off + sq] = len(out)
                out += [len(squares)] + list(squares)
            return off
        return known[0]

    def _compile_effects(self, s: _Sections) -> None:
        """Effects by reach (squares, then each type's effects) and actions by type."""
        tables = self.variant.rules.get("effects")
        nt = len(self.variant.types)
        d = s.data
        if tables is None:
            d["reach"], d["action"] = [0], [0] + [-1] * nt
            return
        grid = self.variant.grid
        eff = d["effect"]
        d["reach"] = [len(tables.reaches)]
        for squares, by_type in tables.reaches:
            d["reach"].append(self._sqlist(s, squares))
            for effects in by_type:
                d["reach"].append(len(eff))
                eff.append(len(effects))
                slots = len(eff)
                eff.extend([0] * len(effects))
                for j, e in enumerate(effects):
                    eff[slots + j] = len(eff)
                    self.effects.append(e)
                    eff += [0 if e.kind == "destroy" else 1, s.mask(t in e.targets for t in range(nt)),
                            s.mask(t in e.spare for t in range(nt)), s.mask(t in e.backfire for t in range(nt)),
                            self.words.setdefault(e.cause, len(self.words)), len(self.effects) - 1]
        acts = d["action"] = [int(tables.has_actions)] + [-1] * nt
        radius_rows: dict[int, tuple] = {}
        for t, actions in enumerate(tables.actions):
            if not actions:
                continue
            acts[1 + t] = len(acts)
            acts.append(len(actions))
            for a in actions:
                self.actions.append(a)
                rows = radius_rows.setdefault(a.radius, tuple(tuple(grid.within_king(sq, a.radius))
                                                              for sq in range(grid.size)))
                acts += [KINDS.index(a.kind), self._sqlist(s, rows) if a.kind == ILLUMINATE else 0, a.range,
                         s.mask(q in a.targets for q in range(nt)), int(a.revealed_only), int(a.reveal_self),
                         len(self.actions) - 1]

    def _compile_flags(self, s: _Sections) -> None:
        rules = self.variant.rules.get("flags")
        if rules is None:
            s.data["flags"] = [0]
            return
        nt = len(self.variant.types)
        mined = [self.words.setdefault(w, len(self.words)) for w in sorted(rules.mined_when)]
        s.data["flags"] = ([1, rules.bases[0], rules.bases[1], s.mask(t in rules.cannot_carry for t in range(nt)),
                            s.mask(t in rules.mined_pickup for t in range(nt)), int(rules.leave_enemy_base),
                            len(mined)] + mined + [self._sqlist(s, self.variant.grid.orth)])

    def _condition(self, s: _Sections, cond: tuple, first: str, ta: int, td: int, ids: dict) -> list:
        """One combat condition as (op, role, argument); square conditions become a mask [owner][square]."""
        v = self.variant
        size = v.grid.size
        head = cond[0]
        if head == "across-coast":
            return [1, 0, 0]
        if head == "same-element":
            return [2, 0, 0]
        if head in ("both-sea", "both-land"):
            return [3, 0, ids.get(head[5:], -2)]
        role = cond[1]
        if role in ("first", "second"):
            role = first if role == "first" else (DEFENDER if first == ATTACKER else ATTACKER)
        t = ta if role == ATTACKER else td
        r = 0 if role == ATTACKER else 1
        if head == "out":
            native = v.types[t].element
            row = [native is not None and v.elements[t][sq] != native for sq in range(size)]
            return [4, r, s.mask(row + row)]
        whose, name = cond[2], cond[3]
        if name in v.kinds:
            row = [v.cell_kind[sq] == name for sq in range(size)]
            return [4, r, s.mask(row + row)]
        zone = v.zones.get(name, {})
        players = v.players
        rows = []
        for owner in range(2):
            if whose == "own":
                inside = zone.get(players[owner], ())
                rows += [sq in inside for sq in range(size)]
            elif whose == "enemy":
                inside = zone.get(players[1 - owner], ())
                rows += [sq in inside for sq in range(size)]
            else:
                rows += [any(sq in sqs for sqs in zone.values()) for sq in range(size)]
        return [4, r, s.mask(rows)]

    # -- moves ------------------------------------------------------------------------------------------
    def move(self, code: int) -> Move:
        """The Move of a packed code (the reference engine's interned Move object)."""
        mv = self._moves.get(code)
        if mv is None:
            o, a, kind = code & 0xFFF, (code >> 24) & 0xFFF, code >> 36
            a = -1 if a == NO_TARGET else a
            if kind == KINDS.index(HANDOVER):
                mv = Move(self.names[o], None, self.names[a], HANDOVER)
            elif kind:
                mv = self.variant.rules["effects"]._move(KINDS[kind], o, a)
            else:
                mv = self.tables.move(o, (code >> 12) & 0xFFF, a)
            self._moves[code] = mv
            self._codes[mv] = code
        return mv

    def code(self, move: Move) -> int:
        """The packed code of a Move (ValueError for an action, which the kernel does not know)."""
        code = self._codes.get(move)
        if code is None:
            if move.kind not in KINDS:
                raise ValueError(f"the kernel does not know {move.kind} moves ({move})")
            index = self.index
            a = NO_TARGET if move.target is None else index[move.target]
            d = NO_TARGET if move.dest is None else index[move.dest]
            code = index[move.origin] | (d << 12) | (a << 24) | (KINDS.index(move.kind) << 36)
            self._codes[move] = code
        return code

    # -- events and results -----------------------------------------------------------------------------
    def removal_reason(self, ptype: int, code: int, arg: int) -> tuple[str, str]:
        """(reason, hidden reason) of a removal record."""
        types, hidden = self.variant.types, "a hidden piece was removed"
        if code == RM_COMBAT:
            return self.outcomes[arg].reason, hidden
        if code == RM_FORFEIT:
            name = self.variant.kinds[self.variant.cell_kind[arg]].name
            return (f"{types[ptype].name} forfeit: it stayed on the {name}",
                    f"a piece forfeit: it stayed on the {name}")
        if code == RM_AGROUND:
            return (f"{types[ptype].name} runs aground: it did not leave the enemy Base",
                    "a ship runs aground: it did not leave the enemy Base")
        other = types[arg % 1024].name
        if code == RM_BLAST:
            return self.effects[arg // 1024].reason.format(piece=types[ptype].name, source=other), hidden
        if code == RM_BACKFIRE:
            return self.effects[arg // 1024].backfire_reason.format(piece=other, source=types[ptype].name), hidden
        text = self.actions[arg // 1024].reason or "{source} shoots down the {piece}"
        return text.format(source=other, piece=types[ptype].name), hidden

    def result(self, kind: int, winner: int, a: int, b: int, c: int) -> Result | None:
        """The Result of the kernel's result fields (None while the game goes on)."""
        if kind == K_NONE:
            return None
        v = self.variant
        players = v.players
        name = None if winner < 0 else players[winner]  # None: a draw
        if kind == K_ARRIVE:
            return Result(name, self.win_reasons[a].format(piece=v.types[b].name))
        if kind == K_BOTH_LOST:
            return Result(name, "both sides lost at once")
        if kind == K_LOSER:
            if a < 0:
                return Result(name, f"{players[1 - winner]} is beaten")
            return Result(name, f"{v.types[a].name} lost: {self.removal_reason(a, b, c)[0]}")
        if kind == K_NONE_LEFT:
            names = ", ".join(sorted({v.types[t].name for t in v.draw_when_none_left}))
            return Result(name, f"neither side has any of: {names}")
        if kind == K_PLY_LIMIT:
            return Result(name, f"ply limit of {v.ply_limit} reached")
        if kind == K_FLAGS_HOME:
            return Result(name, f"both Flags are on {name}'s Base")
        if kind == K_STALEMATE_LOSS:
            return Result(name, f"{players[a]} has no legal move while {players[1 - a]}'s Flag lies on its Base")
        if kind == K_STALEMATE_DRAW:
            return Result(name, f"{players[a]} has no legal move and {players[1 - a]}'s Flag is not on its Base")
        return Result(name, f"{players[a]} has no legal move")

    def events(self, records) -> tuple:
        """The reference engine's event objects for the kernel's event records of one move."""
        names, players, types = self.names, self.variant.players, self.variant.types
        words = list(self.words)
        out = []
        for kind, a, b, c, d, e, f, g in records:
            if kind == EV_MOVED:
                out.append(ev.Moved(players[a], names[b], names[c], d))
            elif kind == EV_ATTACKED:
                out.append(ev.Attacked(players[a], names[b], names[c], types[d].id, types[e].id))
            elif kind == EV_REVEALED:
                out.append(ev.Revealed(names[a], players[b], types[c].id, d, words[e]))
            elif kind == EV_REMOVED:
                reason, hidden = self.removal_reason(c, f, g)
                out.append(ev.Removed(names[a], players[b], types[c].id, d, reason, bool(e), hidden))
            elif kind == EV_RETREATED:
                out.append(ev.Retreated(names[a], names[b], c, self.outcomes[d].reason))
            elif kind == EV_TOKEN:
                out.append(ev.TokenMoved(f"flag:{players[a]}", names[b], c or None, TOKEN_REASONS[d]))
            elif kind == EV_ACTED:
                mv = self.move(c | (NO_TARGET << 12) | (d << 24) | (b << 36))
                out.append(ev.Acted(players[a], KINDS[b], str(mv)))
            else:
                res = self.result(b, a, c, d, e)
                out.append(ev.GameOver(res.winner, res.reason))
        return tuple(out)

    def game(self, state: GameState, ptype: list | None = None):
        """A kernel Game at ``state``'s position (the state is not changed); with ``ptype``, the pieces have
        those types instead (a search's determinization of the same position)."""
        if state.result is not None:
            raise ValueError("the game is over")
        if ptype is not None and len(ptype) != len(state.ptype):
            raise ValueError(f"{len(ptype)} piece types for {len(state.ptype)} pieces")
        types = state.ptype if ptype is None else ptype
        game = self.module.Game(self.rules, state.board, state.owner, types, state.square,
                                [int(x) for x in state.revealed], [int(x) for x in state.moved], state.track,
                                state.pids[0], state.pids[1], state.to_move, state.ply)
        if "flags" in self.variant.rules:
            index, players, tokens = self.index, self.variant.players, state.tokens
            flags = [(index[tokens[f"flag:{p}"][0]], tokens[f"flag:{p}"][1], int(tokens[f"flag:{p}"][2]))
                     for p in players]
            watches = [tokens.get(f"{AGROUND}{p}", (0, 0)) for p in players]
            game.set_tokens(*flags[0], *flags[1], *watches[0], *watches[1])
        return game

    def policy(self, restless: bool = False) -> bytes:
        """The search agent's tables as the kernel reads them (``_kernel.c``, ``Policy``): constants, piece
        values, scarce types, which types can move, the vital immobile types and their breakers, each type's
        worth unseen, which types the hunt counts, which guard the goal, which are Mines and which sweep
        them, which types hunt which, square terms, each type's steps to its goal and to take a piece on
        each square, and with Flags the steps of each type to each Base and to every square
        (``gibson_core.ai.values``); ``restless``, the constants of ``values.evaluate(..., restless=True)``.
        The two differ in the header's constants alone, and share the tables after it."""
        if restless not in self._policies:
            from .ai import values as vals

            v = self.variant
            counted = vals.winning_types(v)  # the kernel's "scarce" types: counted for vals.winner_bonus
            pulls = vals.pulls(restless)
            header = [vals.SCARCE, vals.FLAG_HELD, vals.FLAG_HOME, vals.FLAG_REACH, vals.FLAG_AWAY,
                      float(bool(counted)), vals.SIEGE if vals.siege_types(v)[0] else 0.0, pulls.mopup,
                      pulls.start, pulls.full, vals.MOPUP_WORTH, pulls.push,
                      pulls.guard if any(vals.guard_types(v)) else 0.0, float(vals.BOXED), vals.hopeless_share(v)]
            self._policies[restless] = array("d", header).tobytes() + self._policy_tables()
        return self._policies[restless]

    def _policy_tables(self) -> bytes:
        """The part of :meth:`policy` after its header, the same in both modes (built once)."""
        if self._tables is None:
            from .ai import values as vals

            v = self.variant
            nt, size = len(v.types), v.grid.size
            counted = vals.winning_types(v)
            vital, breakers = vals.siege_types(v)
            flat = list(vals.search_values(v)) + [float(t in counted) for t in range(nt)]
            flat += [float(m) for m in vals.mobile_types(v)]
            flat += [float(t in vital) for t in range(nt)] + [float(t in breakers) for t in range(nt)]
            flat += list(vals.secrecy_values(v)) + [float(p) for p in vals.prey_types(v)]
            flat += [float(g) for g in vals.guard_types(v)]
            flat += [float(x) for kinds in vals.sweeper_types(v) for x in kinds]
            flat += [x for row in vals.mopup_table(v) for x in row]
            flat += [x for per_player in vals.square_tables(v) for row in per_player for x in row]
            for p in range(len(v.players)):  # steps to the goal of the winners by arriving, -1 for the rest
                flat += [x for dist in vals.goal_distances(v, p) for x in (dist if dist is not None else [-1.0] * size)]
            flat += [x for t in range(nt) for target in range(size) for x in vals.attack_distance(v, t, target)]
            for t in range(nt):  # each type's steps from each square, for vals.boxed (-1: none)
                flat += [float(x) for row in vals.neighbours_of(v, t) for x in (*row, -1, -1, -1, -1)[:4]]
            flags = v.rules.get("flags")
            if flags is not None:
                flat += [x for base in flags.bases for t in range(nt) for x in vals.distance_to(v, t, base)]
                flat += [x for t in range(nt) for target in range(size) for x in vals.distance_to(v, t, target)]
            self._tables = array("d", flat).tobytes()
        return self._tables

    def finish_value(self, state: GameState, depth: int, rng: random.Random, greed: float, player: int) -> float:
        """:meth:`gibson_core.ai.search.Playout.finish` in the kernel: from ``state`` (not changed), up to
        ``depth`` moves of the greedy playout policy, the no-move ending, then
        :func:`~gibson_core.ai.values.evaluate` for ``player``. Same choices, same value, same advance of
        ``rng`` as the Python policy."""
        if state.result is not None:  # nothing to play: the evaluation of the end
            from .ai.values import evaluate

            return evaluate(state, player)
        version, mt, gauss = rng.getstate()
        value, mt = self.game(state).finish(depth, mt, greed, self.policy(), player)
        rng.setstate((version, mt, gauss))
        return value

    def tokens(self, game) -> dict:
        """A kernel Game's tokens as ``GameState.tokens`` holds them."""
        if "flags" not in self.variant.rules:
            return {}
        f0, c0, m0, f1, c1, m1, *watches = game.tokens()
        players = self.variant.players
        out = {f"flag:{players[0]}": (self.names[f0], c0, bool(m0)), f"flag:{players[1]}": (self.names[f1], c1, bool(m1))}
        for p, (pid, ply) in enumerate(zip(watches[::2], watches[1::2], strict=True)):
            if pid:
                out[f"{AGROUND}{players[p]}"] = (pid, ply)
        return out


_U32 = "I" if array("I").itemsize == 4 else "L"  # a 32-bit word of the generator's state


class Twister:
    """A ``random.Random``'s Mersenne Twister lent to the kernel for a while: :meth:`take` copies the
    generator's state into a buffer the kernel advances in place (no state tuples per call), :meth:`give` puts
    it back into the ``Random``. Between the two the ``Random`` itself must not be used. Every kernel method
    that takes a ``Random`` also takes a Twister."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.buf = bytearray(625 * 4)
        self._rest: tuple = ()
        self.take()

    def take(self) -> None:
        """Copy the Random's current state in (after Python code has drawn from it)."""
        version, mt, gauss = self.rng.getstate()
        self._rest = (version, gauss)
        self.buf[:] = array(_U32, mt).tobytes()

    def give(self) -> None:
        """Put the advanced state back into the Random (before Python code draws from it)."""
        version, gauss = self._rest
        self.rng.setstate((version, tuple(array(_U32, bytes(self.buf))), gauss))


def _drawing(rng, call):
    """``call(state)`` with the kernel's view of a generator (a Twister's buffer, advanced in place, or a
    Random's state tuple, put back afterwards); returns the call's first result."""
    if isinstance(rng, Twister):
        return call(rng.buf)[0]
    version, mt, gauss = rng.getstate()
    out, mt = call(mt)
    rng.setstate((version, mt, gauss))
    return out


class FastGame:
    """A game in the kernel with the reference engine's interface for search and playouts.

    Made from a :class:`GameState` (copied; hidden types included, so it belongs with whoever owns that state:
    the engine, or an agent's own determinized world). ``legal_moves``/``push``/``pop``/``outcome`` and
    ``history`` behave as the reference engine's (events are decoded when ``history`` is read); the position
    is read with :meth:`snapshot`.
    """

    def __init__(self, state: GameState, ptype: list | None = None):
        self.kernel = Kernel.for_variant(state.variant)
        self.variant = state.variant
        self.game = self.kernel.game(state, ptype)
        self._tokens = dict(state.tokens) if "flags" not in state.variant.rules else None
        # [move, event records, decoded events or None] per ply: records are decoded when history is read
        self._hist: list[list] = [[move, (), events] for move, events in state.history]
        self._legal: list[Move] | None = None
        self.result: Result | None = None

    @property
    def history(self) -> list[tuple[Move, tuple]]:
        """``(move, events)`` per ply, as :attr:`GameState.history`."""
        decode = self.kernel.events
        for entry in self._hist:
            if entry[2] is None:
                entry[2] = decode(entry[1])
        return [(move, events) for move, _records, events in self._hist]

    def last_events(self) -> tuple:
        """The events of the last move (as ``history[-1][1]``, without decoding the whole history)."""
        entry = self._hist[-1]
        if entry[2] is None:
            entry[2] = self.kernel.events(entry[1])
        return entry[2]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move, in the reference engine's order (empty once over)."""
        if self._legal is None:
            self._legal = list(map(self.kernel.move, self.game.legal()))
        return self._legal

    def push(self, move: Move) -> None:
        """Make a move without checking it (as :meth:`GameState.push`)."""
        records = self.game.push(self.kernel.code(move))
        self._hist.append([move, records, None])
        self._legal = None
        if records and records[-1][0] == EV_GAMEOVER:  # a game-over event is always a move's last
            self.result = self.kernel.result(*self.game.result())

    def pop(self) -> Move:
        """Undo the last push made on this FastGame; returns its move."""
        self.game.pop()
        move = self._hist.pop()[0]
        self._legal = None
        if self.result is not None:  # no result after the move means none before it either
            self.result = self.kernel.result(*self.game.result())
        return move

    def outcome(self) -> Result | None:
        """The result, including the loss of a side to move with no legal move (as :meth:`GameState.outcome`)."""
        if self.result is None and not self.legal_moves():
            records = self.game.no_moves()
            self.result = self.kernel.result(*self.game.result())
            if self._hist:
                self.history  # noqa: B018 - decode what is there, then add the game-over event
                self._hist[-1][2] += self.kernel.events(records)
            self._legal = []
        return self.result

    @property
    def to_move(self) -> int:
        """The side to move, 0 or 1."""
        return self.game.side()

    def mark(self) -> tuple:
        """A mark of this point of the game for :meth:`rewind`."""
        return self.game.mark(), len(self._hist)

    def rewind(self, mark: tuple) -> None:
        """Undo every push (and tail playout) made after ``mark``."""
        depth, n = mark
        self.game.rewind(depth)
        del self._hist[n:]
        self._legal = None
        self.result = self.kernel.result(*self.game.result())

    def choose(self, rng: random.Random | Twister, greed: float) -> Move | None:
        """The move :meth:`gibson_core.ai.search.Playout.choose` would choose here with ``rng`` (advanced
        the same way), or None when there is none."""
        code = _drawing(rng, lambda mt: self.game.choose(mt, greed, self.kernel.policy()))
        return None if code < 0 else self.kernel.move(code)

    def evaluate(self, player: int, restless: bool = False) -> float:
        """:func:`gibson_core.ai.values.evaluate` of this position for ``player`` (the same value)."""
        return self.game.evaluate(self.kernel.policy(restless), player)

    def finish(self, depth: int, rng: random.Random | Twister, greed: float, player: int,
               restless: bool = False) -> float:
        """:meth:`gibson_core.ai.search.Playout.finish` here, in place (undo it with :meth:`rewind`); the end
        scored ``restless`` or not."""
        if self.result is not None:
            return 1000.0 * (0 if self.result.winner is None else
                             1 if self.result.winner == self.variant.players[player] else -1)
        policy = self.kernel.policy(restless)
        value = _drawing(rng, lambda mt: self.game.finish(depth, mt, greed, policy, player))
        self._legal = None
        self.result = self.kernel.result(*self.game.result())
        return value

    def playout(self, rng: random.Random, max_plies: int = 100_000) -> int:
        """Random legal moves until the game ends, chosen exactly as ``rng.choice`` would choose them (the
        generator is advanced accordingly). Afterwards the game holds the final position with no history and
        an empty undo stack (a playout is not undone). Returns the plies played."""
        version, mt, gauss = rng.getstate()
        plies, mt = self.game.playout(mt, max_plies)
        rng.setstate((version, mt, gauss))
        self._legal = None
        self._hist.clear()
        self.result = self.kernel.result(*self.game.result())
        return plies

    def snapshot(self) -> dict:
        """The whole mutable position (for comparison with a GameState's :func:`state_snapshot`)."""
        board, square, revealed, moved, track, to_move, ply, _res = self.game.state()
        return {"board": board, "square": square, "revealed": [bool(x) for x in revealed],
                "moved": [bool(x) for x in moved], "track": track, "to_move": to_move, "ply": ply,
                "tokens": self.tokens, "result": self.result}

    @property
    def tokens(self) -> dict:
        """The tokens (Flags), as :attr:`GameState.tokens`."""
        return dict(self._tokens) if self._tokens is not None else self.kernel.tokens(self.game)

    @property
    def ply(self) -> int:
        """Plies played since the start of the game."""
        return self.game.state()[6]


def state_snapshot(state: GameState) -> dict:
    """A GameState's mutable position in :meth:`FastGame.snapshot`'s form."""
    return {"board": list(state.board), "square": list(state.square), "revealed": [bool(x) for x in state.revealed],
            "moved": [bool(x) for x in state.moved], "track": list(state.track), "to_move": state.to_move,
            "ply": state.ply, "tokens": dict(state.tokens), "result": state.result}


def batch_playouts(states: list[GameState], seeds: list[int], max_plies: int = 100_000,
                   threads: int = 1) -> list[tuple]:
    """Random playouts of many games in the kernel with the GIL released; game ``i`` makes the choices of
    ``random.Random(seeds[i]).choice`` (seeds: ints, 0 <= seed < 2**64; the kernel seeds its Mersenne Twister
    exactly as CPython does). ``threads`` > 1 plays slices of the games in that many threads at once (the
    results do not depend on it). Returns ``(plies, Result)`` per game; the states are not changed."""
    if not states:
        return []
    if len(seeds) != len(states):
        raise ValueError(f"batch_playouts: {len(states)} games but {len(seeds)} seeds")
    kernel = Kernel.for_variant(states[0].variant)
    games = [kernel.game(s) for s in states]
    seeds = list(seeds)
    if threads <= 1:
        out = kernel.module.batch(games, seeds, max_plies)
    else:
        from concurrent.futures import ThreadPoolExecutor

        step = -(-len(games) // threads)
        slices = [(games[i:i + step], seeds[i:i + step]) for i in range(0, len(games), step)]
        with ThreadPoolExecutor(len(slices)) as pool:
            parts = pool.map(lambda part: kernel.module.batch(part[0], part[1], max_plies), slices)
            out = [row for part in parts for row in part]
    return [(plies, kernel.result(*g.result())) for (plies, _k, _w), g in zip(out, games, strict=True)]
