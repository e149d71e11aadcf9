"""One environment episode, shared by the PettingZoo, Gymnasium and OpenSpiel wrappers: a Gibson game with
numbered actions, masks, per-player tensors and end-of-game rewards.

Set-ups come, at :meth:`Episode.reset`, from the ``setups`` given for that episode, else from the
``setup`` mode: ``"random"`` (a uniformly random legal set-up), the name of a Gibson agent (its
``choose_setup``), or ``"phase"`` (a set-up phase of placement actions: the first player places every piece,
then the second; neither sees the other's placements until play starts). The first mover is drawn by lot.
Everything random comes from the reset seed, through the engine's derived generators
(:mod:`gibson_core.seeding`: each set-up, the first mover, each agent), as in ``gibson arena``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np

from gibson_core.errors import GibsonError, IllegalMoveError, expect_type, quote
from gibson_core.fastpath import kernel_or_none
from gibson_core.plugins import load_variant
from gibson_core.seeding import first_player, setup_rng
from gibson_core.setup import random_setup, validate_setup
from gibson_core.state import GameState
from gibson_core.variant import Variant

from .actions import Placement, action_space
from .encode import Encoder
from .fast import KernelPosition

SETUP_MODES = ("random", "phase")


class EnvOptionError(GibsonError, ValueError):
    """An environment option that is not understood."""


def variant_options(options: dict) -> dict:
    """Variant options from keyword arguments: ``ply_limit=40`` stands for ``ply-limit``."""
    return {str(k).replace("_", "-"): v for k, v in options.items()}


class Episode:
    """A game as an environment sees it. ``variant`` is a name or a compiled Variant.

    ``use_kernel`` (True when the engine's C kernel plays the variant exactly and there are no belief planes;
    a change takes effect at the next reset) makes the moves in the kernel (:mod:`gibson_rl.fast`): everything
    observable is the same, and :attr:`state` is then rebuilt in the Python engine only when it is read.
    """

    def __init__(self, variant, options: dict | None = None, setup: str = "random", beliefs: bool = False):
        if not isinstance(variant, (str, Variant)):
            raise EnvOptionError(f"variant: expected a variant name, got {quote(variant, 30)}")
        expect_type(options or {}, Mapping, "options", EnvOptionError)
        self.variant = load_variant(variant, variant_options(options or {}) or None) if isinstance(variant, str) \
            else variant
        if setup not in SETUP_MODES:
            from gibson_core.ai import AGENTS

            if setup not in AGENTS:
                raise EnvOptionError(f"setup={str(setup)[:30]!r}: expected random, phase or an agent name "
                                     f"({', '.join(sorted(AGENTS))})")
        self.setup_mode = setup
        self.players = self.variant.players
        self.actions = action_space(self.variant, placements=setup == "phase")
        self.encoder = Encoder(self.variant, beliefs=beliefs)
        # the C kernel plays the game when it plays this variant exactly (the belief planes need Observations of
        # a GameState, so they keep the Python engine); ``state`` is then rebuilt from it only when read
        self.use_kernel = not beliefs and kernel_or_none(self.variant) is not None
        self._gs: GameState | None = None
        self._by_code: dict[int, int] = {}  # kernel move code -> action number
        self._pos = None  # the KernelPosition (kernel) or the GameState (Python engine) the moves are made in
        self.placing: int | None = None  # the player placing pieces during a set-up phase
        self.placed: list[dict] = [{}, {}]
        self._views = None
        self._mask_cache: tuple | None = None
        self._no_actions: np.ndarray | None = None

    # -- starting ---------------------------------------------------------------------------------------
    def reset(self, seed=None, setups: dict | None = None) -> None:
        """A new game (``setups``: ``{player: {square: type id}}`` for players who bring their own)."""
        setups = dict(setups or {})
        for player, setup in setups.items():  # checked first: a refused set-up changes nothing
            validate_setup(self.variant, player, setup)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
            raise EnvOptionError(f"seed: expected a whole number, got {quote(seed, 30)}")
        self.seed = seed
        self.first = first_player(seed, self.players)
        self._gs = self._pos = None
        self._mask_cache = None
        if self.setup_mode == "phase":
            self.placed = [dict(setups.get(p, {})) for p in self.players]
            self.placing = 0
            self._advance_placing()
            return
        for p in self.players:
            if p not in setups:
                setups[p] = self._make_setup(p, seed)
        self._start(setups)

    def _make_setup(self, player: str, seed) -> dict:
        rng = setup_rng(seed, player)
        if self.setup_mode == "random":
            return random_setup(self.variant, player, rng)
        from gibson_core.ai import make_agent

        return make_agent(self.setup_mode).choose_setup(self.variant, player, rng)

    def _start(self, setups: dict) -> None:
        self.placing = None
        self._mask_cache = None
        self._gs = GameState.from_setups(self.variant, setups, self.first)
        self._views = [self.encoder.view(p) for p in self.players]
        self._pos = KernelPosition(self._gs) if self.use_kernel and self._gs.result is None else self._gs
        self._pos.outcome()

    @property
    def state(self) -> GameState | None:
        """The game (None during a set-up phase). When the kernel plays it, this GameState is brought up to date
        by replaying the kernel's moves in the Python engine: read it, never change it."""
        gs, pos = self._gs, self._pos
        if pos is not gs and pos is not None:
            for move, _events in pos.history[len(gs.history):]:
                gs.push(move)
                gs.outcome()
        return gs

    # -- reading ----------------------------------------------------------------------------------------
    @property
    def current(self) -> str:
        """The player whose action is awaited (the placing player during a set-up phase)."""
        if self.placing is not None:
            return self.players[self.placing]
        return self.players[self._pos.to_move]

    @property
    def over(self) -> bool:
        """True once the game has a result."""
        return self._pos is not None and self._pos.result is not None

    @property
    def result(self):
        """The game's Result once it is over, else None (read without rebuilding :attr:`state`)."""
        return None if self._pos is None else self._pos.result

    def winner(self) -> str | None:
        """The winner's name, or None (game going on, or drawn)."""
        if not self.over:
            return None
        w = self._pos.result.winner
        return w if w in self.players else None

    def reward(self, player: str) -> float:
        """+1 for a win, -1 for a loss, 0 for a draw or a game going on."""
        w = self.winner()
        return 0.0 if w is None else 1.0 if w == player else -1.0

    def legal_actions(self, player: str | None = None) -> list[int]:
        """The numbers of ``player``'s legal actions (none when it is not their turn)."""
        player = player or self.current
        if self.placing is not None:
            return self._placements() if player == self.current else []
        if self.over or player != self.current:
            return []
        return list(self._legal()[0])

    def _legal(self) -> tuple:
        """(legal action numbers, read-only mask) of the side to move, computed once a ply (the cache holds
        the state itself, never an id that a later state could reuse)."""
        state = self._pos
        cache = self._mask_cache
        if state is not None:
            plies = len(state.history)
            if cache is not None and cache[0] is state and cache[1] == plies:
                return cache[2]
            key = (state, plies)
        else:
            key = (None, sum(map(len, self.placed)))
            if cache is not None and cache[0] is None and cache[1] == key[1]:
                return cache[2]
        if state is None:
            legal = self._placements()
        else:
            legal = [] if state.result is not None else self.actions.indices(state.legal_moves()) \
                if state is self._gs else state.legal_actions(self.actions, self._by_code)
        marks = bytearray(self.actions.n)  # a fresh buffer a ply: a mask handed out never changes later
        for i in legal:
            marks[i] = 1
        mask = np.frombuffer(marks, np.int8)
        mask.flags.writeable = False
        self._mask_cache = (*key, (legal, mask))
        return self._mask_cache[2]

    def mask(self, player: str | None = None) -> np.ndarray:
        """The action mask of ``player`` (int8, 1 for each legal action; all zeros when it is not their turn or
        the game is over). The array is read-only: copy it to change it."""
        if player is None or player == self.current:
            return self._legal()[1]
        if self._no_actions is None:
            self._no_actions = np.zeros(self.actions.n, np.int8)
            self._no_actions.flags.writeable = False
        return self._no_actions

    def tensor(self, player: str) -> np.ndarray:
        """``player``'s observation tensor now."""
        if self._pos is None:
            p = self.variant.player_index(player)
            return self.encoder.setup_tensor(player, self.placed[p], self.placing == p)
        return self._views[self.variant.player_index(player)].tensor(self._pos)

    # -- acting -----------------------------------------------------------------------------------------
    def step(self, action: int) -> None:
        """Make the current player's action; IllegalMoveError (nothing changed) when it is not legal."""
        item = self.actions.move(action)
        if self.placing is not None:
            self._place(item)
            return
        if self.over:
            raise IllegalMoveError(str(item), "the game is over", self.state.describe())
        if not self._legal()[1][action]:
            raise IllegalMoveError(str(item), "not a legal move here", self.state.describe())
        pos = self._pos
        pos.push(item)
        if pos is self._gs:
            pos.outcome()

    # -- the set-up phase -------------------------------------------------------------------------------
    def _remaining(self, p: int) -> dict:
        counts = {t.id: t.count for t in self.variant.types}
        for type_id in self.placed[p].values():
            counts[type_id] -= 1
        return counts

    def _placements(self) -> list[int]:
        p = self.placing
        player = self.players[p]
        grid, placed = self.variant.grid, self.placed[p]
        free = [sq for sq in self.variant.setup_squares[player] if grid.names[sq] not in placed]
        left = [self.variant.type_index[t] for t, n in self._remaining(p).items() if n > 0]
        base, k = self.actions.n_moves, len(self.variant.types)
        return sorted(base + sq * k + t for sq in free for t in left)

    def _place(self, item) -> None:
        if not isinstance(item, Placement):
            raise IllegalMoveError(str(item), "the set-up phase takes placements only")
        if self.actions.index(item) not in set(self._placements()):
            raise IllegalMoveError(str(item), f"not a free square of {self.current}'s set-up zone, or no such "
                                   "piece left to place")
        self.placed[self.placing][item.square] = item.type
        self._advance_placing()

    def _advance_placing(self) -> None:
        while self.placing is not None and self.placing < 2 and not any(self._remaining(self.placing).values()):
            self.placing += 1
        if self.placing == 2:
            self._start({p: self.placed[i] for i, p in enumerate(self.players)})
