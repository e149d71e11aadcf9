"""Observation tensors: one player's view of a game as ``float32`` planes of shape ``(C, ranks, files)``.

Plane ``c`` at ``[c, r, f]`` describes square ``files * r + f`` (rank 1 is row 0, file a is column 0); the
board is not turned for the second player: zone planes say whose side is whose. The planes, in order
(:attr:`Encoder.planes` lists their names):

=========================  ==================================================================================
``own:<type>``             one per piece type: the player's own pieces of that type
``enemy:<type>``           one per piece type: enemy pieces whose type has been revealed
``enemy:unknown``          enemy pieces whose type this player does not know
``own:moved``              own pieces that have moved
``enemy:moved``            enemy pieces that have moved (public)
``own:revealed``           own pieces whose type the opponent knows
``terrain:<kind>``         one per terrain kind of the variant (static)
``zone:<name>:own|enemy``  each zone of the variant, the player's and the opponent's half (static)
``flag:own|enemy``         where each Flag is (variants with Flags only)
``flag:carried|mined``     squares of carried Flags and of Flags that lie mined (variants with Flags only)
``phase:setup``            all ones during a set-up phase of placement actions, else zeros
``to-move``                all ones when it is this player's turn
``ply``                    ``min(1, ply / horizon)`` with ``horizon`` the variant's ply limit (2000 without one)
``belief:<type>``          optional (``beliefs=True``): for each hidden enemy piece, the probability that it is
                           of that type, from :mod:`gibson_core.ai.beliefs`
=========================  ==================================================================================

:meth:`Encoder.encode_observation` encodes an :class:`~gibson_core.observe.Observation` (the reference: it can
only use what the Observation holds). :class:`PlayerView` produces the same tensor from a running game in step
with it: it reads, for one player, exactly the fields an Observation exposes (owners, the player's own types,
revealed types, moved and revealed flags, public tokens, ply, side to move) and refreshes only the squares
named by the events of the moves made since it last looked. The tests check the two agree move by move.
"""

from __future__ import annotations

from array import array

import numpy as np

from gibson_core.events import Attacked, Moved, Removed, Retreated, Revealed, TokenMoved
from gibson_core.observe import Observation, observe

DEFAULT_HORIZON = 2000
_SQUARES_OF = {Moved: ("origin", "dest"), Retreated: ("origin", "dest"), Removed: ("square",),
               Revealed: ("square",), Attacked: ("origin", "target")}


class Encoder:
    """The plane layout of one compiled variant (``beliefs`` adds the belief planes)."""

    def __init__(self, variant, beliefs: bool = False):
        self.variant = variant
        self.beliefs = beliefs
        grid = variant.grid
        self.size = size = grid.size
        types = [t.id for t in variant.types]
        self.n_types = len(types)
        names = [f"own:{t}" for t in types] + [f"enemy:{t}" for t in types]
        names += ["enemy:unknown", "own:moved", "enemy:moved", "own:revealed"]
        names += [f"terrain:{k}" for k in variant.kinds]
        zones = list(variant.zones)
        names += [f"zone:{z}:{side}" for z in zones for side in ("own", "enemy")]
        self.flags = variant.rules.get("flags")
        if self.flags is not None:
            names += ["flag:own", "flag:enemy", "flag:carried", "flag:mined"]
        names += ["phase:setup", "to-move", "ply"]
        self.n_base = len(names)
        if beliefs:
            names += [f"belief:{t}" for t in types]
        self.planes = tuple(names)
        self.at = {name: i for i, name in enumerate(names)}
        self.shape = (len(names), grid.ranks, grid.files)
        self.horizon = variant.ply_limit or DEFAULT_HORIZON
        self.to_move_at, self.ply_at = self.at["to-move"] * size, self.at["ply"] * size
        # the static planes (terrain, zones) of each player, as a flat buffer of the base planes
        self.static = []
        for player in variant.players:
            other = variant.players[1 - variant.player_index(player)]
            buf = array("f", bytes(4 * self.n_base * size))
            for sq, kind in enumerate(variant.cell_kind):
                if f"terrain:{kind}" in self.at:
                    buf[self.at[f"terrain:{kind}"] * size + sq] = 1.0
            for z in zones:
                for side, who in (("own", player), ("enemy", other)):
                    for sq in variant.zones[z].get(who, ()):
                        buf[self.at[f"zone:{z}:{side}"] * size + sq] = 1.0
            self.static.append(buf)

    # -- the reference: from an Observation ---------------------------------------------------------------
    def encode_observation(self, obs: Observation, setup_phase: bool = False) -> np.ndarray:
        """The tensor of ``obs`` (uses nothing but the Observation)."""
        variant = self.variant
        p = variant.player_index(obs.player)
        size, at, index = self.size, self.at, variant.grid.index
        out = np.frombuffer(self.static[p], np.float32).reshape(self.n_base, size).copy()
        for piece in obs.pieces:
            sq = index[piece.square]
            mine = piece.owner == obs.player
            if mine:
                out[at[f"own:{piece.type}"], sq] = 1.0
                if piece.revealed:
                    out[at["own:revealed"], sq] = 1.0
            else:
                out[at["enemy:unknown"] if piece.type is None else at[f"enemy:{piece.type}"], sq] = 1.0
            if piece.moved:
                out[at["own:moved" if mine else "enemy:moved"], sq] = 1.0
        if self.flags is not None:
            tokens = dict(obs.tokens)
            for key, owner in zip(self.flags.keys, variant.players, strict=True):
                square, carrier, mined = tokens[key]
                sq = index[square]
                out[at["flag:own" if owner == obs.player else "flag:enemy"], sq] = 1.0
                if carrier:
                    out[at["flag:carried"], sq] = 1.0
                if mined:
                    out[at["flag:mined"], sq] = 1.0
        self._globals(out, setup_phase, obs.to_move == obs.player and obs.result is None, obs.ply)
        out = out.reshape(self.n_base, *self.shape[1:])
        if self.beliefs:
            out = np.concatenate([out, self.belief_planes(obs)])
        return out

    def _globals(self, out: np.ndarray, setup_phase: bool, my_turn: bool, ply: int) -> None:
        at = self.at
        if setup_phase:
            out[at["phase:setup"]] = 1.0
        if my_turn:
            out[at["to-move"]] = 1.0
        out[at["ply"]] = min(1.0, ply / self.horizon)

    def belief_planes(self, obs: Observation) -> np.ndarray:
        """The ``belief:<type>`` planes of an Observation."""
        from gibson_core.ai.beliefs import infer_beliefs

        planes = np.zeros((self.n_types, self.size), np.float32)
        squares = {piece.handle: piece.square for piece in obs.pieces}
        index, type_index = self.variant.grid.index, self.variant.type_index
        for handle, dist in infer_beliefs(obs, self.variant).marginals().items():
            sq = index[squares[handle]]
            for type_id, prob in dist.items():
                planes[type_index[type_id], sq] = prob
        return planes.reshape(self.n_types, *self.shape[1:])

    def setup_tensor(self, player: str, placed: dict, to_move: bool) -> np.ndarray:
        """The tensor during a set-up phase: the player's own placements so far (``{square: type id}``)."""
        p = self.variant.player_index(player)
        out = np.frombuffer(self.static[p], np.float32).reshape(self.n_base, self.size).copy()
        index, at = self.variant.grid.index, self.at
        for square, type_id in placed.items():
            out[at[f"own:{type_id}"], index[square]] = 1.0
        self._globals(out, True, to_move, 0)
        out = out.reshape(self.n_base, *self.shape[1:])
        if self.beliefs:
            out = np.concatenate([out, np.zeros((self.n_types, *self.shape[1:]), np.float32)])
        return out

    def view(self, player: str) -> PlayerView:
        """A fresh incremental view for ``player``."""
        return PlayerView(self, self.variant.player_index(player))


class PlayerView:
    """One player's tensor kept in step with a running GameState (see the module docstring)."""

    def __init__(self, encoder: Encoder, p: int):
        self.enc = encoder
        self.p = p
        self.player = encoder.variant.players[p]
        size = encoder.size
        self.own_off = tuple(t * size for t in range(encoder.n_types))
        self.enemy_off = tuple((encoder.n_types + t) * size for t in range(encoder.n_types))
        at = encoder.at
        self.unknown, self.own_moved, self.enemy_moved, self.own_revealed = (
            at[k] * size for k in ("enemy:unknown", "own:moved", "enemy:moved", "own:revealed"))
        self.state = None
        self.synced = 0
        self.buf = array("f")
        self.set_at: list = []
        self.flag_offs: list = []

    def tensor(self, state) -> np.ndarray:
        """The player's tensor in ``state`` now (a new array)."""
        self.sync(state)
        enc = self.enc
        out = np.frombuffer(self.buf, np.float32).copy()
        size = enc.size
        if state.to_move == self.p and state.result is None:
            out[enc.to_move_at:enc.to_move_at + size] = 1.0
        out[enc.ply_at:enc.ply_at + size] = min(1.0, state.ply / enc.horizon)
        out = out.reshape(enc.n_base, *enc.shape[1:])
        if enc.beliefs:
            out = np.concatenate([out, enc.belief_planes(observe(state, self.player))])
        return out

    def sync(self, state) -> None:
        """Catch up with the moves made in ``state`` since the last call (a rebuild for another state)."""
        history = state.history
        if state is not self.state or len(history) < self.synced:
            self.rebuild(state)
            return
        if len(history) == self.synced:
            return
        index = state.grid.index
        dirty = set()
        flags = False
        for _move, events in history[self.synced:]:
            for e in events:
                names = _SQUARES_OF.get(type(e))
                if names is not None:
                    for name in names:
                        dirty.add(index[getattr(e, name)])
                elif type(e) is TokenMoved:
                    flags = True
        for sq in dirty:
            self._put(state, sq)
        if flags:
            self._flags(state)
        self.synced = len(history)

    def rebuild(self, state) -> None:
        """Encode every square of ``state`` afresh."""
        self.state = state
        self.buf = array("f", self.enc.static[self.p])
        self.set_at = [()] * self.enc.size
        self.flag_offs = []
        for sq, pid in enumerate(state.board):
            if pid:
                self._put(state, sq)
        self._flags(state)
        self.synced = len(state.history)

    def _put(self, state, sq: int) -> None:
        buf = self.buf
        for off in self.set_at[sq]:
            buf[off] = 0.0
        pid = state.board[sq]
        if not pid:
            self.set_at[sq] = ()
            return
        if state.owner[pid] == self.p:
            offs = [self.own_off[state.ptype[pid]] + sq]
            if state.moved[pid]:
                offs.append(self.own_moved + sq)
            if state.revealed[pid]:
                offs.append(self.own_revealed + sq)
        else:
            offs = [(self.enemy_off[state.ptype[pid]] if state.revealed[pid] else self.unknown) + sq]
            if state.moved[pid]:
                offs.append(self.enemy_moved + sq)
        for off in offs:
            buf[off] = 1.0
        self.set_at[sq] = offs

    def _flags(self, state) -> None:
        flags = self.enc.flags
        if flags is None:
            return
        buf, at, size, index = self.buf, self.enc.at, self.enc.size, state.grid.index
        for off in self.flag_offs:
            buf[off] = 0.0
        offs = []
        for f, key in enumerate(flags.keys):
            square, carrier, mined = state.tokens[key]
            sq = index[square]
            offs.append(at["flag:own" if f == self.p else "flag:enemy"] * size + sq)
            if carrier:
                offs.append(at["flag:carried"] * size + sq)
            if mined:
                offs.append(at["flag:mined"] * size + sq)
        for off in offs:
            buf[off] = 1.0
        self.flag_offs = offs
