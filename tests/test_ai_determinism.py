"""A seed fixes a whole game in any process; set-ups and agents draw from independent generators; an
arena failure names its seed and ply and prints the command that replays that one game."""

import os
import shlex
import subprocess
import sys

from gibson_core.ai import AGENTS, RandomAgent
from gibson_core.cli import main
from gibson_core.seeding import agent_rng, derive, derive_seed, setup_rng

GAMES = """
import hashlib
from gibson_core.ai import make_agent
from gibson_core.match import play_match
from gibson_core.plugins import load_variant, variant_names
for name in variant_names():
    variant = load_variant(name)
    for pair, plies in ((("heuristic", "random"), 40), (("search", "heuristic"), 12)):
        agents = [make_agent(a, seconds=None, iterations=5, depth=3) if a == "search" else make_agent(a)
                  for a in pair]
        record, _state = play_match(variant, agents, seed=3, max_plies=plies)
        print(name, pair, hashlib.sha256(record.to_json().encode()).hexdigest())
"""


def test_seeded_games_of_every_agent_are_the_same_under_any_hash_seed():
    """Beliefs and set-ups once iterated over sets of strings, whose order follows PYTHONHASHSEED."""
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", GAMES], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count("\n") >= 8


def test_derived_generators_are_stable_and_independent():
    assert derive_seed(5, "setup", "red") == 0x68C500CD96CFB177  # SHA-256 based: the same on every machine
    assert derive(5, "agent", "red").random() == derive(5, "agent", "red").random()
    draws = {rng.random() for rng in (setup_rng(5, "red"), setup_rng(5, "blue"), agent_rng(5, "red"),
                                      agent_rng(5, "blue"), setup_rng(6, "red"))}
    assert len(draws) == 5
    assert derive_seed(None, "x") is None


class BrokenAgent(RandomAgent):
    """Plays a move of the wrong player's piece on its second turn."""

    name = "broken"

    def __init__(self):
        self.turns = 0

    def choose_move(self, observation, rng, budget=None):
        self.turns += 1
        if self.turns == 2:
            return "a1-a2xa3"
        return super().choose_move(observation, rng, budget)


def test_an_arena_failure_prints_seed_ply_and_the_command_that_replays_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(AGENTS, "broken", BrokenAgent)
    monkeypatch.chdir(tmp_path)
    args = ["arena", "tri-tactics", "--agents", "broken,random", "--games", "2", "--seed", "40", "--quiet",
            "--max-plies", "30"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "game 1 (seed 41, ply " in err and "broken playing" in err and "illegal move a1-a2xa3" in err
    replay = [line.split("replay it: ", 1)[1] for line in err.splitlines() if "replay it: " in line]
    assert len(replay) == 2
    words = shlex.split(replay[1])
    assert words[:2] == ["gibson", "arena"] and "--only" in words
    assert main([*words[1:], "--quiet"]) == 1
    again = capsys.readouterr().err
    assert again.splitlines()[0] == err.splitlines()[2]  # the same failure at the same ply
