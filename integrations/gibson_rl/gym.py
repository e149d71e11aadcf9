"""Gymnasium single-agent environments: the learner plays one side, a Gibson agent the other::

    import gymnasium, gibson_rl                  # importing gibson_rl registers gibson/<variant>-v0
    e = gymnasium.make("gibson/lattaque-v0", opponent="heuristic")
    obs, info = e.reset(seed=1)
    obs, reward, terminated, truncated, info = e.step(e.action_space.sample(info["action_mask"]))

The observation is the learner's tensor (:mod:`gibson_rl.encode`); ``info["action_mask"]`` (and the method
``action_masks()``, the name MaskablePPO looks for) marks the legal actions. The opponent is any agent of
:func:`gibson_core.ai.make_agent` (``random``, ``heuristic``, ``search-easy``...; ``NAME:key=value`` passes
options) and sees only its own Observation; it gets its own generator derived from the reset seed.
``player`` picks the learner's side (default: the variant's first player). An action that is not legal ends
the episode as a loss (``illegal="lose"``, reward -1, ``info["illegal"] = True``) or raises
(``illegal="raise"``). Rewards are +1 / -1 / 0 at the end. When the opponent moves first, it may end the game
before the learner moves (tiny variants): ``reset`` then returns the final observation, an empty mask and
``info["result"]``/``info["winner"]``.
"""

from __future__ import annotations

import gymnasium
import numpy as np

from gibson_core.errors import IllegalMoveError
from gibson_core.observe import observe
from gibson_core.seeding import agent_rng

from .core import EnvOptionError, Episode


class GibsonEnv(gymnasium.Env):
    """One side of a Gibson game against a Gibson agent."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: str = "lattaque", opponent: str = "heuristic", player: str | None = None,
                 setup: str = "random", beliefs: bool = False, illegal: str = "lose", budget: float | None = None,
                 render_mode: str | None = None, **options):
        if setup == "phase":
            raise EnvOptionError("the single-agent environment takes set-ups at reset (random or an agent name)")
        if illegal not in ("lose", "raise"):
            raise EnvOptionError(f"illegal={str(illegal)[:20]!r}: expected lose or raise")
        from gibson_core.ai.arena import agent_from_spec

        self.episode = Episode(variant, options, setup=setup, beliefs=beliefs)
        # the opponent reads an Observation of the GameState every ply: the Python engine plays the game
        self.episode.use_kernel = False
        self.variant = self.episode.variant
        self.player = player or self.variant.players[0]
        if self.player not in self.variant.players:
            raise EnvOptionError(f"player={str(player)[:20]!r}: expected one of {', '.join(self.variant.players)}")
        self.opponent_name = self.variant.players[1 - self.variant.player_index(self.player)]
        self.opponent_spec = opponent
        self.opponent = agent_from_spec(opponent)
        self.illegal = illegal
        self.budget = budget
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, self.episode.encoder.shape, np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.episode.actions.n)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**63 - 1))
        setups = (options or {}).get("setups")
        self.episode.reset(seed, setups)
        self._rng = agent_rng(seed, self.opponent_name)
        self._opponent_moves()
        return self._obs(), self._info()

    def step(self, action):
        ep = self.episode
        try:
            ep.step(action)
        except IllegalMoveError:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal"] = True
            return self._obs(), -1.0, True, False, info
        self._opponent_moves()
        return self._obs(), ep.reward(self.player), ep.over, False, self._info()

    def _opponent_moves(self) -> None:
        ep = self.episode
        while not ep.over and ep.current == self.opponent_name:
            move = self.opponent.choose_move(observe(ep.state, self.opponent_name), self._rng, self.budget)
            ep.step(ep.actions.index(move))

    def _obs(self) -> np.ndarray:
        return self.episode.tensor(self.player)

    def _info(self) -> dict:
        info = {"action_mask": self.episode.mask(self.player).copy()}
        if self.episode.over:
            info["result"] = self.episode.result.reason
            info["winner"] = self.episode.winner()
        return info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (for MaskablePPO and the like)."""
        return self.episode.mask(self.player).astype(bool)

    def render(self):
        if self.render_mode != "ansi":
            return None
        from gibson_core.textboard import render_text

        return render_text(self.episode.state, self.player)


def register_envs() -> list[str]:
    """Register ``gibson/<variant>-v0`` for every registered variant (built-in and plugin); returns the ids."""
    from gibson_core.plugins import variant_names

    ids = []
    for name in variant_names():
        env_id = f"gibson/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="gibson_rl.gym:GibsonEnv", kwargs={"variant": name})
        ids.append(env_id)
    return ids
