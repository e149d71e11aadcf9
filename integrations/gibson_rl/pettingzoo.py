"""PettingZoo AEC environments for every Gibson variant::

    from gibson_rl.pettingzoo import env
    e = env("lattaque", ply_limit=400)          # variant options as keywords (ply_limit = ply-limit)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are the variant's player names. An observation is ``{"observation": float32 planes (see
:mod:`gibson_rl.encode`), "action_mask": int8 vector}``; actions are numbers of the variant's fixed action
space (:mod:`gibson_rl.actions`). Rewards are +1 / -1 / 0 at the end of the game (a drawn or ply-limited game
is 0); a game over by the rules (the ply limit included: it is a draw by the rules) terminates both agents.

Options: ``setup="random"`` (default), a Gibson agent name (that agent chooses each set-up) or ``"phase"``
(a set-up phase of placement actions first); ``reset(options={"setups": {player: {square: type}}})`` gives a
player's own set-up for one episode; ``beliefs=True`` adds the belief planes; ``render_mode="ansi"`` renders
the board as text from the current agent's side.
"""

from __future__ import annotations

import os

import gymnasium
import numpy as np

_AUDIO = os.environ.get("SDL_AUDIODRIVER")
from pettingzoo import AECEnv  # noqa: E402  (its import sets SDL_AUDIODRIVER=dsp on Linux, for pygame)

if _AUDIO is None:  # leave the audio driver as the user (or Gibson's window, or its tests) chose it
    os.environ.pop("SDL_AUDIODRIVER", None)
else:
    os.environ["SDL_AUDIODRIVER"] = _AUDIO

from .core import Episode  # noqa: E402


class GibsonAECEnv(AECEnv):
    """A Gibson game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi"], "name": "gibson_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, variant: str = "lattaque", setup: str = "random", beliefs: bool = False,
                 render_mode: str | None = None, **options):
        super().__init__()
        self.episode = Episode(variant, options, setup=setup, beliefs=beliefs)
        self.variant = self.episode.variant
        self.possible_agents = list(self.variant.players)
        self.render_mode = render_mode
        n = self.episode.actions.n
        shape = self.episode.encoder.shape
        self._observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(0.0, 1.0, shape, np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
            }) for a in self.possible_agents
        }
        self._action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}

    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game; ``options={"setups": {player: {square: type id}}}`` brings set-ups."""
        self.episode.reset(seed, (options or {}).get("setups"))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.episode.current
        self._settle()

    def observe(self, agent):
        return {"observation": self.episode.tensor(agent), "action_mask": self.episode.mask(agent).copy()}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.episode.step(action)
        self.agent_selection = self.episode.current
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Rewards and terminations once the game is over."""
        ep = self.episode
        if ep.over:
            for a in self.agents:
                self.rewards[a] = ep.reward(a)
                self.terminations[a] = True
                self.infos[a] = {"result": ep.result.reason, "winner": ep.winner()}
        else:
            for a in self.agents:
                self.rewards[a] = 0.0

    def render(self):
        if self.render_mode != "ansi":
            return None
        from gibson_core.textboard import render_text

        if self.episode.state is None:
            return f"set-up phase: {self.episode.current} is placing pieces"
        return render_text(self.episode.state, self.episode.current)

    def close(self):
        pass


def env(variant: str = "lattaque", **kwargs) -> GibsonAECEnv:
    """A Gibson AEC environment (see the module docstring for the options)."""
    return GibsonAECEnv(variant, **kwargs)


raw_env = env
