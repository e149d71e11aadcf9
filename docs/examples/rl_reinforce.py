"""Train a small numpy policy on the tiny Petite Attaque variant (docs/examples/petite-attaque.yaml) against Gibson's
random agent, through the Gymnasium environment, and plot its learning curve (docs/rl.md shows the result).

The policy is a linear softmax over the legal actions: each action's score is ``theta . phi(observation,
action)``, where ``phi`` is read from the observation tensor and the action's move (:mod:`gibson_rl.actions`):
which own piece type moves, forwards / sideways / backwards, and whether it attacks nothing, an unknown enemy
piece or a revealed one (of which type). Training is REINFORCE with a running-mean baseline; the reward is +1 /
-1 / 0 at the end of the game. Every ``--every`` episodes the script records the share of those won and lost.

    .venv/bin/python docs/examples/rl_reinforce.py --episodes 20000 --png docs/rl-learning-curve.png
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from gibson_rl.gym import GibsonEnv

from gibson_core.variant import load_variant_file

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tinypng import line_chart  # noqa: E402


class Features:
    """``phi(observation, action)`` for the Petite Attaque action space, from the learner's tensor only."""

    def __init__(self, env: GibsonEnv):
        variant, enc = env.variant, env.episode.encoder
        self.grid = variant.grid
        self.moves = env.episode.actions.moves
        self.types = [t.id for t in variant.types]
        self.own = [enc.at[f"own:{t}"] for t in self.types]
        self.enemy = [enc.at[f"enemy:{t}"] for t in self.types]
        self.unknown = enc.at["enemy:unknown"]
        self.forward = 1 if env.player == variant.players[0] else -1
        n = len(self.types)
        self.size = n * 3 * (2 + n) + 1  # mover type x direction x (no attack, unknown, revealed type)

    def __call__(self, obs: np.ndarray, actions: np.ndarray) -> np.ndarray:
        planes = obs.reshape(obs.shape[0], -1)
        n = len(self.types)
        phi = np.zeros((len(actions), self.size))
        phi[:, -1] = 1.0
        index = self.grid.index
        for row, a in enumerate(actions):
            move = self.moves[a]
            o, d = index[move.origin], index[move.dest]
            mover = next(t for t in range(n) if planes[self.own[t], o])
            step = (d // self.grid.files - o // self.grid.files) * self.forward
            direction = 0 if step > 0 else 1 if step == 0 else 2
            target = 0
            if move.target is not None:
                t = index[move.target]
                target = 1 if planes[self.unknown, t] else 2 + next(k for k in range(n) if planes[self.enemy[k], t])
            phi[row, (mover * 3 + direction) * (2 + n) + target] = 1.0
        return phi


def train(episodes: int, every: int, lr: float, seed: int) -> list:
    env = GibsonEnv(load_variant_file(HERE / "petite-attaque.yaml"), opponent="random")
    features = Features(env)
    rng = np.random.default_rng(seed)
    theta = np.zeros(features.size)
    baseline = 0.0
    curve, results = [], []
    for episode in range(1, episodes + 1):
        obs, info = env.reset(seed=seed * 1_000_003 + episode)
        grads = []
        done = "result" in info  # on so small a board the opponent, moving first, may win at once
        reward = 0.0 if not done else 1.0 if info["winner"] == env.player else -1.0 if info["winner"] else 0.0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            phi = features(obs, legal)
            z = phi @ theta
            p = np.exp(z - z.max())
            p /= p.sum()
            k = int(rng.choice(len(legal), p=p))
            grads.append(phi[k] - p @ phi)  # the gradient of log pi(action) for a linear softmax policy
            obs, reward, terminated, truncated, info = env.step(int(legal[k]))
            done = terminated or truncated
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        if grads:
            theta += lr * advantage * np.sum(grads, axis=0)
        results.append(reward)
        if episode % every == 0:
            last = np.array(results[-every:])
            curve.append((episode, float((last > 0).mean()), float((last < 0).mean())))
            print(f"episode {episode:>6}: won {curve[-1][1]:.0%}, lost {curve[-1][2]:.0%} of the last {every}",
                  flush=True)
    return curve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--png", default=str(HERE.parent / "rl-learning-curve.png"))
    args = parser.parse_args()
    start = time.process_time()
    curve = train(args.episodes, args.every, args.lr, args.seed)
    print(f"{args.episodes} episodes in {time.process_time() - start:.0f} s of CPU time")
    line_chart(args.png, [[(e, won) for e, won, _l in curve], [(e, lost) for e, _w, lost in curve]],
               args.episodes)
    print(f"learning curve (red: share won, blue: share lost) saved to {args.png}")


if __name__ == "__main__":
    main()
