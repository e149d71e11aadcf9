"""The OpenSpiel game ``python_gibson`` (registered when this module is imported) and an agent that plays
Gibson games with OpenSpiel's own Python IS-MCTS bot::

    import pyspiel, gibson_rl.openspiel
    game = pyspiel.load_game("python_gibson", {"variant": "lattaque", "options": '{"ply-limit": 300}'})
    state = game.new_initial_state()           # a chance node: the deal (both set-ups, the first mover)

Parameters: ``variant`` (a registered variant name), ``options`` (the variant's options as JSON text) and
``deals`` (how many distinct random deals the chance node offers, uniformly). Actions are the numbers of the
variant's action space (:mod:`gibson_rl.actions`); returns are +1 / -1 / 0 at the end.

Strings and tensors, for a player:

- the information-state string is a digest of everything that player has observed since the deal (their own
  set-up, then each move and its events as they were allowed to see them): equal strings, equal histories;
- the observation string is the board as that player sees it (``gibson_core.textboard``);
- the observation tensor is :mod:`gibson_rl.encode`'s planes; the information-state tensor adds the belief
  planes (what the history says each hidden piece can be), a fixed-size summary of the history.

``resample_from_infostate(player, sampler)`` builds a full state consistent with that player's information:
the hidden enemy types are drawn from Gibson's beliefs (:meth:`gibson_core.ai.beliefs.Beliefs.sample`) and
the position is rebuilt with :class:`gibson_core.ai.world.World`. In a resampled world the other player's
information state is the resampling player's with the sampled types of its own hidden pieces (its private
information in that world, which decides its legal moves). A resampled state can itself be resampled only before any move is made
in it.

:class:`ISMCTSAgent` (``gibson arena --agents openspiel-ismcts,heuristic``) builds the root from its
Observation and asks :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot` for a move.
"""

from __future__ import annotations

import hashlib
import json
import math
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from gibson_core.ai.base import Agent
from gibson_core.ai.beliefs import infer_beliefs
from gibson_core.ai.values import evaluate
from gibson_core.ai.world import World
from gibson_core.errors import JSON_ERRORS, quote
from gibson_core.events import redact
from gibson_core.observe import Observation, observe
from gibson_core.plugins import load_variant
from gibson_core.seeding import first_player, setup_rng
from gibson_core.setup import random_setup
from gibson_core.state import GameState
from gibson_core.textboard import render_text

from .actions import action_space
from .core import EnvOptionError
from .encode import DEFAULT_HORIZON, Encoder

SHORT_NAME = "python_gibson"
DEFAULT_DEALS = 1000

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Gibson hidden-rank war games (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "lattaque", "options": "", "deals": DEFAULT_DEALS},
)


def _digest(previous: str, text: str) -> str:
    return hashlib.sha256((previous + "\n" + text).encode()).hexdigest()[:32]


class GibsonGame(pyspiel.Game):
    """A Gibson variant as an OpenSpiel game."""

    def __init__(self, params=None):
        params = dict(params or {})
        name = params.get("variant", "lattaque")
        text = params.get("options", "") or ""
        try:
            self.variant_options = json.loads(text) if text else {}
        except JSON_ERRORS:
            raise EnvOptionError(f"options: expected a JSON mapping of variant options, got {quote(text, 40)}") from None
        self.variant = load_variant(name, self.variant_options or None)
        self.deals = params.get("deals", DEFAULT_DEALS)
        if type(self.deals) is not int or self.deals < 1:
            raise EnvOptionError(f"deals: expected a whole number from 1, got {quote(self.deals, 20)}")
        self.actions = action_space(self.variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.n, max_chance_outcomes=self.deals, num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=self.variant.ply_limit or DEFAULT_HORIZON)
        super().__init__(GAME_TYPE, info, {"variant": name, "options": text, "deals": self.deals})

    def new_initial_state(self):
        return GibsonState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return GibsonObserver(self, iig_obs_type)


class _Core:
    """The Gibson side of an OpenSpiel state: the game, the GameState (None before the deal), each player's
    information digest, and for resampled worlds the Observation they were built from."""

    def __init__(self, game):
        self.game = game
        self.gs: GameState | None = None
        self.info = ["", ""]
        self.base: dict = {}  # player index -> Observation
        self.base_ply = 0

    def copy(self) -> _Core:
        other = _Core(self.game)
        other.gs = self.gs.copy() if self.gs is not None else None
        other.info = list(self.info)
        other.base = self.base
        other.base_ply = self.base_ply
        return other

    def __deepcopy__(self, memo):
        return self.copy()


class GibsonState(pyspiel.State):
    """A Gibson game in OpenSpiel: a chance node for the deal, then the players' moves."""

    def __init__(self, game: GibsonGame):
        super().__init__(game)
        self.core = _Core(game)

    # OpenSpiel copies a Python state by deep-copying its attributes: everything lives in one _Core, which
    # copies itself the fast way and shares the (immutable) game and variant.
    gibson_game = property(lambda self: self.core.game)
    gs = property(lambda self: self.core.gs, lambda self, v: setattr(self.core, "gs", v))
    info = property(lambda self: self.core.info, lambda self, v: setattr(self.core, "info", v))
    base = property(lambda self: self.core.base, lambda self, v: setattr(self.core, "base", v))
    base_ply = property(lambda self: self.core.base_ply, lambda self, v: setattr(self.core, "base_ply", v))

    # -- the game -------------------------------------------------------------------------------------
    def current_player(self):
        if self.gs is None:
            return pyspiel.PlayerId.CHANCE
        if self.gs.result is not None:
            return pyspiel.PlayerId.TERMINAL
        return self.gs.to_move

    def _legal_actions(self, player):
        if self.gs is None or self.gs.result is not None or player != self.gs.to_move:
            return []
        return sorted(self.gibson_game.actions.indices(self.gs.legal_moves()))

    def chance_outcomes(self):
        p = 1.0 / self.gibson_game.deals
        return [(i, p) for i in range(self.gibson_game.deals)]

    def _apply_action(self, action):
        game = self.gibson_game
        variant = game.variant
        if self.gs is None:
            setups = {p: random_setup(variant, p, setup_rng(action, p)) for p in variant.players}
            first = first_player(action, variant.players)
            self.gs = GameState.from_setups(variant, setups, first)
            self.gs.outcome()
            self.info = [_digest("", f"{p} sets up {sorted(setups[p].items())}; {first} first")
                         for p in variant.players]
            return
        move = game.actions.move(int(action))
        self.gs.push(move)
        self.gs.outcome()
        events = self.gs.history[-1][1]
        self.info = [_digest(self.info[i], f"{move} {[redact(e, p) for e in events]!r}")
                     for i, p in enumerate(variant.players)]

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.gibson_game.actions.move(int(action)))

    def is_terminal(self):
        return self.gs is not None and self.gs.result is not None

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        winner = self.gs.result.winner
        players = self.gibson_game.variant.players
        if winner not in players:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == players[0] else [-1.0, 1.0]

    def __str__(self):
        return "chance: the deal" if self.gs is None else render_text(self.gs)

    # -- copies and resampling ------------------------------------------------------------------------
    def clone(self):
        other = GibsonState(self.gibson_game)
        other.core = self.core.copy()
        return other

    def observation_of(self, player: int) -> Observation:
        """What ``player`` knows: observed from the history, or the Observation a resampled world came from."""
        if self.base:
            if player not in self.base or len(self.gs.history) != self.base_ply:
                raise pyspiel.SpielError("a resampled world can be resampled only for the player it was built "
                                         "for, before any move is made in it")
            return self.base[player]
        return observe(self.gs, self.gibson_game.variant.players[player])

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state consistent with ``player_id``'s information, hidden types drawn from Gibson's beliefs."""
        obs = self.observation_of(player_id)
        rng = random.Random(int(probability_sampler() * 2**53))
        return GibsonState.from_observation(self.gibson_game, obs, rng, self.info[player_id])

    @classmethod
    def from_observation(cls, game: GibsonGame, obs: Observation, rng: random.Random,
                         info: str | None = None) -> GibsonState:
        """A full state built from one player's Observation, the hidden enemy types sampled from beliefs."""
        variant = game.variant
        assignment = infer_beliefs(obs, variant).sample(rng)
        world = World(obs, variant, assignment)
        state = cls(game)
        state.gs = world.state
        state.gs.outcome()
        p = variant.player_index(obs.player)
        mine = info if info is not None else _digest("", repr((obs.pieces, obs.removed, obs.tokens, obs.events)))
        state.info = [mine, mine]
        state.info[1 - p] = _digest(mine, f"the other side's pieces in this sampled world: {sorted(assignment.items())}")
        state.base = {p: obs}
        state.base_ply = len(state.gs.history)
        return state


class GibsonObserver:
    """OpenSpiel's observer for Gibson games: tensors from :mod:`gibson_rl.encode`, the information state
    adding the belief planes (see the module docstring)."""

    def __init__(self, game: GibsonGame, iig_obs_type=None):
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.game = game
        self.encoder = Encoder(game.variant, beliefs=self.perfect_recall)
        self.tensor = np.zeros(math.prod(self.encoder.shape), np.float32)
        self.dict = {"planes": self.tensor.reshape(self.encoder.shape)}

    def set_from(self, state: GibsonState, player: int):
        self.tensor.fill(0.0)
        if state.gs is None:
            return
        obs = state.observation_of(player) if state.base and len(state.gs.history) == state.base_ply \
            and player in state.base else observe(state.gs, self.game.variant.players[player])
        self.tensor[:] = self.encoder.encode_observation(obs).reshape(-1)

    def string_from(self, state: GibsonState, player: int) -> str:
        if state.gs is None:
            return "the deal"
        if self.perfect_recall:
            return f"p{player} {state.info[player]}"
        return f"ply {state.gs.ply}\n" + render_text(state.gs, self.game.variant.players[player])


class GibsonEvaluator(mcts.Evaluator):
    """IS-MCTS leaf values: a random playout of at most ``plies`` plies, then the result (+1/-1/0) or, when
    the game goes on, ``tanh`` of Gibson's material-and-position score (:func:`gibson_core.ai.values.evaluate`)
    over ``scale``. Priors are uniform."""

    def __init__(self, plies: int = 20, scale: float = 10.0, random_state=None):
        self.plies = plies
        self.scale = scale
        self.random_state = random_state or np.random.RandomState()

    def evaluate(self, state):
        gs = state.gs.copy()
        for _ in range(self.plies):
            moves = gs.legal_moves()
            if not moves:
                break
            gs.push(moves[self.random_state.randint(len(moves))])
        result = gs.outcome()
        players = gs.variant.players
        if result is not None:
            if result.winner not in players:
                return np.zeros(2)
            return np.array([1.0, -1.0] if result.winner == players[0] else [-1.0, 1.0])
        v = math.tanh(evaluate(gs, 0) / self.scale)
        return np.array([v, -v])

    def prior(self, state):
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


def seeded_resampler(bot, seed: int) -> None:
    """Make an IS-MCTS bot resample with a seeded sampler (its default sampler is seeded from the clock)."""
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))


class ISMCTSAgent(Agent):
    """A Gibson agent that asks OpenSpiel's Python IS-MCTS bot for each move (``simulations`` per move,
    ``uct_c`` exploration, ``evaluator``: ``gibson`` (:class:`GibsonEvaluator` with ``rollout`` plies) or
    ``random`` (OpenSpiel's RandomRolloutEvaluator, whole random games))."""

    name = "openspiel-ismcts"

    def __init__(self, simulations: int = 100, uct_c: float = 2.0, rollout: int = 20, evaluator: str = "gibson"):
        if evaluator not in ("gibson", "random"):
            raise ValueError(f"evaluator={str(evaluator)[:20]!r}: expected gibson or random")
        self.simulations = int(simulations)
        self.uct_c = float(uct_c)
        self.rollout = int(rollout)
        self.evaluator = evaluator
        self._games: dict = {}

    def _game(self, obs: Observation) -> GibsonGame:
        key = (obs.variant, obs.options)
        if key not in self._games:
            options = json.dumps(dict(obs.options)) if obs.options else ""
            self._games[key] = pyspiel.load_game(SHORT_NAME, {"variant": obs.variant, "options": options})
        return self._games[key]

    def choose_move(self, observation: Observation, rng: random.Random, budget: float | None = None):
        if not observation.legal_moves:
            raise ValueError(f"{observation.player} has no legal move to choose from")
        if len(observation.legal_moves) == 1:
            return observation.legal_moves[0]
        game = self._game(observation)
        np_rng = np.random.RandomState(rng.randrange(2**32))
        evaluator = GibsonEvaluator(self.rollout, random_state=np_rng) if self.evaluator == "gibson" \
            else mcts.RandomRolloutEvaluator(1, np_rng)
        bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, self.simulations, random_state=np_rng)
        seeded_resampler(bot, rng.randrange(2**31))  # the same move for the same generator, in any process
        root = GibsonState.from_observation(game, observation, rng)
        move = game.actions.move(int(bot.step(root)))
        if move not in observation.legal_moves:  # the sampled world agrees with the Observation on legality
            raise ValueError(f"IS-MCTS chose {move}, not a legal move of {observation.player}")
        return move


pyspiel.register_game(GAME_TYPE, GibsonGame)
