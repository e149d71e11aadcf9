"""One game on the server, rebuilt from its log: a state machine without any input or output.

The server asks a :class:`Game` to *decide* on a request (``decide_setup``, ``decide_move``, ...), which
validates it against the requesting seat and returns the log entry to commit, changing nothing; only after
the store committed the entry does the server :meth:`Game.apply` it. Replaying the same log therefore
gives the same game in any process, which is how games survive restarts.
"""

from __future__ import annotations

import random

from gibson_core.errors import GibsonError, IllegalMoveError, NotationError, NotYourTurnError
from gibson_core.moves import Move
from gibson_core.net.protocol import spectator_observation
from gibson_core.observe import Observation, observe
from gibson_core.plugins import load_variant
from gibson_core.record import GameRecord
from gibson_core.setup import validate_setup
from gibson_core.state import GameState

from .store.base import GameRow, LogEntry

WAITING, SETUP, PLAY, OVER = "waiting", "setup", "play", "over"


class GameError(GibsonError):
    """A request the game refuses (not your turn, illegal move, game over, ...); ``code`` names the kind."""

    def __init__(self, message: str, code: str = "refused"):
        self.code = code
        super().__init__(message)


def judge(state: GameState, player: str, text: str) -> Move:
    """The engine's verdict on a move submitted by ``player``, without keeping it (the move is made again
    once committed): out of turn gets "not your turn: it is red's turn" and nothing more; an illegal move
    is explained from the submitter's own view."""
    try:
        move = Move.parse(text)
        state.play(move, by=player)
    except NotYourTurnError as exc:
        raise GameError(f"not your turn: {exc.reason}", "not-your-turn") from None
    except NotationError as exc:
        raise GameError(str(exc), "bad-move") from None
    except IllegalMoveError as exc:
        raise GameError(f"illegal move {text}: {exc.reason}", "illegal-move") from None
    state.pop()
    return move


class Game:
    """A game's state, derived only from its row, its seats and its log."""

    def __init__(self, row: GameRow, seats: dict[str, str]):
        self.row = row
        self.id = row.game_id
        self.variant = load_variant(row.variant, row.options or None)
        self.players: tuple = tuple(self.variant.players)
        self.seats: dict[str, str] = dict(seats)  # player -> token hash (agents' seats have none)
        self.seq = 0
        self.setups: dict[str, dict] = {}
        self.state: GameState | None = None
        self.first: str | None = None
        self.ended: tuple | None = None  # (winner or None, reason) when ended other than by the rules
        self.draw_offer: str | None = None
        self.rematch: set = set()
        self.rematch_game: str | None = None
        self.clock: dict[str, float] | None = None  # seconds left, as of ``mark``
        self.mark: float | None = None

    @classmethod
    def rebuild(cls, row: GameRow, seats: dict[str, str], entries: list[LogEntry]) -> Game:
        """The game after replaying its whole log."""
        game = cls(row, seats)
        for entry in entries:
            game.apply(entry)
        return game

    # -- reading -------------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """waiting (a seat is free), setup, play or over."""
        if self.result is not None:
            return OVER
        if any(p not in self.seats and p not in self.row.agents for p in self.players):
            return WAITING
        return PLAY if self.state is not None else SETUP

    @property
    def result(self) -> tuple | None:
        """(winner or None for a draw, reason) once the game is over."""
        if self.ended is not None:
            return self.ended
        if self.state is not None:
            res = self.state.outcome()
            if res is not None:
                return (None if res.winner in (None, "draw") else res.winner, res.reason)
        return None

    @property
    def to_move(self) -> str | None:
        """The player whose clock runs, or None before the start and after the end."""
        return self.state.player if self.state is not None and self.result is None else None

    def remaining(self, now: float) -> dict[str, float] | None:
        """Each player's time left at ``now`` (seconds), or None in an untimed game."""
        if self.clock is None:
            return None
        out = dict(self.clock)
        running = self.to_move
        if running is not None and self.mark is not None:
            out[running] = max(0.0, out[running] - (now - self.mark))
        return out

    def observation(self, player: str | None) -> Observation | None:
        """``player``'s Observation (a spectator's when None), or None before the game starts."""
        if self.state is None:
            return None
        if player is not None:
            return observe(self.state, player)
        return spectator_observation(*(observe(self.state, p) for p in self.players))

    def record(self) -> dict:
        """The full record (both set-ups): only ever published once the game is over."""
        assert self.phase == OVER, "the record is published only after the end"
        if self.state is None:
            return {"variant": self.row.variant, "options": self.row.options, "setups": {}, "moves": []}
        rec = GameRecord.from_state(self.state, self.setups, None, self.first)
        return {"variant": rec.variant, "options": rec.options, "setups": rec.setups, "moves": rec.moves,
                "first": rec.first}

    # -- deciding (no change) ------------------------------------------------------------------------
    def _seat_check(self, player: str) -> None:
        if self.phase == OVER:
            raise GameError("the game is over", "game-over")

    def decide_setup(self, player: str, pieces: dict) -> tuple[str, dict]:
        """Validate ``player``'s set-up privately; the entry to commit."""
        self._seat_check(player)
        if self.state is not None or player in self.setups:
            raise GameError(f"{player}'s set-up is already in", "setup-done")
        validate_setup(self.variant, player, pieces)
        return "setup", {"player": player, "pieces": dict(sorted(pieces.items()))}

    def decide_move(self, player: str, text: str, now: float) -> tuple[str, dict]:
        """Judge a move submitted by ``player`` against that seat; the entry to commit (or a timeout)."""
        self._seat_check(player)
        if self.state is None:
            raise GameError("the game has not started: both set-ups are needed", "not-started")
        move = judge(self.state, player, text)
        left = self.remaining(now)
        if left is not None and left[player] <= 0:
            return self.timeout_entry(player)
        data = {"player": player, "move": str(move)}
        if left is not None:
            left[player] += float(self.row.clock.get("increment", 0))
            data["clock"] = left
        return "move", data

    def timeout_entry(self, player: str) -> tuple[str, dict]:
        """``player`` ran out of time: a loss, or a draw when the opponent has no piece that can move (they
        could never win)."""
        other = self.players[1 - self.players.index(player)]
        state = self.state
        can_win = state is None or any(state.type_of(pid).mobile for pid in state.alive(self.players.index(other)))
        winner = other if can_win else None
        return "end", {"winner": winner, "reason": f"{player} ran out of time"
                       + ("" if can_win else f" and {other} has no piece that can move: a draw")}

    def decide_simple(self, player: str, kind: str) -> tuple[str, dict]:
        """resign, offer_draw, accept_draw, decline_draw and rematch."""
        if kind == "rematch":
            if self.phase != OVER:
                raise GameError("a rematch is agreed after the game", "not-over")
            if self.rematch_game:
                raise GameError(f"the rematch is game {self.rematch_game}", "rematch-done")
            return "rematch", {"player": player}
        self._seat_check(player)
        other = self.players[1 - self.players.index(player)]
        if kind == "resign":
            return "end", {"winner": other, "reason": f"{player} resigned"}
        if self.state is None:
            raise GameError("draws are offered once the game has started", "not-started")
        if kind == "offer_draw":
            if other in self.row.agents:
                raise GameError("the computer does not take draw offers", "refused")
            if self.draw_offer == player:
                raise GameError("your draw offer stands", "offer-stands")
            return "offer", {"player": player}
        if self.draw_offer != other:
            raise GameError(f"{other} has not offered a draw", "no-offer")
        if kind == "accept_draw":
            return "end", {"winner": None, "reason": "draw agreed"}
        return "decline", {"player": player}

    # -- applying (after the commit) -----------------------------------------------------------------
    def apply(self, entry: LogEntry) -> None:
        """Apply a committed log entry (entries come in sequence order)."""
        if entry.seq != self.seq + 1:
            raise GameError(f"game {self.id}: log entry {entry.seq} after {self.seq}", "log-gap")
        self.seq = entry.seq
        data, kind = entry.data, entry.kind
        if kind == "setup":
            self.setups[data["player"]] = data["pieces"]
            if len(self.setups) == len(self.players):
                self.first = random.Random(f"{self.row.seed}/first").choice(self.players)
                self.state = GameState.from_setups(self.variant, self.setups, self.first)
                if self.row.clock:
                    self.clock = {p: float(self.row.clock["initial"]) for p in self.players}
                    self.mark = entry.t
        elif kind == "move":
            self.state.push(Move.parse(data["move"]))  # judged before it was committed
            self.state.forget_undo()
            if self.draw_offer is not None and self.draw_offer != data["player"]:
                self.draw_offer = None
            if "clock" in data:
                self.clock, self.mark = dict(data["clock"]), entry.t
        elif kind == "resume":  # the server restarted: clocks as they stood, not charged for the downtime
            if data.get("clock") is not None:
                self.clock, self.mark = dict(data["clock"]), entry.t
        elif kind == "offer":
            self.draw_offer = data["player"]
        elif kind == "decline":
            self.draw_offer = None
        elif kind == "end":
            if self.clock is not None and self.mark is not None:
                self.clock, self.mark = self.remaining(entry.t), entry.t
            self.ended = (data["winner"], data["reason"])
        elif kind == "rematch":
            self.rematch.add(data["player"])
        elif kind == "rematched":
            self.rematch_game = data["game"]
        else:
            raise GameError(f"game {self.id}: unknown log entry {kind!r}", "log-kind")
