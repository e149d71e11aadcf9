"""A game being played in the window: the only object that holds the hidden :class:`GameState`.

Scenes ask a :class:`Session` for one player's :class:`Observation` and hand it moves; they never read
the state. The full reveal (:meth:`Session.full_view`) is for the game-over screen and for
``gibson screenshot --as all`` only.
"""

from __future__ import annotations

import attrs

from gibson_core import GameState, load_variant
from gibson_core.errors import RecordError
from gibson_core.events import REVEAL_ALL
from gibson_core.observe import Observation, observe
from gibson_core.record import GameRecord
from gibson_core.seeding import derive_seed, setup_rng

from .ai_worker import AIWorker, ProcessAIWorker, make_opponent
from .savegame import read_save, write_save

FRIEND = "friend"


@attrs.define
class GameConfig:
    """What the launcher chose: the variant and its options, the opponent, and the human's side."""

    variant: str
    options: dict = attrs.field(factory=dict)
    opponent: str = FRIEND  # "friend" or an agent name from gibson_core.ai.AGENTS
    level: str = "medium"
    human: str | None = None  # the human's side against the computer (default: the first player)
    seed: int | None = None

    @property
    def vs_computer(self) -> bool:
        """True when one side is played by an agent."""
        return self.opponent != FRIEND

    def load(self):
        """The compiled variant with these options."""
        return load_variant(self.variant, self.options or None)

    def humans(self, variant) -> tuple[str, ...]:
        """The players sitting at this screen."""
        if not self.vs_computer:
            return tuple(variant.players)
        return (self.human or variant.players[0],)

    def make_worker(self, sync: bool = False, process: bool = False) -> AIWorker | None:
        """The computer opponent's worker (None against a friend): synchronous for tests, a thread, or
        its own process (the window's choice: drawing never waits for the search)."""
        if not self.vs_computer:
            return None
        agent = make_opponent(self.opponent, self.level)
        players = self.load().players
        computer = next(p for p in players if p not in self.humans(self.load()))
        seed = derive_seed(self.seed, "agent", computer)  # the computer's own generator, as in the arena
        if process and not sync:
            return ProcessAIWorker(agent, None, seed)
        return AIWorker(agent, None, seed, sync)


class Session:
    """One game: moves in, Observations out, undo, resign, save and load."""

    def __init__(self, config: GameConfig, setups: dict, state: GameState | None = None, sync_ai: bool = False,
                 ai_process: bool = False):
        self.config = config
        self.variant = state.variant if state is not None else config.load()
        self.setups = {p: dict(s) for p, s in setups.items()}
        self._state = state or GameState.from_setups(self.variant, self.setups)
        self.humans = config.humans(self.variant)
        self.worker = config.make_worker(sync_ai, ai_process)
        self.resigned: tuple[str, str] | None = None
        self.saved_ply: int | None = None  # the ply at which the game was last saved or loaded

    # -- reading -----------------------------------------------------------------------------------
    @property
    def players(self) -> tuple:
        """The variant's two players."""
        return self.variant.players

    @property
    def to_move(self) -> str:
        """Whose turn it is."""
        return self._state.player

    @property
    def ply(self) -> int:
        """Plies played."""
        return self._state.ply

    def observation(self, player: str) -> Observation:
        """What ``player`` may know now."""
        return observe(self._state, player)

    def result(self) -> tuple[str, str] | None:
        """(winner, reason) once the game is over (a resignation included), else None."""
        if self.resigned:
            return self.resigned
        res = self._state.outcome()
        return (res.winner, res.reason) if res else None

    def full_view(self) -> Observation:
        """Everything revealed (game over, or a spectator's screenshot): an Observation with every type."""
        return attrs.evolve(observe(self._state, REVEAL_ALL), result=self.result())

    def is_human(self, player: str) -> bool:
        """True for a player sitting at this screen."""
        return player in self.humans

    # -- acting ------------------------------------------------------------------------------------
    def play(self, move, by: str | None = None) -> tuple:
        """Make a move submitted ``by`` a player (the window passes the player whose view it shows, so an
        explanation of an illegal move comes from that player's view, and a move out of turn gets only
        "it is red's turn"). IllegalMoveError leaves the game unchanged."""
        if self.result() is not None:
            raise ValueError("the game is over")
        if self.worker is not None:
            self.worker.cancel()
        return self._state.play(move, by=by)

    def undo_plan(self, player: str) -> tuple[int, str]:
        """What an undo asked for by ``player`` would do: (plies taken back, why it may not be done, or "").

        It goes back to ``player``'s previous turn. Against the computer it is refused when a move it would
        take back revealed a hidden piece of the computer (else Undo would be a free look at any piece); in a
        hot-seat game it needs the other player's consent, which the caller asks for."""
        state = self._state
        known = _known_enemies(observe(state, player))
        taken = []
        while state.history and (not taken or state.player != player):
            taken.append(state.pop())
        try:
            if not taken or state.player != player:
                return 0, "nothing of yours to take back yet"
            if self.config.vs_computer and known - _known_enemies(observe(state, player)):
                return len(taken), "Undo would take back a move that showed you a hidden enemy piece"
            return len(taken), ""
        finally:
            for move in reversed(taken):  # the same moves again: the game is exactly as it was
                state.push(move)

    def undo(self, player: str | None = None) -> bool:
        """Take back to ``player``'s previous turn (default: the human's against the computer, the side to
        move in a hot-seat game) when :meth:`undo_plan` allows it; False (nothing changed) otherwise."""
        player = player or (self.humans[0] if self.config.vs_computer else self.to_move)
        plies, why = self.undo_plan(player)
        if not plies or why:
            return False
        if self.worker is not None:
            self.worker.cancel()
        self.resigned = None
        for _ in range(plies):
            self._state.pop()
        return True

    def resign(self, player: str) -> None:
        """``player`` gives up."""
        other = self.players[1 - self.players.index(player)]
        self.resigned = (other, f"{player} resigned")
        if self.worker is not None:
            self.worker.cancel()

    # -- the computer ------------------------------------------------------------------------------
    def computer_to_move(self) -> bool:
        """True when the agent should be moving now."""
        return self.worker is not None and self.result() is None and not self.is_human(self.to_move)

    def start_thinking(self) -> None:
        """Give the agent its Observation (and nothing else) to think about."""
        if self.computer_to_move() and not self.worker.asked:
            self.worker.start(self.observation(self.to_move))

    def computer_move(self):
        """The agent's move once it has chosen; None while it thinks."""
        if not self.computer_to_move():
            return None
        return self.worker.poll()

    def worker_notice(self) -> str:
        """What the computer's worker has to tell the player (its process was restarted), once."""
        take = getattr(self.worker, "take_notice", None)
        return take() if take else ""

    def fallback_move(self):
        """A random legal move for the computer, from its own Observation (when its agent fails)."""
        moves = self.observation(self.to_move).legal_moves
        return self.worker.rng.choice(moves) if moves else None

    def close(self) -> None:
        """Stop the computer's worker (its thread or process)."""
        if self.worker is not None:
            self.worker.close()

    # -- records -----------------------------------------------------------------------------------
    def record(self) -> GameRecord:
        """The game record (both set-ups, moves in notation, result)."""
        return GameRecord.from_state(self._state, self.setups, self.config.seed)

    def seats(self) -> dict:
        """Who plays whom (sealed in a saved game, so it resumes with the same seats)."""
        cfg = self.config
        return {"opponent": cfg.opponent, "level": cfg.level, "seed": cfg.seed,
                "human": self.humans[0] if cfg.vs_computer else None}

    def save(self, path) -> None:
        """Write a saved game (``gibson-save/1``): the record sealed, and in clear only the human's own
        player record against the computer (nobody's in a hot-seat game). OSError when it cannot be written."""
        view_of = self.humans[0] if self.config.vs_computer else None
        write_save(path, self.record(), self.seats(), view_of, self._state)
        self.saved_ply = self.ply

    @classmethod
    def load(cls, path, config: GameConfig | None = None, sync_ai: bool = False, ai_process: bool = False) -> Session:
        """Resume a saved game with the seats it was saved with; a plain record (``gibson-record/1``) is
        replayed against a friend unless ``config`` says otherwise. RecordError for a bad file."""
        record, seats = read_save(path)
        state = record.replay()
        options = dict(record.options or {})
        if seats is not None:
            cfg = GameConfig(record.variant, options, _text(seats.get("opponent"), FRIEND),
                             _text(seats.get("level"), "medium"), seats.get("human") or None,
                             seats.get("seed") if isinstance(seats.get("seed"), int) else None)
            if cfg.vs_computer and cfg.human not in state.variant.players:
                raise RecordError(f"saved game names an unknown side {str(cfg.human)[:20]!r}")
        elif config is not None:
            cfg = attrs.evolve(config, variant=record.variant, options=options)
        else:
            cfg = GameConfig(record.variant, options)
        try:
            session = cls(cfg, record.setups, state, sync_ai, ai_process)
            session.saved_ply = session.ply
            return session
        except ValueError as exc:  # an agent that is no longer installed, or a level it lacks
            raise RecordError(f"saved game cannot resume: {str(exc)[:120]}") from None

    @classmethod
    def random(cls, config: GameConfig, seed: int = 0, sync_ai: bool = False, ai_process: bool = False) -> Session:
        """A game from two random set-ups (screenshots, benchmarks)."""
        from gibson_core.setup import random_setup

        variant = config.load()
        return cls(config, {p: random_setup(variant, p, setup_rng(seed, p)) for p in variant.players},
                   sync_ai=sync_ai, ai_process=ai_process)


def _text(value, default: str) -> str:
    return value if isinstance(value, str) and value else default


def _known_enemies(obs: Observation) -> set[int]:
    """Handles of the other side's pieces whose type ``obs`` shows (on the board or removed)."""
    return {p.handle for p in (*obs.pieces, *obs.removed) if p.owner != obs.player and p.type is not None}
