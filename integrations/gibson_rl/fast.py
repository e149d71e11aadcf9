"""The engine's C kernel under an environment episode: a game the :class:`~gibson_rl.encode.PlayerView` reads.

When the fast path plays a variant exactly (:func:`gibson_core.fastpath.kernel_or_none`), an
:class:`~gibson_rl.core.Episode` makes its moves in a :class:`~gibson_core.fastpath.FastGame` (legal moves,
push, events and result identical to the Python engine's: the fast path's difftest proves it) and its
PlayerViews read a :class:`KernelPosition`: the fields of a GameState they use (board, owners, types, moved and
revealed flags, tokens, ply, side to move, result, and the history of moves and events), refreshed from the
kernel after each move. The full :class:`~gibson_core.state.GameState` is rebuilt only when someone asks for it.
"""

from __future__ import annotations

from gibson_core.fastpath import FastGame
from gibson_core.state import GameState


class KernelPosition:
    """A FastGame seen through the GameState fields a PlayerView reads (``owner`` and ``ptype`` never change
    during a game; the rest is refreshed by :meth:`push`)."""

    def __init__(self, state: GameState):
        self.fast = FastGame(state)
        self.grid = state.grid
        self.owner, self.ptype = state.owner, state.ptype
        self.history: list[tuple] = list(state.history)
        self._has_tokens = "flags" in state.variant.rules
        self.tokens = dict(state.tokens)
        self.result = state.result
        self.codes: list[int] = []
        self._read()
        self._settle()

    def _read(self) -> None:
        self.board, _square, self.revealed, self.moved, _track, self.to_move, self.ply, _res = \
            self.fast.game.state()

    def legal_moves(self) -> list:
        """The legal moves of the side to move (the engine's interned Move objects, in its order)."""
        return self.fast.legal_moves()

    def legal_actions(self, space, by_code: dict) -> list[int]:
        """The action numbers in ``space`` of the legal moves, in the engine's order, read from the kernel's
        move codes (``by_code`` remembers each code's number: one table per variant)."""
        try:
            return [by_code[c] for c in self.codes]
        except KeyError:
            move = self.fast.kernel.move
            for c in self.codes:
                if c not in by_code:
                    by_code[c] = space.index(move(c))
            return [by_code[c] for c in self.codes]

    def outcome(self):
        """The result, the no-move ending included (as :meth:`GameState.outcome`)."""
        return self.result

    def _settle(self) -> None:
        """After a move: the legal move codes, and the result (the no-move ending included)."""
        fast = self.fast
        self.codes = fast.game.legal() if fast.result is None else []
        if not self.codes:
            fast.outcome()
        self.result = fast.result

    def push(self, move) -> None:
        """Make a legal move, then settle the outcome (as an Episode step does with a GameState)."""
        fast = self.fast
        fast.push(move)
        self._settle()
        self.history.append((move, fast.last_events()))
        self._read()
        if self._has_tokens:
            self.tokens = fast.tokens
