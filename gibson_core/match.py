"""Playing a whole game between two agents, each seeing only its own Observation."""

from __future__ import annotations

import random

from .observe import observe
from .record import GameRecord
from .state import GameState


def play_match(variant, agents, seed: int = 0, first: str | None = None, budget: float | None = None,
               max_plies: int | None = None) -> tuple[GameRecord, GameState]:
    """Play ``agents[0]`` (first player name of the variant) against ``agents[1]``; returns the record and
    the final state. The first mover is chosen by lot from ``seed`` unless ``first`` is given."""
    rng = random.Random(seed)
    players = variant.players
    setups = {p: agents[i].choose_setup(variant, p, rng) for i, p in enumerate(players)}
    first = first or rng.choice(players)
    state = GameState.from_setups(variant, setups, first)
    while state.outcome() is None and (max_plies is None or state.ply < max_plies):
        player = state.player
        agent = agents[players.index(player)]
        move = agent.choose_move(observe(state, player), rng, budget)
        state.play(move)
    return GameRecord.from_state(state, setups, seed, first), state
