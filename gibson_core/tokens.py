"""Carried tokens: Flags that lie on a square or are carried by a piece (Dover Patrol), declared by a variant's
top-level ``flags`` key and applied by the rule hooks below. The game's plugin manager registers this module
whenever the data declares ``flags`` (``gibson_core.plugins.CORE_RULES``); with ``flags`` absent or null (an
option may switch them off) it is not registered at all::

    flags:
      base: base               # the zone holding each player's Base: where its Flag starts and where both
                               #   Flags must be brought to win
      cannot_carry: [Mine]     # pieces that never carry a Flag (nor receive one by hand-over)
      mined_when: [blast]      # removal causes after which the dropped Flags lie "mined"...
      mined_pickup: [MS]       # ...and only these pieces may move onto them (and pick them up)
      leave_enemy_base: true   # a piece that comes to hold the enemy Flag on the enemy Base (picked up or
                               #   handed over there) runs aground unless it moves off with its owner's next
                               #   move; each side's obligation is its own

Each Flag is the token ``flag:<player>`` in ``state.tokens``: ``(square name, carrier, mined)`` where
``carrier`` is the carrying piece's handle (0 when the Flag lies on the square). Flags are visible to both
players, so they appear in every Observation and the rules may depend on them.

The rules: a piece picks up the enemy Flag lying where it ends its move, and its own Flag lying anywhere
but its own Base; a piece carrying its own Flag onto its own Base leaves it lying there; a removed carrier's
Flags lie where it stood; a carrier not on a Base may hand one Flag (the enemy's first) to an adjacent own
piece, not across a wall (``c4>c5``); a carrier may not attack a carrier of the other Flag; a move that wins
cannot carry an attack, and ends the game before any blast; a player wins when after their move both Flags lie on
their own Base or are carried there by one of their own pieces (an enemy carrier on your Base wins you
nothing); who carries is judged at the start of a move; a player who cannot move loses if the opponent's Flag
lies on the opponent's Base, and otherwise the game is drawn.
"""

from __future__ import annotations

from . import events as ev
from .errors import quote
from .hookspecs import hookimpl
from .moves import HANDOVER, MOVE, Move
from .variant_schema import FLAGS, record_keys

FLAG_KEYS = set(record_keys(FLAGS.types[0]))  # declared with their types in variant_schema
AGROUND = "_aground:"  # + player: (piece, ply it came to hold the Flag), the piece that must leave the enemy Base


class FlagRules:
    """The compiled ``flags`` section of a variant: each player's Base and the carrying rules."""

    def __init__(self, grid, players: tuple, bases: tuple, cannot_carry: frozenset, mined_when: frozenset,
                 mined_pickup: frozenset, leave_enemy_base: bool):
        self.grid = grid
        self.players = players
        self.keys = tuple(f"flag:{p}" for p in players)
        self.aground_keys = tuple(f"{AGROUND}{p}" for p in players)  # one obligation per side
        self.bases = bases  # square index of each player's Base
        self.base_names = tuple(grid.names[b] for b in bases)
        self.cannot_carry = cannot_carry
        self.mined_when = mined_when
        self.mined_pickup = mined_pickup
        self.leave_enemy_base = leave_enemy_base
        self._moves: dict[tuple, Move] = {}

    # -- reading ----------------------------------------------------------------------------------------
    def squares(self, state) -> dict[str, str]:
        """``{player: square name}`` of each Flag (a carried Flag is where its carrier stands)."""
        return {p: state.tokens[key][0] for p, key in zip(self.players, self.keys, strict=True)}

    def _set(self, state, p: int, square: int, carrier: int, mined: bool, reason: str, events: list) -> None:
        name = self.grid.names[square]
        state.tokens[self.keys[p]] = (name, carrier, mined)
        events.append(ev.TokenMoved(self.keys[p], name, carrier or None, reason))

    def init(self, state) -> None:
        """Each Flag lies on its owner's Base unless the state already has it."""
        for p, key in enumerate(self.keys):
            state.tokens.setdefault(key, (self.base_names[p], 0, False))

    def place(self, state, where: dict) -> None:
        """Put Flags on squares (``{player: square name}``): carried by the piece standing there, except a
        player's own Flag on their own Base, which lies there."""
        for player, name in where.items():
            p = self.players.index(player)
            sq = state.grid.square(str(name))
            q = state.board[sq]
            carried = q and not (state.owner[q] == p and sq == self.bases[p])
            state.tokens[self.keys[p]] = (state.grid.names[sq], q if carried else 0, False)

    # -- the move's consequences ------------------------------------------------------------------------
    def arrive(self, state, pid: int, events: list) -> None:
        """Piece ``pid`` ended its move (or received a Flag) where it stands: carry, leave or pick up Flags."""
        me, sq = state.owner[pid], state.square[pid]
        name = self.grid.names[sq]
        for p, key in enumerate(self.keys):
            where, carrier, _mined = state.tokens[key]
            if carrier == pid:
                if p == me and sq == self.bases[me]:
                    self._set(state, p, sq, 0, False, "left on its own Base", events)
                elif where != name:
                    state.tokens[key] = (name, pid, False)
            elif carrier == 0 and where == name and state.ptype[pid] not in self.cannot_carry:
                if p == me and sq == self.bases[me]:
                    continue
                self._set(state, p, sq, pid, False, "picked up", events)
                self._watch(state, pid, p, sq)

    def _watch(self, state, pid: int, p: int, sq: int) -> None:
        """``pid`` came to hold ``p``'s Flag on ``sq``: if that is the enemy Base, its owner must move it off."""
        me = state.owner[pid]
        if p != me and sq == self.bases[p] and self.leave_enemy_base:
            state.tokens[self.aground_keys[me]] = (pid, state.ply)

    def arrival_wins(self, state, pid: int, square: int) -> bool:
        """Would piece ``pid`` arriving on ``square`` win by the Flags (checked before any blast)?"""
        me = state.owner[pid]
        if square != self.bases[me]:
            return False
        name = self.grid.names[square]
        for key in self.keys:
            where, carrier, _mined = state.tokens[key]
            if carrier == pid or (carrier == 0 and where == name):
                continue  # carried onto the Base, or lying on it (picked up or left there)
            return False
        return True

    def run_aground(self, state, me: int, events: list) -> None:
        """``me`` made their next move after one of their pieces came to hold the enemy Flag on the enemy
        Base: if it is still there it runs aground (removed; the Flag lies on the Base again)."""
        key = self.aground_keys[me]
        watch = state.tokens.get(key)
        if watch is None or watch[1] == state.ply:
            return
        pid = watch[0]
        del state.tokens[key]
        if state.square[pid] == self.bases[1 - me]:
            state.remove(pid, f"{state.type_of(pid).name} runs aground: it did not leave the enemy Base", events,
                         cause="aground", hidden_reason="a ship runs aground: it did not leave the enemy Base")

    def dropped(self, state, pid: int, square: int, cause: str, events: list) -> None:
        """A removed carrier's Flags lie where it stood (mined after a blast)."""
        for p, key in enumerate(self.keys):
            if state.tokens[key][1] == pid:
                mined = cause in self.mined_when
                self._set(state, p, square, 0, mined, "dropped (mined)" if mined else "dropped", events)
        for key in self.aground_keys:
            watch = state.tokens.get(key)
            if watch is not None and watch[0] == pid:
                del state.tokens[key]

    def winner(self, state) -> tuple | None:
        """After a move by the side to move: both Flags lying on that side's Base or carried there by one of
        its own pieces wins (an enemy carrier standing on the Base does not count)."""
        me = state.to_move
        base = self.base_names[me]
        owner = state.owner
        if all(state.tokens[key][0] == base and (state.tokens[key][1] == 0 or owner[state.tokens[key][1]] == me)
               for key in self.keys):
            return self.players[me], f"both Flags are on {self.players[me]}'s Base"
        return None

    def stalemate(self, state, player: int) -> tuple:
        """The result when ``player`` cannot move: a loss if the opponent's Flag lies on the opponent's
        Base, otherwise a draw (this replaces the family rule that such a player loses)."""
        opponent = 1 - player
        where, carrier, _mined = state.tokens[self.keys[opponent]]
        names = self.players
        if carrier == 0 and where == self.base_names[opponent]:
            return names[opponent], f"{names[player]} has no legal move while {names[opponent]}'s Flag lies on its Base"
        return None, f"{names[player]} has no legal move and {names[opponent]}'s Flag is not on its Base"

    # -- hand-over --------------------------------------------------------------------------------------
    def handovers(self, state, me: int) -> list[Move]:
        """Hand-over actions of ``me``'s carriers that are not on a Base."""
        out: list[Move] = []
        seen = set()
        board, owner, ptype, names = state.board, state.owner, state.ptype, self.grid.names
        for key in self.keys:
            carrier = state.tokens[key][1]
            if not carrier or owner[carrier] != me or carrier in seen:
                continue
            seen.add(carrier)
            o = state.square[carrier]
            if o in self.bases:
                continue
            for a in self.grid.orth[o]:
                q = board[a]
                if q and owner[q] == me and ptype[q] not in self.cannot_carry:
                    mv = self._moves.get((o, a))
                    if mv is None:
                        mv = self._moves[(o, a)] = Move(names[o], None, names[a], HANDOVER)
                    out.append(mv)
        return out

    def hand_over(self, state, move: Move, events: list) -> None:
        """Pass one Flag (the enemy's first) from the carrier to the receiver (assumed legal)."""
        index = self.grid.index
        carrier, receiver = state.board[index[move.origin]], state.board[index[move.target]]
        me = state.owner[carrier]
        events.append(ev.Acted(self.players[me], HANDOVER, str(move)))
        p = 1 - me if state.tokens[self.keys[1 - me]][1] == carrier else me
        sq = state.square[receiver]
        if p == me and sq == self.bases[me]:
            self._set(state, p, sq, 0, False, "handed over onto its own Base", events)
        else:
            self._set(state, p, sq, receiver, False, "handed over", events)
            self._watch(state, receiver, p, sq)

    # -- what the rules forbid (visible facts only) -----------------------------------------------------
    def filter(self, state, me: int, moves: list) -> list:
        """Drop moves onto mined Flags (but a sweeper's), attacks between carriers of the two Flags, and
        attacks carried by a move that wins."""
        flags = [state.tokens[key] for key in self.keys]
        if not any(f[1] or f[2] for f in flags):
            return moves  # both Flags lie unmined: the common case
        mined = {f[0] for f in flags if f[1] == 0 and f[2]}
        carriers = [f[1] for f in flags if f[1]]
        board, owner, index, ptype = state.board, state.owner, self.grid.index, state.ptype
        mine = {c for c in carriers if owner[c] == me}
        theirs = {c for c in carriers if owner[c] != me}
        base = self.base_names[me]
        home = [f for f in flags if f[1] == 0 and f[0] == base or f[1] in mine]
        out = []
        for mv in moves:
            if mv.kind == MOVE:
                if mv.dest in mined and ptype[board[index[mv.origin]]] not in self.mined_pickup:
                    continue
                if mv.target is not None:
                    mover = board[index[mv.origin]]
                    if mover in mine and board[index[mv.target]] in theirs:
                        continue
                    if mv.dest == base and len(home) == len(flags) and all(
                            f[1] == 0 or f[1] == mover for f in home):
                        continue
            out.append(mv)
        return out

    def explain(self, state, move: Move) -> str | None:
        """Why a move or hand-over is refused by a Flag rule, or None."""
        index = self.grid.index
        pid = state.board[index[move.origin]]
        flags = [state.tokens[key] for key in self.keys]
        if move.kind == HANDOVER:
            if not any(f[1] == pid for f in flags):
                return f"the piece on {move.origin} carries no Flag"
            if index[move.origin] in self.bases:
                return "a carrier standing on a Base may not hand over a Flag"
            return f"{move.target} is not an own piece next to {move.origin} that can carry a Flag"
        if move.kind != MOVE:
            return None
        if any(f[1] == 0 and f[2] and f[0] == move.dest for f in flags):
            names = " or ".join(sorted(state.variant.types[t].name for t in self.mined_pickup)) or "no piece"
            return f"a Flag dropped by a blown-up piece lies on {move.dest}: only a {names} may go there"
        if move.target is not None and any(f[1] == pid for f in flags):
            target = state.board[index[move.target]]
            if target and any(f[1] == target for f in flags):
                return "a piece carrying a Flag may not attack a piece carrying the other Flag"
            return "a move that wins the game cannot carry an attack"
        return None


# ---------------------------------------------------------------------------------------------------
# Compilation
# ---------------------------------------------------------------------------------------------------
def compile_flags(chk, data: dict, grid, zones: dict, players: tuple, selector) -> FlagRules | None:
    """Validate and compile the ``flags`` section; None when the variant (or an option) has no Flags."""
    spec = data.get("flags")
    if spec is None or spec is False:
        return None
    path = ("flags",)
    if not isinstance(spec, dict):
        chk.add(path, f"expected a mapping (base, cannot_carry, ...) or null, got {quote(spec)}")
        return None
    zone = spec.get("base")
    if zone not in zones:
        chk.add(path + ("base",), f"expected the zone of each player's Base, got {quote(zone)} (zones: {', '.join(zones)})")
        return None
    bases = []
    for player in players:
        squares = sorted(zones[zone].get(player, ()))
        if len(squares) != 1:
            chk.add(path + ("base",), f"zone {quote(zone)} must hold exactly one square for {player}, has {len(squares)}")
            return None
        bases.append(squares[0])

    def words(key: str) -> frozenset:
        value = spec.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            chk.add(path + (key,), f"expected a list of words, got {quote(value)}")
            return frozenset()
        return frozenset(value)

    def pieces(key: str) -> frozenset:
        value = spec.get(key)
        return selector.select(value, path + (key,)) if value else frozenset()

    return FlagRules(grid, players, tuple(bases), pieces("cannot_carry"), words("mined_when"),
                     pieces("mined_pickup"), bool(spec.get("leave_enemy_base", True)))


# ---------------------------------------------------------------------------------------------------
# Rule hooks
# ---------------------------------------------------------------------------------------------------
def _rules(state) -> FlagRules | None:
    return state.variant.rules.get("flags")


@hookimpl
def gibson_init_state(state):
    """Each Flag starts on its owner's Base."""
    rules = _rules(state)
    if rules is not None:
        rules.init(state)


@hookimpl
def gibson_extra_moves(state, player):
    """Hand-overs."""
    return _rules(state).handovers(state, player)


@hookimpl
def gibson_filter_moves(state, player, moves):
    """Moves forbidden by a Flag rule."""
    return _rules(state).filter(state, player, moves)


@hookimpl
def gibson_apply_action(state, move, events):
    """Carry out a hand-over."""
    if move.kind != HANDOVER:
        return None
    _rules(state).hand_over(state, move, events)
    return True


@hookimpl
def gibson_after_move(state, move, events):
    """Pick up, carry or leave Flags; run aground."""
    rules = _rules(state)
    me = state.to_move
    if move.kind == MOVE:
        pid = state.board[rules.grid.index[move.dest]]
        if pid and state.owner[pid] == me:
            rules.arrive(state, pid, events)
    rules.run_aground(state, me, events)


@hookimpl
def gibson_arrival_wins(state, pid, square):
    """A move that brings both Flags home wins before any blast."""
    return _rules(state).arrival_wins(state, pid, square) or None


@hookimpl
def gibson_on_removed(state, pid, square, events, cause):
    """A removed carrier drops its Flags where it stood."""
    _rules(state).dropped(state, pid, square, cause, events)


@hookimpl
def gibson_game_result(state):
    """Both Flags on the mover's Base."""
    return _rules(state).winner(state)


@hookimpl
def gibson_no_legal_moves(state, player):
    """Dover Patrol's rule for a player who cannot move."""
    return _rules(state).stalemate(state, player)


@hookimpl
def gibson_vector_setup(state, key, value):
    """``flags: {blue: c3, red: f10}`` in a conformance case."""
    rules = _rules(state)
    if key != "flags" or rules is None:
        return None
    rules.place(state, value or {})
    return True


@hookimpl
def gibson_vector_expect(state, key):
    """``flags`` under ``expect``: where each Flag is."""
    rules = _rules(state)
    if key != "flags" or rules is None:
        return None
    return rules.squares(state)
