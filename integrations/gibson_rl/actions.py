"""A fixed, numbered action space per variant, computed from its compiled tables.

Every move any piece of the variant could ever make is read off the engine's move tables (each ready-made
``Move`` object in them: from square, to square, attack target or none, and any other move shape the tables
grow later), then every action the variant's rule sections allow anywhere on the board (``d5@`` for pieces
that illuminate, ``c4*f6`` within each firing piece's range, ``c4>c5`` hand-overs when the variant has
Flags). The list is sorted by (kind, origin, destination, target) square indices and numbered once, so the
numbering is a function of the variant file (and its options) alone: :attr:`ActionSpace.digest` names it.

Optionally (``placements=True``) set-up placements ``e2=Sc`` (put a piece of type Sc on e2) are numbered
after every move, for environments with a set-up phase; the move numbers do not change.
"""

from __future__ import annotations

import hashlib

import attrs
import numpy as np

from gibson_core.errors import GibsonError
from gibson_core.movegen import MoveTables
from gibson_core.moves import FIRE, HANDOVER, ILLUMINATE, MOVE, Move


class ActionError(GibsonError, ValueError):
    """An action number or move outside a variant's action space."""


@attrs.frozen
class Placement:
    """A set-up placement: a piece of type ``type`` goes on ``square`` (written ``e2=Sc``)."""

    square: str
    type: str

    def __str__(self) -> str:
        return f"{self.square}={self.type}"


def _table_moves(tables: MoveTables) -> list[Move]:
    """Every Move object held anywhere in the compiled move tables (whatever their attribute or nesting), in
    a deterministic order (the tables are tuples and dicts built in square order)."""
    found: dict[Move, None] = {}
    seen: set[int] = set()
    stack = [value for _name, value in sorted(vars(tables).items()) if not callable(value)]
    stack.reverse()
    while stack:
        item = stack.pop()
        if isinstance(item, Move):
            found.setdefault(item, None)
        elif isinstance(item, tuple | list | dict) and id(item) not in seen:
            seen.add(id(item))
            values = item.values() if isinstance(item, dict) else item
            stack.extend(reversed([v for v in values if isinstance(v, Move | tuple | list | dict)]))
    return list(found)


def _rule_actions(variant) -> list[Move]:
    """Every action the variant's rule sections allow from any square: illuminate, fire within range,
    hand-over to an orthogonal neighbour (never across a wall)."""
    grid = variant.grid
    names = grid.names
    out: list[Move] = []
    effects = variant.rules.get("effects")
    if effects is not None:
        for acts in effects.actions:
            for act in acts:
                for o in range(grid.size):
                    if act.kind == ILLUMINATE:
                        out.append(Move(names[o], None, None, ILLUMINATE))
                    elif act.kind == FIRE:
                        out.extend(Move(names[o], None, names[d], FIRE) for d in range(grid.size)
                                   if d != o and grid.manhattan(o, d) <= act.range)
    if variant.rules.get("flags") is not None:
        for o in range(grid.size):
            out.extend(Move(names[o], None, names[a], HANDOVER) for a in grid.orth[o])
    return out


class ActionSpace:
    """The numbered actions of one compiled variant.

    ``moves[i]`` is the Move numbered ``i`` (for ``i < n_moves``); with ``placements`` the Placements follow.
    :meth:`index` and :meth:`move` translate; :meth:`mask` marks legal moves.
    """

    def __init__(self, variant, placements: bool = False):
        self.variant = variant
        grid = variant.grid
        index = grid.index
        found = dict.fromkeys(_table_moves(MoveTables.for_variant(variant)))
        found.update(dict.fromkeys(_rule_actions(variant)))

        def key(m: Move) -> tuple:
            return (m.kind != MOVE, m.kind, index[m.origin], index[m.dest] if m.dest else -1,
                    index[m.target] if m.target else -1)

        self.moves: tuple[Move, ...] = tuple(sorted(found, key=key))
        self.n_moves = len(self.moves)
        self._by_move = {m: i for i, m in enumerate(self.moves)}
        # The engine hands out the interned Move objects of its tables: an identity lookup is the fast path.
        # ``self.moves`` keeps every interned object alive, so an id here is never reused by another object.
        interned = _table_moves(MoveTables.for_variant(variant))
        self._by_id = {id(m): self._by_move[m] for m in interned}
        self._kept: list[Move] = []  # other interned objects met (rule actions), kept alive for their ids
        self.placements: tuple[Placement, ...] = ()
        if placements:
            self.placements = tuple(Placement(grid.names[sq], t.id) for sq in range(grid.size) for t in variant.types)
            self._type_count = len(variant.types)
        self.n = self.n_moves + len(self.placements)
        # names the move numbering (placements, when present, follow it in a fixed order of their own)
        self.digest = hashlib.sha256("\n".join(map(str, self.moves)).encode()).hexdigest()[:16]

    def __len__(self) -> int:
        return self.n

    def index(self, move: Move | Placement | str) -> int:
        """The number of a move (a Move, a Placement or notation text); ActionError when it has none."""
        if isinstance(move, Move):
            i = self._by_id.get(id(move))
            if i is None:
                i = self._by_move.get(move)
                if i is None:
                    raise ActionError(f"{move} is not in the action space of {self.variant.name}")
                if len(self._kept) < 2 * self.n:  # bounded, in case a generator does not intern its moves
                    self._kept.append(move)
                    self._by_id[id(move)] = i
            return i
        if isinstance(move, Placement):
            return self.placement_index(move.square, move.type)
        if isinstance(move, str):
            if "=" in move:
                square, _, type_id = move.partition("=")
                return self.placement_index(square.strip().lower(), type_id.strip())
            return self.index(Move.parse(move))
        raise ActionError(f"not a move: {str(move)[:40]!r}")

    def placement_index(self, square: str, type_id: str) -> int:
        """The number of the placement of a ``type_id`` piece on ``square``."""
        if not self.placements:
            raise ActionError("this action space has no set-up placements (placements=False)")
        sq = self.variant.grid.index.get(square)
        t = self.variant.type_index.get(type_id)
        if sq is None or t is None:
            raise ActionError(f"no placement {square[:8]}={type_id[:8]} in {self.variant.name}")
        return self.n_moves + sq * self._type_count + t

    def move(self, action: int) -> Move | Placement:
        """The Move (or Placement) numbered ``action``; ActionError outside ``0..n-1``."""
        if not isinstance(action, int | np.integer) or isinstance(action, bool) or not 0 <= action < self.n:
            raise ActionError(f"action {str(action)[:20]} is outside 0..{self.n - 1} for {self.variant.name}")
        action = int(action)
        return self.moves[action] if action < self.n_moves else self.placements[action - self.n_moves]

    def indices(self, moves) -> list[int]:
        """The numbers of a list of moves (legal moves of the engine: the fast path)."""
        by_id = self._by_id
        try:
            return [by_id[id(m)] for m in moves]
        except KeyError:
            return [self.index(m) for m in moves]

    def mask(self, moves) -> np.ndarray:
        """An int8 vector of length ``n``: 1 for each of ``moves``, 0 elsewhere."""
        mask = np.zeros(self.n, np.int8)
        if moves:
            mask[self.indices(moves)] = 1
        return mask


_SPACES: dict = {}


def action_space(variant, placements: bool = False) -> ActionSpace:
    """The (cached) action space of a compiled variant."""
    key = (id(variant), placements)
    hit = _SPACES.get(key)
    if hit is None or hit.variant is not variant:
        hit = _SPACES[key] = ActionSpace(variant, placements)
    return hit


def action_to_move(variant, action: int) -> Move | Placement:
    """The Move (or Placement) numbered ``action`` in ``variant``'s action space."""
    return action_space(variant, placements=True).move(action)


def move_to_action(variant, move: Move | Placement | str) -> int:
    """The number of ``move`` in ``variant``'s action space."""
    return action_space(variant, placements=True).index(move)
