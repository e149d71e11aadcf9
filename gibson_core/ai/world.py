"""Determinization: a full GameState an agent builds from its own Observation and its own guess of the
hidden enemy types. The agent never sees the real state; the world it searches is of its own making.

Pieces keep their handles through a ``handle -> piece number`` map (the engine numbers pieces by owner and
square, so after pieces have moved the numbers differ from the handles). Moved and revealed flags, the
ply count, the public tokens and each piece's progress along a winning path (followed from the public move
events) are carried over, so the world's legal moves match the Observation's.
"""

from __future__ import annotations

from ..events import Acted, Attacked, Moved, Removed
from ..movegen import MoveTables
from ..observe import Observation
from ..state import NO_RUN, GameState


def variant_of(observation: Observation):
    """The compiled variant an Observation belongs to (with its options; cached by the plugin loader)."""
    from ..plugins import load_variant

    return load_variant(observation.variant, dict(observation.options) or None)


def path_progress(observation: Observation, variant) -> dict:
    """``{handle: path id}`` for pieces currently following a winning path (entered at its mouth and only
    stepping along it since), replayed from the public Moved events."""
    tables = MoveTables.for_variant(variant)
    if not tables.path_entries:
        return {}
    index = variant.grid.index
    track: dict = {}
    for ply_events in observation.events:
        for e in ply_events:
            if not isinstance(e, Moved):
                continue
            o, d = index[e.origin], index[e.dest]
            k = track.get(e.handle, -1)
            if k >= 0 and not (o in tables.path_inner[k] and d in tables.path_inner[k]):
                k = -1
            entry = tables.path_entries.get((o, d))
            track[e.handle] = entry if entry is not None else k
    return {h: k for h, k in track.items() if k >= 0}


def repetition_counts(observation: Observation, variant) -> tuple[dict, int]:
    """``({player index: (handle, from, to, moves in the run)}, plies without an attack)`` for the variant's
    repetition rules (``variant.repetition``), replayed from the public events: both count only moves,
    attacks and squares everyone sees, so a world built from an Observation refuses the same moves."""
    if not variant.repetition.active:
        return {}, 0
    index = variant.grid.index
    runs: dict = {}
    quiet = 0
    for ply_events in observation.events:
        attacked = any(isinstance(e, Attacked) for e in ply_events)
        quiet = 0 if attacked else quiet + 1
        moved = [e for e in ply_events if isinstance(e, Moved)]
        mover = next((e.player for e in ply_events if isinstance(e, Moved | Attacked | Acted)), None)
        if mover is None:
            continue
        p = variant.player_index(mover)
        plain = (len(moved) == 1 and not attacked and not any(isinstance(e, Acted) for e in ply_events)
                 and not any(isinstance(e, Removed) and e.handle == moved[0].handle for e in ply_events))
        if not plain:
            runs[p] = None
            continue
        e = moved[0]
        o, d = index[e.origin], index[e.dest]
        last = runs.get(p)
        runs[p] = (e.handle, o, d, last[3] + 1 if last and last[:3] == (e.handle, d, o) else 1)
    return runs, quiet


class World:
    """Determinized positions built from one Observation: :meth:`build` makes a fresh GameState in which
    the hidden enemy pieces have the types of a given assignment (``{handle: type id}``).

    ``pid[handle]`` and ``handle[pid]`` translate between Observation handles and piece numbers (the same in
    every built state: pieces are numbered by owner and square, never by type); ``hidden`` lists the piece
    numbers whose types are guesses; ``state`` is the state built from the first assignment.
    """

    def __init__(self, observation: Observation, variant, assignment: dict):
        self.observation = observation
        self.variant = variant
        self.me = variant.player_index(observation.player)
        self._fallback = variant.types[0].id
        self._track = path_progress(observation, variant)
        self._runs, self._quiet = repetition_counts(observation, variant)
        self.state = self.build(assignment)
        index = variant.grid.index
        self.pid = {p.handle: self.state.board[index[p.square]] for p in observation.pieces}
        self.handle = {pid: h for h, pid in self.pid.items()}
        self.hidden = tuple(self.pid[p.handle] for p in observation.pieces if p.type is None)

    def types(self, assignment: dict) -> list:
        """The type index of every piece number in the position :meth:`build` would make for ``assignment``
        (for a compiled determinization, ``fastpath.FastGame(world.state, world.types(assignment))``)."""
        ptype, index = list(self.state.ptype), self.variant.type_index
        for pid in self.hidden:
            ptype[pid] = index[assignment.get(self.handle[pid], self._fallback)]
        return ptype

    def build(self, assignment: dict) -> GameState:
        """A full position: the Observation's pieces, hidden ones typed by ``assignment``."""
        obs, variant = self.observation, self.variant
        placements = [(p.owner, p.square, p.type if p.type is not None else assignment.get(p.handle, self._fallback))
                      for p in obs.pieces]
        state = GameState(variant, placements, obs.to_move, dict(obs.tokens))
        state.ply = obs.ply
        board, index = state.board, variant.grid.index
        pid_of = {piece.handle: board[index[piece.square]] for piece in obs.pieces}
        for key, value in obs.tokens:
            # a carried token names its carrier by handle; in this state pieces are numbered afresh
            if isinstance(value, tuple) and len(value) == 3 and value[1]:
                state.tokens[key] = (value[0], pid_of.get(value[1], 0), value[2])
        for piece in obs.pieces:
            pid = pid_of[piece.handle]
            state.moved[pid] = piece.moved
            state.revealed[pid] = piece.revealed or (piece.owner != obs.player and piece.type is not None)
            k = self._track.get(piece.handle)
            if k is not None:
                state.track[pid] = k
        if self._runs or self._quiet:
            at = {piece.handle: board[index[piece.square]] for piece in obs.pieces}
            runs = [self._runs.get(p) for p in (0, 1)]
            state.shuttle = tuple((at[r[0]], *r[1:]) if r and r[0] in at else NO_RUN for r in runs)
            state.quiet = self._quiet
        return state
