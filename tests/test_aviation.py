"""Aviation: set-up squares, actions and their notation, automatic effects, hidden information, bad YAML."""

import random
from pathlib import Path

import pytest
from conftest import line_of, refused

from gibson_core import GameState, IllegalMoveError, Move, load_variant
from gibson_core.bench import new_game, random_playout
from gibson_core.moves import FIRE, ILLUMINATE
from gibson_core.observe import observe

AVIATION = Path(load_variant("aviation").source)


@pytest.fixture
def aviation():
    return load_variant("aviation")


def _state(variant, position, to_move="blue"):
    return GameState.from_position(variant, position, to_move)


def test_board_pieces_and_setup_squares(aviation):
    assert (aviation.grid.files, aviation.grid.ranks) == (8, 12)
    assert aviation.piece_count == 42
    names = {aviation.grid.names[sq] for sq in aviation.setup_squares["blue"]}
    assert len(names) == 46 and not names & {"d1", "e1"} and all(int(n[1:]) <= 6 for n in names)
    red = {aviation.grid.names[sq] for sq in aviation.setup_squares["red"]}
    assert len(red) == 46 and not red & {"d12", "e12"} and all(int(n[1:]) >= 7 for n in red)


def test_the_rendering_data_names_the_aerodromes(aviation):
    assert aviation.kind_of(aviation.grid.square("d1")).name == "Aerodrome"
    assert any(o.get("zone") == "aerodrome" for o in aviation.data["overlays"])


def test_actions_round_trip_their_notation(aviation):
    state = _state(aviation, {"d5": "blue SL", "c5": "blue AA5", "d7": "red RP", "h12": "red RP"})
    state.play("d5@")
    state.play("h12-h11")
    actions = [m for m in state.legal_moves() if m.is_action]
    assert {str(m) for m in actions} == {"c5*d7", "d5@"}
    for move in actions + [Move.parse("d5@")]:
        assert Move.parse(str(move)) == move
        assert eval(repr(move), {"Move": Move}) == move
    assert Move.parse("d5@").kind == ILLUMINATE and Move.parse("c5*d7").kind == FIRE


def test_illuminate_reveals_to_the_opponent_only_what_is_in_radius(aviation):
    state = _state(aviation, {"d5": "blue SL", "f7": "red RP", "g8": "red Bmr", "a1": "blue RP", "h12": "red RP"})
    before = observe(state, "blue")
    assert before.piece_at("f7").type is None
    state.play("d5@")
    seen = observe(state, "blue")
    assert seen.piece_at("f7").type == "RP"
    assert seen.piece_at("g8").type is None


def test_fire_refusals_explain_themselves(aviation):
    state = _state(aviation, {"c3": "blue AA3", "d7": "red RP", "a1": "blue RP", "h12": "red RP"})
    with pytest.raises(IllegalMoveError, match="not been revealed"):
        state.play("c3*d7")
    state.revealed[state.board[state.grid.square("d7")]] = True
    with pytest.raises(IllegalMoveError, match="beyond the range of 3"):
        state.play("c3*d7")
    with pytest.raises(IllegalMoveError, match="cannot illuminate"):
        state.play("c3@")


def test_push_pop_restores_after_effects_and_actions(aviation):
    state = _state(aviation, {"d5": "blue SL", "c5": "blue AA5", "e5": "blue AA3", "d7": "red RP",
                              "f6": "red Bmr", "f7": "red FSS", "h12": "red RP"})
    snapshot = (state.board[:], state.square[:], state.revealed[:], dict(state.tokens))
    for text in ["d5@", "c5-c6", "e5-e6"]:
        state.push(Move.parse(text))
        state.pop()
        assert (state.board, state.square, state.revealed, state.tokens) == (
            snapshot[0], snapshot[1], snapshot[2], snapshot[3])
    state.push(Move.parse("d5@"))
    state.push(Move.parse("f6-f5"))  # the Bomber destroys the gun on e5
    assert state.piece_at("e5") is None
    state.pop()
    state.pop()
    assert state.board == snapshot[0] and state.revealed == snapshot[2]


def test_random_games_end_and_the_ply_limit_draws():
    variant = load_variant("aviation", {"ply-limit": 300})
    for seed in range(5):
        rng = random.Random(seed)
        state = new_game(variant, rng)
        random_playout(state, rng)
        assert state.outcome() is not None


def test_an_unknown_effect_kind_names_key_path_and_line(tmp_path):
    error, text = refused(tmp_path, AVIATION, "{kind: reveal, reach: king", "{kind: glow, reach: king")
    problem = error.problems[0]
    assert problem.path.endswith("effects[0].kind") and "glow" in problem.message
    assert problem.line == line_of(text, "kind: glow")
    assert "broken.yaml" in str(error)


def test_an_action_without_its_range_is_refused(tmp_path):
    error, _text = refused(tmp_path, AVIATION, "{kind: fire, range: 4,", "{kind: fire,")
    assert "missing key 'range'" in str(error)


def test_an_unknown_selector_in_an_effect_is_refused(tmp_path):
    error, _text = refused(tmp_path, AVIATION, "backfire: [Bomber]", "backfire: [Zeppelin]")
    assert "Zeppelin" in str(error)
