"""Playing a whole game between two agents, each seeing only its own Observation.

Each set-up and each agent gets its own generator derived from the game's seed
(:mod:`gibson_core.seeding`), so a seed fixes the whole game in any process and no agent sees another's
generator. A crash or an illegal move of an agent ends the game with a :class:`MatchError` that says who,
at which ply, and what.
"""

from __future__ import annotations

from .errors import GibsonError
from .observe import observe
from .record import GameRecord
from .seeding import agent_rng, first_player, setup_rng
from .state import GameState


class MatchError(GibsonError):
    """An agent failed during a match: ``player``, ``ply`` (0 for the set-up), the ``move`` it tried when
    the move was illegal (else None) and the ``cause`` (the original exception)."""

    def __init__(self, player: str, ply: int, move, cause: BaseException):
        self.player, self.ply, self.move, self.cause = player, ply, move, cause
        what = f"illegal move {move}" if move is not None else "crash"
        super().__init__(f"{player} at ply {ply}: {what}: {type(cause).__name__}: {cause}")


def play_match(variant, agents, seed: int = 0, first: str | None = None, budget: float | None = None,
               max_plies: int | None = None, start: tuple | None = None) -> tuple[GameRecord, GameState]:
    """Play ``agents[0]`` (first player name of the variant) against ``agents[1]``; returns the record and
    the final state. The first mover is chosen by lot from ``seed`` unless ``first`` is given. With
    ``start``, a ``(GameRecord, ply)`` pair, the game goes on from that record's position after ``ply``
    plies (its set-ups and first mover; the agents choose no set-up) and the record returned holds those
    plies too. An agent's failure raises :class:`MatchError`."""
    players = variant.players
    if start is not None:
        begun, ply = start
        setups, first = begun.setups, begun.first
        state = begun.replay(ply)
    else:
        setups = {}
        for i, p in enumerate(players):
            try:
                setups[p] = agents[i].choose_setup(variant, p, setup_rng(seed, p))
            except Exception as exc:
                raise MatchError(p, 0, None, exc) from exc
        first = first or first_player(seed, players)
        state = GameState.from_setups(variant, setups, first)
    rngs = [agent_rng(seed, p) for p in players]
    while state.outcome() is None and (max_plies is None or state.ply < max_plies):
        player = state.player
        i = players.index(player)
        move = None
        try:
            move = agents[i].choose_move(observe(state, player), rngs[i], budget)
            state.play(move, by=player)
        except Exception as exc:
            raise MatchError(player, state.ply + 1, move, exc) from exc
    return GameRecord.from_state(state, setups, seed, first), state
