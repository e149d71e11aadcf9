"""The same seed gives the same game in every process, for the agents and environments added since the
first determinism test: OpenSpiel's IS-MCTS (whose default world resampler was seeded by the machine's
entropy) and the RL environments' seeded episodes."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("pyspiel")

GAMES = """
import hashlib, numpy as np
from gibson_core.ai import make_agent
from gibson_core.match import play_match
from gibson_core.plugins import load_variant
from gibson_rl.pettingzoo import env
record, _ = play_match(load_variant("dover-patrol"), [make_agent("openspiel-ismcts", simulations=8),
                       make_agent("heuristic")], seed=7, max_plies=2)
print(hashlib.sha256(record.to_json().encode()).hexdigest())
e = env("aviation", ply_limit=12)
e.reset(seed=3)
rng, trace = np.random.default_rng(3), []
for agent in e.agent_iter():
    obs, _r, done, cut, _i = e.last()
    trace.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
    e.step(None if done or cut else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
print(hashlib.sha256(b"".join(trace)).hexdigest())
"""


def test_ismcts_and_env_episodes_are_the_same_under_any_hash_seed():
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", GAMES], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count("\n") == 2
