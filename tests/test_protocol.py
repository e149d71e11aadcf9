"""The wire protocol without a network: message validation, Observations round-tripping through JSON,
spectator views, and the game logic the server rebuilds from its log."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from gibson_server.game import Game, GameError
from gibson_server.store.base import GameRow, LogEntry

from gibson_core.errors import GibsonError
from gibson_core.net.protocol import (
    CLIENT_MESSAGES,
    MAX_MESSAGE_BYTES,
    ProtocolError,
    encode,
    observation_from_wire,
    observation_to_wire,
    parse_client_message,
    spectator_observation,
)
from gibson_core.observe import observe
from gibson_core.plugins import load_variant, variant_names
from gibson_core.setup import random_setup
from gibson_core.state import GameState

DOC = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_every_client_message_and_its_fields_are_documented():
    for kind, (fields, _required) in CLIENT_MESSAGES.items():
        assert f"### `{kind}`" in DOC, kind
        for name in fields:
            assert f"`{name}`" in DOC, (kind, name)


@pytest.mark.parametrize("text, words", [
    ("x", "not JSON"), ("[]", "JSON object"), ('{"type": "fly"}', "unknown message type"),
    ('{"type": "play", "game": "ABCDEF"}', "missing field 'move'"),
    ('{"type": "play", "game": "abc", "move": "a1-a2"}', "game 'abc'"),
    ('{"type": "play", "game": "ABCDEF", "move": "a1-a2", "ply": -1}', "ply must be an integer"),
    ('{"type": "ping", "extra": 1}', "unknown field"),
    ('{"type": "create", "variant": "x", "clock": {"initial": 1}}', "initial must be a number"),
    ('{"type": "setup", "game": "ABCDEF", "pieces": {"z999": "Mine"}}', "not of the expected form"),
    ("[" * 30000 + "]" * 30000, "not JSON"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "over the limit"),
])
def test_bad_messages_raise_protocol_errors_naming_the_problem(text, words):
    with pytest.raises(ProtocolError) as err:
        parse_client_message(text)
    assert words in str(err.value)
    assert isinstance(err.value, GibsonError) and len(str(err.value)) < 200


def test_a_refused_message_keeps_its_id_for_the_answer():
    with pytest.raises(ProtocolError) as err:
        parse_client_message('{"type": "play", "id": 7}')
    assert err.value.msg_id == 7


def _played(name: str, plies: int, seed: int = 0) -> GameState:
    v = load_variant(name)
    state = GameState.from_setups(v, {p: random_setup(v, p, seed + i) for i, p in enumerate(v.players)})
    rng = random.Random(seed)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("name", variant_names())
def test_observations_round_trip_through_json_in_parts(name):
    state = _played(name, 60)
    for player in state.variant.players:
        moves, events = [], []
        half = observe(state, player)
        first = json.loads(encode(observation_to_wire(half)))
        assert observation_from_wire(first, moves, events) == half
        for _ in range(5):
            if state.outcome() is None:
                state.play(state.legal_moves()[0])
        later = observe(state, player)
        part = json.loads(encode(observation_to_wire(later, since=half.ply)))
        assert len(part["history"]) == later.ply - half.ply
        assert observation_from_wire(part, moves, events) == later
        state = _played(name, 60)


@pytest.mark.parametrize("breakage", [{"pieces": [["x"]]}, {"legal": [5]}, {"since": -1}, {"since": True},
                                      {"history": [["a1-a2", [{"kind": "nonsense"}]]]}, {"result": 7}])
def test_a_malformed_view_leaves_the_clients_history_as_it_was(breakage):
    """A view that cannot be read is refused whole: the history the client holds does not change."""
    state = _played("lattaque", 30)
    moves, events = [], []
    first = json.loads(encode(observation_to_wire(observe(state, "blue"))))
    observation_from_wire(first, moves, events)
    kept = (list(moves), list(events))
    broken = dict(json.loads(encode(observation_to_wire(observe(state, "blue"), since=10))), **breakage)
    with pytest.raises(ProtocolError):
        observation_from_wire(broken, moves, events)
    assert (moves, events) == kept


@pytest.mark.parametrize("name", variant_names())
def test_a_spectator_view_holds_only_what_both_players_know(name):
    state = _played(name, 120, seed=3)
    views = [observe(state, p) for p in state.variant.players]
    spectator = spectator_observation(*views)
    assert all(p.type is None or p.revealed for p in spectator.pieces)
    assert all(e.type is None for evs in spectator.events for e in evs
               if type(e).__name__ == "Removed" and not e.public)
    assert spectator.legal_moves == () and spectator.player == ""


def _row(clock=None) -> GameRow:
    return GameRow(game_id="ABCDEF", variant="tri-tactics", options={}, clock=clock, seed=1, created=0.0)


def _started(clock=None) -> Game:
    v = load_variant("tri-tactics")
    game = Game(_row(clock), {"blue": "h1", "red": "h2"})
    for seq, player in enumerate(v.players, start=1):
        game.apply(LogEntry(seq, "setup", {"player": player, "pieces": random_setup(v, player, seq)}, 100.0))
    return game


def test_a_move_out_of_turn_or_illegal_is_refused_and_changes_nothing():
    game = _started()
    idle = [p for p in game.players if p != game.to_move][0]
    with pytest.raises(GameError, match=f"not your turn: it is {game.to_move}'s turn"):
        game.decide_move(idle, "a1-a2", 0)
    with pytest.raises(GameError, match="illegal move a1-a2"):
        game.decide_move(game.to_move, "a1-a2", 0)
    assert game.seq == 2 and game.state.ply == 0


def test_running_out_of_time_loses_and_clocks_replay_from_the_log():
    game = _started({"initial": 60, "increment": 5})
    player = game.to_move
    move = str(game.state.legal_moves()[0])
    kind, data = game.decide_move(player, move, 110.0)  # ten seconds used, five added
    assert kind == "move" and data["clock"][player] == pytest.approx(55.0)
    game.apply(LogEntry(3, kind, data, 110.0))
    other = game.to_move
    kind, data = game.decide_move(other, str(game.state.legal_moves()[0]), 110.0 + 61)
    assert kind == "end" and data["winner"] == player and "ran out of time" in data["reason"]
    game.apply(LogEntry(4, kind, data, 171.0))
    assert game.result == (player, f"{other} ran out of time")
    with pytest.raises(GameError, match="over"):
        game.decide_simple(player, "resign")
