"""The game state: position, side to move, history; legal moves from compiled tables; push/pop undo.

``play(move)`` validates and raises :class:`IllegalMoveError` naming the move and the reason; ``push(move)``
is the unchecked fast path for search, and ``pop()`` restores the exact previous state from a snapshot.
Hidden ranks live here and leave only through :func:`gibson_core.observe.observe`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

import attrs

from . import events as ev
from .combat import ATTACKER, DEFENDER, Outcome
from .errors import (
    GibsonError,
    IllegalMoveError,
    NotationError,
    NothingToUndoError,
    NotYourTurnError,
    PluginError,
    SetupError,
    UnknownPieceError,
    quote,
)
from .hookrelay import hook_relay
from .movegen import MoveTables
from .moves import MOVE, Move
from .pieces import IN_LINE, Piece
from .variant import Variant

NO_RUN = (0, -1, -1, 0)


@attrs.frozen
class Result:
    """How a game ended: ``winner`` is a player name, or None for a draw (never a string that could be a
    player's name)."""

    winner: str | None
    reason: str

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None

    def describe(self) -> str:
        """``"red wins: ..."`` or ``"draw: ..."``."""
        return f"draw: {self.reason}" if self.winner is None else f"{self.winner} wins: {self.reason}"


class GameState:
    """One game in progress. Pieces are numbered 1..N by owner then starting square (never by type)."""

    def __init__(self, variant: Variant, placements: Iterable[tuple[str, str, str]], to_move: str | None = None,
                 tokens: Mapping | None = None):
        """``placements``: (player, square name, piece id) triples. ``to_move`` defaults to the first player."""
        self.variant = variant
        grid = variant.grid
        self.grid = grid
        self.tables: MoveTables = MoveTables.for_variant(variant)
        rows = []
        for player, square, type_id in placements:
            p = variant.player_index(player)
            sq = grid.square(square)
            if not isinstance(type_id, str) or type_id not in variant.type_index:
                raise SetupError(f"{variant.name} has no piece {quote(type_id, 30)} (at {quote(square, 20)})")
            rows.append((p, sq, variant.type_index[type_id]))
        rows.sort()
        self.board = [0] * grid.size
        self.owner = [-1]
        self.ptype = [-1]
        self.square = [-1]
        self.pids: tuple = ([], [])
        for p, sq, t in rows:
            if self.board[sq]:
                raise SetupError(f"two pieces on {grid.name(sq)}")
            pid = len(self.owner)
            self.owner.append(p)
            self.ptype.append(t)
            self.square.append(sq)
            self.board[sq] = pid
            self.pids[p].append(pid)
        self.pids = (tuple(self.pids[0]), tuple(self.pids[1]))
        n = len(self.owner)
        self.revealed = [False] * n
        self.moved = [False] * n
        self.track = [-1] * n
        self.tokens: dict = dict(tokens or {})
        self.to_move = variant.player_index(to_move) if to_move else 0
        self.ply = 0
        # repetition rules (variant.repetition): per player, the last move's run between two squares as
        # (piece, from, to, moves in the run); and plies in a row without an attack
        self.shuttle: tuple = (NO_RUN, NO_RUN)
        self.quiet = 0
        self._two_square = variant.repetition.two_square
        self._repetition = variant.repetition.active
        self._fought = False
        self.result: Result | None = None
        self.history: list[tuple[Move, tuple]] = []
        self._stack: list[tuple] = []
        self._legal: list[Move] | None = None
        self._piece_moves: dict[int, list[Move]] = {}
        self._touched: list[int] = []  # squares whose occupant changed during the move being made
        self._sliders = tuple(pid for pid in range(1, n) if self.ptype[pid] in self.tables.slider_types)
        self._slider_reads: dict[int, int] = {}
        self._hooks = hook_relay(variant.plugin_manager) if variant.plugin_manager else None
        self._has = self.tables.hooks_present
        self._losers: set[int] = set()
        self._loss_reason: dict[int, str] = {}
        self._removed_this_move = False
        self.last_outcome: Outcome | None = None

    # ------------------------------------------------------------------------------------------------
    # Construction helpers
    # ------------------------------------------------------------------------------------------------
    @classmethod
    def from_setups(cls, variant: Variant, setups: Mapping[str, Mapping[str, str]], first: str | None = None,
                    tokens: Mapping | None = None) -> GameState:
        """A new game from each player's set-up (``{square: piece id}``); each set-up is validated."""
        from .setup import validate_setup

        placements = []
        for player in variant.players:
            if player not in setups:
                raise SetupError(f"no set-up for {player}")
            validate_setup(variant, player, setups[player])
            placements += [(player, sq, t) for sq, t in setups[player].items()]
        state = cls(variant, placements, first, tokens)
        state._initial_tokens()
        return state

    @classmethod
    def from_position(cls, variant: Variant, position: Mapping[str, str], to_move: str | None = None,
                      tokens: Mapping | None = None) -> GameState:
        """A state from ``{square: "<player> <piece id>"}`` (any subset, set-up rules not checked)."""
        placements = []
        for square, text in position.items():
            parts = str(text).split()
            if len(parts) != 2:
                raise SetupError(f"{quote(square, 20)}: expected '<player> <piece id>', got {quote(text, 40)}")
            placements.append((parts[0], square, parts[1]))
        state = cls(variant, placements, to_move, tokens)
        for pid in range(1, len(state.owner)):
            sq = state.square[pid]
            if not variant.kind_of(sq).passable:
                raise SetupError(f"{state.grid.name(sq)} is {variant.kind_of(sq).name}, where no piece may stand")
        state._initial_tokens()
        return state

    def _initial_tokens(self) -> None:
        if self._has.get("gibson_init_state"):
            self._hooks.gibson_init_state(state=self)

    def copy(self) -> GameState:
        """An independent copy (history included, undo stack not)."""
        other = object.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other.board = self.board[:]
        other.square = self.square[:]
        other.revealed = self.revealed[:]
        other.moved = self.moved[:]
        other.track = self.track[:]
        other.tokens = dict(self.tokens)
        other.history = list(self.history)
        other._stack = []
        other._legal = None
        other._piece_moves = dict(self._piece_moves)
        other._slider_reads = dict(self._slider_reads)
        other._player_logs = {}
        return other

    # ------------------------------------------------------------------------------------------------
    # Reading the position
    # ------------------------------------------------------------------------------------------------
    @property
    def player(self) -> str:
        """The name of the side to move."""
        return self.variant.players[self.to_move]

    def piece_at(self, square: str | int) -> Piece | None:
        """The full truth about a square (hidden types included): for the engine, tests and tools only."""
        sq = self.grid.square(square) if isinstance(square, str) else square
        pid = self.board[sq]
        return self.piece(pid) if pid else None

    def piece(self, pid: int, type_known: bool = True) -> Piece:
        """Piece number ``pid`` (a handle, 1..N) as a value; ``type_known=False`` leaves its type out, as
        views for a player who has not seen it do (``observe``)."""
        if isinstance(pid, bool) or not isinstance(pid, int) or not 0 < pid < len(self.owner):
            raise UnknownPieceError(f"no piece {quote(pid, 20)} in this game (pieces 1 to {len(self.owner) - 1})")
        sq = self.square[pid]
        return Piece(
            handle=pid, owner=self.variant.players[self.owner[pid]],
            square=self.grid.names[sq] if sq >= 0 else "",
            type=self.variant.types[self.ptype[pid]].id if type_known else None,
            revealed=self.revealed[pid], moved=self.moved[pid],
        )

    def position(self) -> dict[str, str]:
        """``{square: "<player> <piece id>"}`` for every piece on the board (the full truth)."""
        names, players, types = self.grid.names, self.variant.players, self.variant.types
        return {names[sq]: f"{players[self.owner[pid]]} {types[self.ptype[pid]].id}"
                for sq, pid in enumerate(self.board) if pid}

    def alive(self, player: int) -> list[int]:
        """Piece numbers of a player still on the board."""
        sq = self.square
        return [pid for pid in self.pids[player] if sq[pid] >= 0]

    def type_of(self, pid: int):
        """The PieceType of a piece number (``.id``, ``.name``, ``.value``, ``.tags``...)."""
        return self.variant.types[self.ptype[pid]]

    # -- the hook API by names (docs/reference.md, "The state a hook sees") ---------------------------
    def owner_of(self, pid: int) -> str:
        """The player name owning piece ``pid``."""
        return self.variant.players[self.owner[pid]]

    def pieces_of(self, player: str | int) -> list[int]:
        """Piece numbers of ``player`` (a name, or 0/1) still on the board, in numbering order."""
        return self.alive(self.variant.player_index(player) if isinstance(player, str) else player)

    def square_of(self, pid: int) -> str | None:
        """The square name piece ``pid`` stands on, or None once it has been removed."""
        sq = self.square[pid]
        return self.grid.names[sq] if sq >= 0 else None

    def pid_at(self, square: str | int) -> int:
        """The number of the piece on a square (a name or an index), 0 when it is empty."""
        return self.board[self.grid.square(square) if isinstance(square, str) else square]

    def option(self, name: str):
        """The value of one of the variant's options in this game (its default unless chosen)."""
        try:
            return self.variant.options[name]
        except KeyError:
            raise KeyError(f"{self.variant.name} has no option {name!r} "
                           f"(options: {', '.join(self.variant.options) or 'none'})") from None

    def describe(self) -> str:
        """A one-line summary for error messages."""
        return f"{self.variant.name}, ply {self.ply}, {self.player} to move"

    # ------------------------------------------------------------------------------------------------
    # Legal moves
    # ------------------------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move and action of the side to move (empty once the game is over). Cached per ply."""
        if self._legal is None:
            self._legal = [] if self.result is not None else self._generate(self.to_move)
        return self._legal

    def _generate(self, me: int) -> list[Move]:
        cache = self._piece_moves
        board, owner, ptype, square = self.board, self.owner, self.ptype, self.square
        lean = self.tables.lean[me]
        wins = self.variant.win_arrive[me]
        them = 1 - me
        out: list[Move] = []
        append = out.append
        for pid in self.pids[me]:
            o = square[pid]
            if o < 0:
                continue
            plan = lean[ptype[pid]]
            if plan is None:
                # sliders, zone-limited pieces and compulsory attacks: cached per piece, forgotten when a
                # square they read changes (see ``_forget_moves_near``)
                moves = cache.get(pid)
                if moves is None:
                    moves = cache[pid] = self._moves_of(pid, o, me)
                out.extend(moves)
                continue
            table, can_attack, may_win = plan
            for d, plain, attacks in table[o]:
                if board[d]:
                    continue
                append(plain)
                if may_win and d in wins and self._arrival_wins(pid, o, d, wins[d]):
                    continue
                if can_attack:
                    for a, mv in attacks:
                        if owner[board[a]] == them:
                            append(mv)
        if self._has.get("gibson_extra_moves"):
            for extra in self._hooks.gibson_extra_moves(state=self, player=me):
                out.extend(extra)
        limit = self._two_square
        if limit and self.shuttle[me][3] >= limit:
            out = self._without_shuttle(out, me)
        if self._has.get("gibson_filter_moves"):
            out = self._hooks.gibson_filter_moves(state=self, player=me, moves=out)
        return out

    def _without_shuttle(self, moves: list[Move], me: int) -> list[Move]:
        """``moves`` less the plain move back that would break the two-square rule (see ``Repetition``)."""
        pid, a, b, _count = self.shuttle[me]
        if self.square[pid] != b:
            return moves
        back_from, back_to = self.grid.names[b], self.grid.names[a]
        return [m for m in moves if not (m.origin == back_from and m.dest == back_to and m.target is None
                                         and m.kind == MOVE)]

    def _moves_of(self, pid: int, o: int, me: int) -> list[Move]:
        """The moves of one piece on ``o`` that ``_generate`` does not do inline: a slider, a zone-limited
        piece or a compulsory attacker (no hook: variant rules filter the whole list later)."""
        board, owner = self.board, self.owner
        t = self.ptype[pid]
        if self.tables.special[t] is not None:
            return self._special_moves_of(pid, o, me, t)
        slides, table, can_attack, long_attack_only = self.tables.by_type[t]
        out: list[Move] = []
        if table is None:
            return out
        append = out.append
        them = 1 - me
        allowed = self.tables.confined[me][t]
        wins = self.variant.win_arrive[me] if t in self.tables.win_types[me] else {}
        compulsory = self.variant.compulsory_attack
        reads = 0  # squares a slider's moves depend on, as a bit mask (see _forget_moves_near)
        around = self.tables.around_mask
        if slides and not compulsory and allowed is None and not wins:
            for ray in table[o]:  # the common slider (Searchlight, Scout): a tight loop
                first = True
                for d, plain, attacks in ray:
                    reads |= around[d]
                    if board[d]:
                        break
                    if first or not long_attack_only:
                        append(plain)
                    first = False
                    if can_attack:
                        for a, mv in attacks:
                            if owner[board[a]] == them:
                                append(mv)
            self._slider_reads[pid] = reads
            return out
        for ray in table[o] if slides else (table[o],):
            for step, (d, plain, attacks) in enumerate(ray):
                reads |= around[d]
                if board[d] or (allowed is not None and d not in allowed):
                    if slides:
                        break
                    continue
                if d in wins and self._arrival_wins(pid, o, d, wins[d]):
                    append(plain)
                    continue
                targets = [mv for a, mv in attacks if owner[board[a]] == them] if can_attack else ()
                long_slide = slides and step > 0
                if not (targets and compulsory) and not (long_slide and long_attack_only):
                    append(plain)
                out.extend(targets)
        if slides:
            self._slider_reads[pid] = reads
        return out

    def _special_moves_of(self, pid: int, o: int, me: int, t: int) -> list[Move]:
        """The moves of a piece that attacks by moving onto the enemy, or slides and attacks only in line
        (or only after one square): see ``MoveTables.special``."""
        onto, slides, slide_attack, long_only, rows = self.tables.special[t]
        board, owner = self.board, self.owner
        can_attack = self.tables.by_type[t][2]
        them = 1 - me
        allowed = self.tables.confined[me][t]
        wins = self.variant.win_arrive[me] if t in self.tables.win_types[me] else {}
        compulsory = self.variant.compulsory_attack
        around = self.tables.around_mask
        reads = 0
        out: list[Move] = []
        append = out.append
        for ray in rows[o]:
            for step, (d, plain, attacks) in enumerate(ray):
                reads |= around[d]
                may_attack = can_attack and (step == 0 or slide_attack == IN_LINE)
                q = board[d]
                if q:
                    if onto and may_attack and owner[q] == them and (allowed is None or d in allowed):
                        append(attacks[0][1])
                    break
                if allowed is not None and d not in allowed:
                    break
                if d in wins and self._arrival_wins(pid, o, d, wins[d]):
                    append(plain)
                    continue
                long_run = step > 0 and long_only
                if onto:
                    if not long_run:
                        append(plain)
                    continue
                targets = [mv for a, mv in attacks if owner[board[a]] == them] if may_attack else ()
                if not (targets and compulsory) and not long_run:
                    append(plain)
                out.extend(targets)
        if slides:
            self._slider_reads[pid] = reads
        return out

    def wins_on_arrival(self, pid: int, origin: int, dest: int) -> bool:
        """True when piece ``pid`` moving from square ``origin`` to ``dest`` would win by arriving there (the
        variant's ``win`` entries, path progress included). Squares are indices."""
        entries = self.variant.win_arrive[self.owner[pid]].get(dest)
        return bool(entries) and self._arrival_wins(pid, origin, dest, entries)

    def _arrival_wins(self, pid: int, o: int, d: int, entries) -> bool:
        t = self.ptype[pid]
        for types, path, _reason in entries:
            if t in types and (path is None or (o == path[-2] and self.track[pid] == self.tables.path_ids[path])):
                return True
        return False

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` is among the legal moves."""
        return move in set(self.legal_moves())

    # ------------------------------------------------------------------------------------------------
    # Making moves
    # ------------------------------------------------------------------------------------------------
    def play(self, move: Move | str, by: str | None = None) -> tuple:
        """Validate and make a move; returns its events. Raises IllegalMoveError (state unchanged).

        ``by`` names the player who submits the move (a front end, the server, an agent). A move by the
        player who is not to move is refused with :class:`NotYourTurnError`, which says only whose turn it
        is; any other refusal is explained from what the submitter may see. ``by=None`` is the trusted local
        caller, taken to be the side to move."""
        if isinstance(move, str):
            move = Move.parse(move)
        elif not isinstance(move, Move):
            raise NotationError(f"a move must be a Move or its notation, not {type(move).__name__}")
        if by is not None:
            self.variant.player_index(by)
            if by != self.player:
                raise NotYourTurnError(str(move), self.player)
        if self.result is not None:
            raise IllegalMoveError(str(move), f"the game is over ({self.result.describe()})", self.describe())
        if move not in set(self.legal_moves()):
            raise IllegalMoveError(str(move), self.explain_illegal(move), self.describe())
        depth = len(self._stack)
        try:
            self.push(move)
        except PluginError:  # a rule plugin answered wrongly mid-move: the game is left as it was
            if len(self._stack) > depth:
                self._restore(self._stack.pop())
                self._piece_moves.clear()  # the cache may have been filled half-way through the move
            raise
        return self.history[-1][1]

    def explain_illegal(self, move: Move) -> str:
        """Why a move is not legal here, in words."""
        from .explain import explain_illegal

        return explain_illegal(self, move)

    def push(self, move: Move) -> None:
        """Make a move without checking it (the fast path for search and replay of trusted moves)."""
        self._touched = touched = []
        self._stack.append((self.board[:], self.square[:], self.revealed[:], self.moved[:], self.track[:],
                            dict(self.tokens), self.to_move, self.ply, self.result, len(self.history), touched,
                            self.shuttle, self.quiet))
        self._legal = None
        events: list = []
        self._losers = set()
        self._loss_reason = {}
        self._removed_this_move = False
        self._fought = False
        me = self.to_move
        if move.kind == MOVE:
            self._apply_move(move, me, events)
        else:
            self._hooks.gibson_apply_action(state=self, move=move, events=events)
        if self.result is None:
            self._end_of_move(move, me, events)
        self.ply += 1
        self.to_move = 1 - me
        if self._repetition:
            self._count_repetition(move, me, events)
        if self.result is None and self.variant.ply_limit and self.ply >= self.variant.ply_limit:
            self._finish(None, f"ply limit of {self.variant.ply_limit} reached", events)
        self.history.append((move, tuple(events)))
        self._forget_moves_near(touched)

    def _count_repetition(self, move: Move, me: int, events: list) -> None:
        """Advance the two-square run of the mover and the plies without an attack (``Repetition``)."""
        self.quiet = 0 if self._fought else self.quiet + 1
        if self.variant.repetition.two_square:
            run = NO_RUN
            if move.kind == MOVE and move.target is None:
                o, d = self.grid.index[move.origin], self.grid.index[move.dest]
                pid = self.board[d]
                if pid:
                    last = self.shuttle[me]
                    run = (pid, o, d, last[3] + 1 if last[:3] == (pid, d, o) else 1)
            self.shuttle = (run, self.shuttle[1]) if me == 0 else (self.shuttle[0], run)
        limit = self.variant.repetition.no_fight
        if self.result is None and limit and self.quiet >= limit:
            self._finish(None, f"{limit} plies in a row without an attack", events)

    def _forget_moves_near(self, touched: list) -> None:
        """Drop the cached moves of every piece that can reach, or attack from, a square that changed."""
        cache = self._piece_moves
        if not touched or not cache:
            return
        board = self.board
        influence = self.tables.influence
        for sq in touched if self.tables.cached_steppers else ():
            for near in influence[sq]:
                pid = board[near]
                if pid:
                    cache.pop(pid, None)
        bit = self.tables.bit
        changed = 0
        for sq in touched:
            changed |= bit[sq]
        reads = self._slider_reads
        for pid in self._sliders:
            if pid in cache and reads.get(pid, -1) & changed:
                del cache[pid]

    def pop(self) -> Move:
        """Undo the last pushed move, restoring the exact previous state; returns that move.
        :class:`NothingToUndoError` when no move was pushed."""
        if not self._stack:
            raise NothingToUndoError("there is no move to take back" + (
                " (a state's copy or replay starts with an empty undo stack)" if self.history else ""))
        move = self.history[self._stack[-1][9]][0]
        self._restore(self._stack.pop())
        return move

    def _restore(self, snapshot: tuple) -> None:
        """Put back the position saved by ``push`` (also after a move that failed half-way)."""
        (self.board, self.square, self.revealed, self.moved, self.track, self.tokens, self.to_move, self.ply,
         self.result, n, touched, self.shuttle, self.quiet) = snapshot
        self._forget_moves_near(touched)
        del self.history[n:]
        self._legal = None

    def forget_undo(self) -> None:
        """Drop the snapshots that ``pop`` would restore (a long-lived game that never takes moves back, such
        as a server's, keeps memory flat); moves made before this can no longer be popped."""
        self._stack.clear()

    def _apply_move(self, move: Move, me: int, events: list) -> None:
        index = self.grid.index
        o, d = index[move.origin], index[move.dest]
        pid = self.board[o]
        if move.target is not None and move.target == move.dest:
            self._apply_onto(pid, o, d, me, events)
            return
        board = self.board
        board[o] = 0
        board[d] = pid
        self._touched += (o, d)
        self.square[pid] = d
        self.moved[pid] = True
        events.append(ev.Moved(self.variant.players[me], move.origin, move.dest, pid))
        won = self._arrive(pid, o, d, me, events)
        if move.target is not None and not won and self.square[pid] == d and self.result is None:
            target = board[index[move.target]]
            if target:
                self.fight(pid, target, events)

    def _apply_onto(self, pid: int, o: int, d: int, me: int, events: list) -> None:
        """An attack by moving onto the enemy's square: the fight is fought from ``o``; if the defender alone
        is removed, the attacker moves onto ``d`` and arrives there (arrival effects and wins apply)."""
        self.moved[pid] = True
        defender = self.board[d]
        outcome = self.fight(pid, defender, events)
        if ATTACKER in outcome.removed or DEFENDER not in outcome.removed or self.square[pid] != o or self.board[d]:
            return
        self.board[o] = 0
        self.board[d] = pid
        self._touched += (o, d)
        self.square[pid] = d
        events.append(ev.Moved(self.variant.players[me], self.grid.names[o], self.grid.names[d], pid))
        self._arrive(pid, o, d, me, events)

    def _arrive(self, pid: int, o: int, d: int, me: int, events: list) -> bool:
        """Piece ``pid`` has just moved from ``o`` to ``d``: a win by arriving, path progress, arrival hooks.
        True when the arrival wins (then no effect and no attack follows)."""
        wins = self.variant.win_arrive[me].get(d)
        if wins and self._arrival_wins(pid, o, d, wins):
            self._update_track(pid, o, d)
            reason = next(r for types, _p, r in wins if self.ptype[pid] in types)
            self._finish(self.variant.players[me], reason.format(piece=self.type_of(pid).name), events)
            return True
        if self.tables.path_entries:
            self._update_track(pid, o, d)
        if self._has.get("gibson_arrival_wins") and self._hooks.gibson_arrival_wins(state=self, pid=pid, square=d):
            return True  # the end of the move confirms the win: no blast, no attack comes first
        if self._has.get("gibson_on_arrival"):
            self._hooks.gibson_on_arrival(state=self, pid=pid, square=d, events=events)
        return False

    def _update_track(self, pid: int, o: int, d: int) -> None:
        tables = self.tables
        if not tables.path_entries:
            return
        k = self.track[pid]
        if k >= 0 and not (o in tables.path_inner[k] and d in tables.path_inner[k]):
            k = -1
        entry = tables.path_entries.get((o, d))
        self.track[pid] = entry if entry is not None else k

    def _end_of_move(self, move: Move, me: int, events: list) -> None:
        moved_pid = self.board[self.grid.index[move.dest]] if move.kind == MOVE and move.dest else 0
        for sq in self.variant.transit_squares:
            q = self.board[sq]
            if q and self.owner[q] == me and q != moved_pid:
                name = self.variant.kind_of(sq).name
                self.remove(q, f"{self.type_of(q).name} forfeit: it stayed on the {name}", events,
                            hidden_reason=f"a piece forfeit: it stayed on the {name}")
        if self._has.get("gibson_after_move"):
            self._hooks.gibson_after_move(state=self, move=move, events=events)
        if self.result is None:
            self._check_endings(events)

    def _check_endings(self, events: list) -> None:
        v = self.variant
        players = v.players
        losers = set(self._losers)
        if v.lose_when_only_left:
            for p in (0, 1):
                if all(self.ptype[q] in v.lose_when_only_left for q in self.alive(p)):
                    losers.add(p)
        if losers:
            if len(losers) == 2:
                self._finish(None, "both sides lost at once", events)
            else:
                (loser,) = losers
                self._finish(players[1 - loser], self._loss_reason.get(loser, f"{players[loser]} is beaten"), events)
            return
        if (v.draw_when_none_left and self._removed_this_move
                and not any(self.ptype[q] in v.draw_when_none_left for p in (0, 1) for q in self.alive(p))):
            names = ", ".join(sorted({v.types[t].name for t in v.draw_when_none_left}))
            self._finish(None, f"neither side has any of: {names}", events)
        if self.result is None and self._has.get("gibson_game_result"):
            res = self._hooks.gibson_game_result(state=self)
            if res is not None:
                self._finish(res[0], res[1], events)

    def _finish(self, winner: str | None, reason: str, events: list) -> None:
        self.result = Result(winner, reason)
        events.append(ev.GameOver(winner, reason))

    # ------------------------------------------------------------------------------------------------
    # Effects used by the core and by rule plugins
    # ------------------------------------------------------------------------------------------------
    def remove(self, pid: int, reason: str, events: list, public: bool | None = None, cause: str = "",
               hidden_reason: str = "a hidden piece was removed") -> None:
        """Take a piece off the board, recording why; a vital piece's loss decides the game at move end.
        ``cause`` is a short word for rule plugins (``combat``, ``blast``, ``shot down``...);
        ``hidden_reason`` is what the opponent reads when the piece was never revealed (no type in it)."""
        sq = self.square[pid]
        if sq < 0:
            return
        self.board[sq] = 0
        self.square[pid] = -1
        self._touched.append(sq)
        t = self.variant.types[self.ptype[pid]]
        pub = self.revealed[pid] if public is None else public
        events.append(ev.Removed(self.grid.names[sq], self.variant.players[self.owner[pid]], t.id, pid, reason, pub,
                                 hidden_reason))
        if self.ptype[pid] in self.variant.draw_when_none_left:
            self._removed_this_move = True
        if self.ptype[pid] in self.variant.lose_when_removed:
            self._losers.add(self.owner[pid])
            self._loss_reason[self.owner[pid]] = f"{t.name} lost: {reason}"
        if self._has.get("gibson_on_removed"):
            self._hooks.gibson_on_removed(state=self, pid=pid, square=sq, events=events, cause=cause)

    def reveal(self, pid: int, events: list, reason: str = "") -> None:
        """Make a piece's type known to both players for the rest of the game."""
        if not self.revealed[pid]:
            self.revealed[pid] = True
            events.append(ev.Revealed(self.grid.names[self.square[pid]], self.variant.players[self.owner[pid]],
                                      self.variant.types[self.ptype[pid]].id, pid, reason))

    def resolve(self, attacker: int, defender: int) -> Outcome:
        """The outcome of ``attacker`` attacking ``defender`` where they stand (does not change the state)."""
        if self._has.get("gibson_resolve_combat"):
            outcome = self._hooks.gibson_resolve_combat(state=self, attacker=attacker, defender=defender)
            if outcome is not None:
                return outcome
        rules, base = self.variant.combat_cells[self.ptype[attacker]][self.ptype[defender]]
        for rule in rules:
            if all(self._condition(c, rule.first, attacker, defender) for c in rule.conditions):
                return rule.outcome
        return base

    def _condition(self, cond: tuple, first: str, attacker: int, defender: int) -> bool:
        elements = self.variant.elements
        a_sq, d_sq = self.square[attacker], self.square[defender]
        ea, ed = elements[self.ptype[attacker]][a_sq], elements[self.ptype[defender]][d_sq]
        head = cond[0]
        if head == "across-coast":
            return ea != ed
        if head == "same-element":
            return ea == ed
        if head == "both-sea":
            return ea == ed == "sea"
        if head == "both-land":
            return ea == ed == "land"
        role = cond[1]
        if role in ("first", "second"):
            role = first if role == "first" else (DEFENDER if first == ATTACKER else ATTACKER)
        pid = attacker if role == ATTACKER else defender
        sq = a_sq if role == ATTACKER else d_sq
        if head == "out":
            native = self.type_of(pid).element
            return native is not None and (ea if role == ATTACKER else ed) != native
        whose, name = cond[2], cond[3]
        if name in self.variant.kinds:
            return self.variant.cell_kind[sq] == name
        zone = self.variant.zones.get(name, {})
        players = self.variant.players
        if whose == "own":
            return sq in zone.get(players[self.owner[pid]], ())
        if whose == "enemy":
            return sq in zone.get(players[1 - self.owner[pid]], ())
        return any(sq in sqs for sqs in zone.values())

    def fight(self, attacker: int, defender: int, events: list) -> Outcome:
        """Resolve an attack and apply it: both revealed, losers removed, a driven-back piece moved."""
        ta, td = self.type_of(attacker), self.type_of(defender)
        self._fought = True
        players = self.variant.players
        events.append(ev.Attacked(players[self.owner[attacker]], self.grid.names[self.square[attacker]],
                                  self.grid.names[self.square[defender]], ta.id, td.id))
        self.reveal(attacker, events, "combat")
        self.reveal(defender, events, "combat")
        outcome = self.resolve(attacker, defender)
        for role in outcome.removed:
            self.remove(attacker if role == ATTACKER else defender, outcome.reason, events, cause="combat")
        if outcome.retreat:
            self.drive_back(attacker if outcome.retreat == ATTACKER else defender, outcome.reason, events)
        self.last_outcome = outcome
        return outcome

    def drive_back(self, pid: int, reason: str, events: list) -> None:
        """Move a piece one square straight towards its own back rank if that square is empty, on the board
        and not behind a wall."""
        sq = self.square[pid]
        step = -1 if self.owner[pid] == 0 else 1
        dest = self.grid.offset(sq, 0, step)
        if dest is None or self.board[dest] or self.grid.wall_between(sq, dest):
            return
        self.board[sq] = 0
        self.board[dest] = pid
        self._touched += (sq, dest)
        self.square[pid] = dest
        events.append(ev.Retreated(self.grid.names[sq], self.grid.names[dest], pid, reason))

    def move_piece(self, pid: int, square: str | int, events: list, reason: str = "") -> None:
        """Move a piece on the board to an empty square (a name or an index) for a rule: no attack, no arrival
        effects, no win by arriving. Records a public ``Moved`` event (positions are public; the type stays
        hidden) or, with a ``reason``, a ``Retreated`` event carrying it. ``pop`` undoes it exactly.
        Raises GibsonError for a removed piece, an occupied square or an impassable one."""
        dest = self.grid.square(square) if isinstance(square, str) else square
        sq = self.square[pid] if 0 < pid < len(self.square) else -1
        if sq < 0:
            raise GibsonError(f"move_piece: piece {pid} is not on the board")
        if self.board[dest]:
            raise GibsonError(f"move_piece: {self.grid.names[dest]} is occupied")
        if not self.variant.kind_of(dest).passable:
            raise GibsonError(f"move_piece: {self.grid.names[dest]} is impassable")
        self.board[sq] = 0
        self.board[dest] = pid
        self._touched += (sq, dest)
        self.square[pid] = dest
        origin, name = self.grid.names[sq], self.grid.names[dest]
        if reason:
            events.append(ev.Retreated(origin, name, pid, reason))
        else:
            events.append(ev.Moved(self.owner_of(pid), origin, name, pid))

    # ------------------------------------------------------------------------------------------------
    # Ending
    # ------------------------------------------------------------------------------------------------
    def outcome(self) -> Result | None:
        """The result, including the loss of a side to move that has no legal move (checked lazily)."""
        if self.result is None and not self.legal_moves():
            me = self.to_move
            res = None
            if self._has.get("gibson_no_legal_moves"):
                res = self._hooks.gibson_no_legal_moves(state=self, player=me)
            winner, reason = res or (self.variant.players[1 - me], f"{self.player} has no legal move")
            self.result = Result(winner, reason)
            if self.history:
                move, evs = self.history[-1]
                self.history[-1] = (move, evs + (ev.GameOver(winner, reason),))
        return self.result

    def random_move(self, rng: random.Random) -> Move | None:
        """A uniformly random legal move, or None when there is none."""
        moves = self.legal_moves()
        return rng.choice(moves) if moves else None

    def __repr__(self) -> str:
        return f"<GameState {self.describe()}, {sum(1 for p in self.board if p)} pieces>"

