"""Automatic effects and actions, declared per piece type in a variant's YAML, and the rule hooks that apply
them. The game's plugin manager registers this module whenever the variant's data declares effects or actions
(``gibson_core.plugins.CORE_RULES``); a game that declares none never calls it.

**Effects** act on an enemy piece that ends its own move within reach of a piece that declares them, before
any attack (the move stays legal: legality never depends on what the mover cannot see)::

    effects:
      - kind: destroy          # destroy: the arriving piece is removed | reveal: it is revealed
        reach: orthogonal      # orthogonal: the four neighbours, never across a wall | king: within `radius`
        radius: 1              #   king moves
        targets: any           # selector of the arriving pieces concerned (default any)
        spare: [MS, ML, FB]    # arriving pieces left alone
        backfire: [Bomber]     # arriving pieces that destroy this piece instead
        cause: blast           # word recorded with the removal (Flags dropped after a blast lie mined)
        reason: "{piece} is blown up by the {source}"
        backfire_reason: "the {piece} destroys the {source}"

Only the piece that moved is affected, and every source that destroyed it is revealed with it.

**Actions** replace a move (notation ``d5@`` and ``c4*f6``)::

    actions:
      - {kind: illuminate, radius: 2}               # every enemy piece within `radius` king moves is revealed
      - {kind: fire, range: 3, targets: [Aircraft], revealed_only: true}
                                                    # remove an enemy piece within `range` orthogonal steps
"""

from __future__ import annotations

import attrs

from . import events as ev
from .errors import quote
from .hookspecs import hookimpl
from .moves import FIRE, ILLUMINATE, Move
from .variant_schema import ACTION, EFFECT, record_keys

EFFECT_KINDS = ("destroy", "reveal")
REACHES = ("orthogonal", "king")
ACTION_KINDS = (ILLUMINATE, FIRE)
EFFECT_KEYS = set(record_keys(EFFECT))  # declared with their types in variant_schema
ACTION_KEYS = set(record_keys(ACTION))


@attrs.frozen
class Effect:
    """One compiled automatic effect of a piece type on arriving enemy pieces (type-index sets)."""

    kind: str
    targets: frozenset
    spare: frozenset
    backfire: frozenset
    cause: str
    reason: str
    backfire_reason: str

    def hits(self, t: int) -> bool:
        """True when an arriving piece of type ``t`` suffers this effect."""
        return t in self.targets and t not in self.spare

    def destroys(self, t: int) -> bool:
        """True when an arriving piece of type ``t`` is removed by this effect (a destroy effect that hits it
        and does not backfire on it)."""
        return self.kind == "destroy" and t not in self.backfire and self.hits(t)


@attrs.frozen
class Action:
    """One compiled action of a piece type: illuminate (``radius``) or fire (``range``, ``targets``)."""

    kind: str
    radius: int = 0
    range: int = 0
    targets: frozenset = frozenset()
    revealed_only: bool = True
    reveal_self: bool = False
    reason: str = ""


class EffectTables:
    """The compiled effects and actions of a variant: ``reaches`` is a tuple of ``(squares, by_type)`` pairs,
    one per reach in use, where ``squares[sq]`` are the squares within that reach of ``sq`` and
    ``by_type[t]`` the effects of type ``t`` with that reach; ``actions[t]`` the actions of type ``t``."""

    def __init__(self, grid, n_types: int, effects: dict, actions: dict):
        self.grid = grid
        reach_tables: dict[tuple, tuple] = {}
        grouped: dict[tuple, list] = {}
        for (reach, radius, t), effs in effects.items():
            key = (reach, radius)
            if key not in reach_tables:
                reach_tables[key] = grid.orth if reach == "orthogonal" else tuple(
                    tuple(grid.within_king(sq, radius)) for sq in range(grid.size))
                grouped[key] = [() for _ in range(n_types)]
            grouped[key][t] += tuple(effs)
        self.reaches = tuple((reach_tables[k], tuple(grouped[k])) for k in sorted(reach_tables))
        self.actions = tuple(tuple(actions.get(t, ())) for t in range(n_types))
        self.has_actions = any(self.actions)
        self.file_of = tuple(sq % grid.files for sq in range(grid.size))
        self.rank_of = tuple(sq // grid.files for sq in range(grid.size))
        self._moves: dict[tuple, Move] = {}  # interned action moves: squares only, no game state

    # -- effects ---------------------------------------------------------------------------------------
    def on_arrival(self, state, pid: int, square: int, events: list) -> None:
        """Apply every enemy effect in reach of ``square`` to the piece ``pid`` that just arrived there."""
        board, owner, ptype = state.board, state.owner, state.ptype
        me, t = owner[pid], ptype[pid]
        blasted: list[tuple[int, Effect]] = []
        backfired: list[tuple[int, Effect]] = []
        spotted = False
        for squares, by_type in self.reaches:
            for a in squares[square]:
                q = board[a]
                if not q or owner[q] == me:
                    continue
                for effect in by_type[ptype[q]]:
                    if t in effect.backfire:
                        backfired.append((q, effect))
                    elif not effect.hits(t):
                        continue
                    elif effect.kind == "reveal":
                        spotted = True
                    else:
                        blasted.append((q, effect))
        if spotted:
            state.reveal(pid, events, "spotted")
        for q, effect in backfired:
            if state.square[q] >= 0:
                state.reveal(pid, events, effect.cause)
                state.reveal(q, events, effect.cause)
                state.remove(q, self._say(effect.backfire_reason, state, pid, q), events, cause=effect.cause)
        if blasted and state.square[pid] >= 0:
            for q, effect in blasted:
                state.reveal(q, events, effect.cause)
            state.reveal(pid, events, blasted[0][1].cause)
            q, effect = blasted[0]
            state.remove(pid, self._say(effect.reason, state, pid, q), events, cause=effect.cause)

    @staticmethod
    def _say(text: str, state, piece: int, source: int) -> str:
        return text.format(piece=state.type_of(piece).name, source=state.type_of(source).name)

    # -- actions ---------------------------------------------------------------------------------------
    def _move(self, kind: str, o: int, target: int = -1) -> Move:
        key = (kind, o, target)
        mv = self._moves.get(key)
        if mv is None:
            names = self.grid.names
            mv = self._moves[key] = Move(names[o], None, names[target] if target >= 0 else None, kind)
        return mv

    def _actors(self, state, me: int) -> tuple:
        """``me``'s pieces whose type has actions. Types never change, so the answer is kept on the game
        itself — never here: these tables are shared by every game of the variant, and a list of piece
        numbers by type would tell any holder of the variant where the hidden actors stand."""
        kept = state.__dict__.get("_actors")
        if kept is None or kept[0] is not state.ptype:
            ptype, actions = state.ptype, self.actions
            kept = state._actors = (ptype, tuple(tuple(p for p in state.pids[side] if actions[ptype[p]])
                                                 for side in (0, 1)))
        return kept[1][me]

    def action_moves(self, state, me: int) -> list[Move]:
        """Every action of ``me``'s pieces, from what ``me`` can see (fire needs a visible, revealed target)."""
        square, ptype, actions = state.square, state.ptype, self.actions
        fx, ry = self.file_of, self.rank_of
        out: list[Move] = []
        revealed_targets = all_targets = None
        for pid in self._actors(state, me):
            o = square[pid]
            if o < 0:
                continue
            for act in actions[ptype[pid]]:
                if act.kind == ILLUMINATE:
                    out.append(self._move(ILLUMINATE, o))
                    continue
                if act.revealed_only:
                    if revealed_targets is None:
                        revealed = state.revealed
                        revealed_targets = [q for q in state.pids[1 - me] if revealed[q] and square[q] >= 0]
                    targets = revealed_targets
                else:
                    if all_targets is None:
                        all_targets = [q for q in state.pids[1 - me] if square[q] >= 0]
                    targets = all_targets
                f0, r0, reach, kinds = fx[o], ry[o], act.range, act.targets
                for q in targets:
                    d = square[q]
                    if ptype[q] in kinds and abs(fx[d] - f0) + abs(ry[d] - r0) <= reach:
                        out.append(self._move(FIRE, o, d))
        return out

    def action_of(self, state, move: Move) -> Action | None:
        """The action of the piece on the move's origin that the move uses, or None."""
        pid = state.board[state.grid.index[move.origin]]
        return next((a for a in self.actions[state.ptype[pid]] if a.kind == move.kind), None) if pid else None

    def apply(self, state, move: Move, events: list) -> None:
        """Carry out an illuminate or fire action (assumed legal)."""
        grid = state.grid
        o = grid.index[move.origin]
        pid = state.board[o]
        act = self.action_of(state, move)
        events.append(ev.Acted(state.variant.players[state.to_move], move.kind, str(move)))
        if act.reveal_self:
            state.reveal(pid, events, move.kind)
        if move.kind == ILLUMINATE:
            me = state.owner[pid]
            for a in grid.within_king(o, act.radius):
                q = state.board[a]
                if q and state.owner[q] != me:
                    state.reveal(q, events, "illuminated")
            return
        target = state.board[grid.index[move.target]]
        reason = (act.reason or "{source} shoots down the {piece}").format(
            source=state.type_of(pid).name, piece=state.type_of(target).name)
        state.remove(target, reason, events, cause="shot down")

    def explain(self, state, move: Move) -> str | None:
        """Why an illuminate or fire move is not legal here, or None when this module has nothing to say."""
        act = self.action_of(state, move)
        if act is None or move.kind != FIRE:
            return None
        q = state.board[state.grid.index[move.target]]
        if not q or state.owner[q] == state.to_move:
            return f"there is no enemy piece on {move.target} to fire at"
        if act.revealed_only and not state.revealed[q]:
            return f"the piece on {move.target} has not been revealed, so it cannot be fired at"
        if state.ptype[q] not in act.targets:
            return f"a {state.type_of(q).name} cannot be fired at"
        dist = state.grid.manhattan(state.grid.index[move.origin], state.grid.index[move.target])
        return f"{move.target} is {dist} squares away, beyond the range of {act.range}"


# ---------------------------------------------------------------------------------------------------
# Compilation (called by the variant compiler with its problem collector and piece selector)
# ---------------------------------------------------------------------------------------------------
def compile_effects(chk, data: dict, grid, selector) -> EffectTables | None:
    """Validate and compile every piece type's ``effects`` and ``actions``; None when no piece has any."""
    effects: dict[tuple, list] = {}
    actions: dict[int, list] = {}
    for i, spec in enumerate(data.get("pieces") or []):
        if not isinstance(spec, dict) or spec.get("id") not in selector.index:
            continue
        t = selector.index[spec["id"]]
        for j, raw in enumerate(_listed(chk, spec, "effects", ("pieces", i))):
            compiled = _compile_effect(chk, ("pieces", i, "effects", j), raw, selector)
            if compiled:
                reach, radius, effect = compiled
                effects.setdefault((reach, radius, t), []).append(effect)
        for j, raw in enumerate(_listed(chk, spec, "actions", ("pieces", i))):
            action = _compile_action(chk, ("pieces", i, "actions", j), raw, selector)
            if action:
                actions.setdefault(t, []).append(action)
    if not effects and not actions:
        return None
    return EffectTables(grid, len(selector.types), effects, actions)


def _listed(chk, spec: dict, key: str, path: tuple) -> list:
    value = spec.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        chk.add(path + (key,), f"expected a list of {key}, got {quote(value)}")
        return []
    return value


def _check_keys(chk, raw, path: tuple, known: set, what: str) -> bool:
    if not isinstance(raw, dict):
        chk.add(path, f"expected a mapping for an {what} (with at least 'kind'), got {quote(raw)}")
        return False
    return True


def _number(chk, raw: dict, key: str, path: tuple, default: int | None) -> int:
    value = raw.get(key, default)
    if value is None:
        chk.add(path, f"missing key '{key}'")
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        chk.add(path + (key,), f"expected a whole number of squares, got {quote(value)}")
        return 0
    return value


def _compile_effect(chk, path: tuple, raw, selector) -> tuple | None:
    if not _check_keys(chk, raw, path, EFFECT_KEYS, "effect"):
        return None
    kind, reach = raw.get("kind"), raw.get("reach", "orthogonal")
    if kind not in EFFECT_KINDS:
        chk.add(path + ("kind",), f"unknown effect kind {quote(kind)} (kinds: {', '.join(EFFECT_KINDS)})")
        return None
    if reach not in REACHES:
        chk.add(path + ("reach",), f"unknown reach {quote(reach)} (reaches: {', '.join(REACHES)})")
        return None
    radius = _number(chk, raw, "radius", path, 1) if reach == "king" else 1

    def sel(key: str, default):
        value = raw.get(key, default)
        return selector.select(value, path + (key,)) if value else frozenset()

    effect = Effect(
        kind=kind, targets=sel("targets", "any"), spare=sel("spare", None), backfire=sel("backfire", None),
        cause=str(raw.get("cause", "destroyed" if kind == "destroy" else "spotted")),
        reason=str(raw.get("reason", "{piece} destroyed by the {source}")),
        backfire_reason=str(raw.get("backfire_reason", "the {piece} destroys the {source}")),
    )
    for key in ("reason", "backfire_reason"):
        try:
            getattr(effect, key).format(piece="", source="")
        except (KeyError, IndexError, ValueError):
            chk.add(path + (key,), f"{key} may use only {{piece}} and {{source}}")
    return reach, radius, effect


def _compile_action(chk, path: tuple, raw, selector) -> Action | None:
    if isinstance(raw, str):
        raw = {"kind": raw}
    if not _check_keys(chk, raw, path, ACTION_KEYS, "action"):
        return None
    kind = raw.get("kind")
    if kind not in ACTION_KINDS:
        chk.add(path + ("kind",), f"unknown action kind {quote(kind)} (kinds: {', '.join(ACTION_KINDS)})")
        return None
    if kind == ILLUMINATE:
        return Action(kind, radius=_number(chk, raw, "radius", path, None),
                      reveal_self=bool(raw.get("reveal_self", False)))
    targets = raw.get("targets", "any")
    return Action(kind, range=_number(chk, raw, "range", path, None),
                  targets=selector.select(targets, path + ("targets",)),
                  revealed_only=bool(raw.get("revealed_only", True)), reveal_self=bool(raw.get("reveal_self", True)),
                  reason=str(raw.get("reason", "")))


# ---------------------------------------------------------------------------------------------------
# Rule hooks
# ---------------------------------------------------------------------------------------------------
@hookimpl
def gibson_on_arrival(state, pid, square, events):
    """Blasts, anti-aircraft zones and spotting: the effects in reach of the square a piece ended on."""
    tables = state.variant.rules.get("effects")
    if tables is not None and tables.reaches:
        tables.on_arrival(state, pid, square, events)


@hookimpl
def gibson_extra_moves(state, player):
    """Illuminate and fire actions."""
    tables = state.variant.rules.get("effects")
    if tables is not None and tables.has_actions:
        return tables.action_moves(state, player)
    return None


@hookimpl
def gibson_apply_action(state, move, events):
    """Carry out illuminate and fire."""
    if move.kind not in ACTION_KINDS:
        return None
    state.variant.rules["effects"].apply(state, move, events)
    return True
