"""Dover Patrol: Flags as tokens (push/pop, observations, records), hand-over notation, the shorter games,
walls in blasts and hand-overs, and bad YAML for the new keys."""

import random
from pathlib import Path

import pytest
from conftest import line_of, refused

from gibson_core import GameState, IllegalMoveError, Move, load_variant
from gibson_core.bench import new_game, random_playout
from gibson_core.check import build_case_state
from gibson_core.moves import HANDOVER
from gibson_core.observe import observe
from gibson_core.record import GameRecord, parse_record
from gibson_core.setup import random_setup

DOVER = Path(load_variant("dover-patrol").source)
SHORTER = ["first-capture", "flagship-hunt", "pitched-battle", "capturing-the-base"]


@pytest.fixture
def dover():
    return load_variant("dover-patrol")


def _case(position, flags=None, to_move="red", options=None):
    case = {"position": position, "to_move": to_move, "options": options or {}}
    if flags:
        case["flags"] = flags
    return build_case_state("dover-patrol", case)


def test_board_walls_and_pieces(dover):
    grid = dover.grid
    assert dover.piece_count == 40 and (grid.files, grid.ranks) == (8, 12)
    assert grid.wall_between(grid.square("b3"), grid.square("b4"))
    assert not grid.wall_between(grid.square("a3"), grid.square("a4"))
    assert not grid.wall_between(grid.square("h9"), grid.square("h10"))
    assert len(dover.setup_squares["blue"]) == 40
    assert any(o.get("type") == "walls" for o in dover.data["overlays"])


def test_flags_start_on_the_bases_and_are_in_every_observation(dover):
    setups = {p: random_setup(dover, p, 1) for p in dover.players}
    state = GameState.from_setups(dover, setups, "blue")
    assert state.tokens["flag:blue"] == ("c3", 0, False) and state.tokens["flag:red"] == ("f10", 0, False)
    for player in dover.players:
        assert dict(observe(state, player).tokens) == {"flag:blue": ("c3", 0, False), "flag:red": ("f10", 0, False)}


def test_a_carried_flag_follows_its_carrier_in_the_observation():
    state = _case({"d6": "red LC", "h1": "blue PV", "a12": "red PV"}, {"blue": "d6"})
    carrier = state.board[state.grid.square("d6")]
    state.play("d6-d7")
    assert dict(observe(state, "blue").tokens)["flag:blue"] == ("d7", carrier, False)


def test_push_pop_restores_flags_after_pick_up_hand_over_and_blast():
    state = _case({"d6": "red LC", "e6": "red PV", "c5": "red PV", "d4": "blue MS", "e8": "blue Mine",
                   "h1": "blue PV", "a12": "red PV"}, {"blue": "d5"})
    before = (dict(state.tokens), state.board[:], state.revealed[:])
    for text in ["d6-d5", "e6-e7", "d6-c6"]:
        state.push(Move.parse(text))
        state.pop()
        assert (dict(state.tokens), state.board, state.revealed) == before
    state.push(Move.parse("d6-d5"))
    assert state.tokens["flag:blue"][1] == state.board[state.grid.square("d5")]
    state.push(Move.parse("h1-h2"))
    assert Move.parse("d5>c5") in state.legal_moves()
    state.push(Move.parse("d5>c5"))
    assert state.tokens["flag:blue"][0] == "c5"
    state.push(Move.parse("h2-h3"))
    state.push(Move.parse("c5-c6"))
    assert state.tokens["flag:blue"][0] == "c6"
    while state.history:
        state.pop()
    assert (dict(state.tokens), state.board, state.revealed) == before


def test_a_blown_up_carrier_drops_a_mined_flag_only_a_sweeper_may_take():
    state = _case({"d5": "red LC", "d7": "blue Mine", "e6": "blue LC", "c6": "blue MS", "h1": "blue PV",
                   "a12": "red PV"}, {"blue": "d5"})
    state.play("d5-d6")
    assert state.tokens["flag:blue"] == ("d6", 0, True)
    dests = {m.dest for m in state.legal_moves() if m.kind == "move"}
    assert "d6" in dests
    with pytest.raises(IllegalMoveError, match="only a Mine Sweeper"):
        state.play("e6-d6")
    state.play("c6-d6")
    assert state.tokens["flag:blue"] == ("d6", state.board[state.grid.square("d6")], False)


def test_hand_over_notation_round_trips_and_is_explained():
    state = _case({"d6": "red LC", "d7": "red MS", "h1": "blue PV", "a12": "red PV"}, {"blue": "d6"})
    handovers = [m for m in state.legal_moves() if m.kind == HANDOVER]
    assert [str(m) for m in handovers] == ["d6>d7"]
    assert Move.parse("d6>d7") == handovers[0] and eval(repr(handovers[0]), {"Move": Move}) == handovers[0]
    with pytest.raises(IllegalMoveError, match="carries no Flag"):
        state.play("d7>d6")


def test_hand_over_does_not_cross_a_wall():
    state = _case({"d3": "red LC", "c3": "red PV", "d4": "red PV", "h1": "blue PV", "a12": "red PV"}, {"blue": "d3"})
    assert {str(m) for m in state.legal_moves() if m.kind == HANDOVER} == {"d3>d4"}


def test_the_shorter_games_change_data_not_code():
    hunt = load_variant("dover-patrol", {"flagship-hunt": True})
    assert not hunt.grid.walls and "flags" not in hunt.rules and hunt.lose_when_removed
    battle = load_variant("dover-patrol", {"pitched-battle": True})
    assert not battle.grid.walls and battle.lose_when_only_left
    base = load_variant("dover-patrol", {"capturing-the-base": True})
    assert base.piece_count == 24 and base.compulsory_attack and base.grid.walls
    assert base.type_of("FS").count == 0
    assert {int(base.grid.names[sq][1:]) for sq in base.setup_squares["red"]} == {10, 11, 12}
    first = load_variant("dover-patrol", {"first-capture": True})
    assert "flags" in first.rules and first.win_arrive[0]


@pytest.mark.parametrize("option", [None, *SHORTER])
def test_random_games_end_for_every_game(option):
    options = {"ply-limit": 600, **({option: True} if option else {})}
    variant = load_variant("dover-patrol", options)
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(variant, rng)
        random_playout(state, rng)
        assert state.outcome() is not None and state.legal_moves() == []


def test_a_record_keeps_the_flags_it_started_with(dover):
    rng = random.Random(3)
    setups = {p: random_setup(dover, p, rng) for p in dover.players}
    state = GameState.from_setups(dover, setups, "red")
    for _ in range(80):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    record = parse_record(GameRecord.from_state(state, setups, first="red").to_json())
    replayed = record.replay()
    assert replayed.tokens == state.tokens and replayed.position() == state.position()


def test_a_bad_flags_key_names_key_path_and_line(tmp_path):
    error, text = refused(tmp_path, DOVER, "  cannot_carry: [Mine]", "  cannot_carry: [Mine]\n  carry_limit: 2")
    problem = error.problems[0]
    assert problem.path == "flags.carry_limit" and "unknown flags key" in problem.message
    assert problem.line == line_of(text, "carry_limit")


def test_a_flags_base_zone_must_exist(tmp_path):
    error, _text = refused(tmp_path, DOVER, "  base: base\n", "  base: dock\n")
    assert "flags.base" in str(error)


def test_counts_must_name_pieces(tmp_path):
    error, _text = refused(tmp_path, DOVER, "counts: {FS: 0,", "counts: {Zeppelin: 0, FS: 0,", {"capturing-the-base": True})
    assert "Zeppelin" in str(error)


def test_the_hook_relay_answers_like_pluggy():
    state = _case({"d6": "red LC", "d7": "red MS", "h1": "blue PV", "a12": "red PV"}, {"blue": "d6"})
    pluggy_hooks = state.variant.plugin_manager.hook
    me = state.to_move
    assert state._hooks is not pluggy_hooks
    for name, kwargs in [("gibson_extra_moves", {"state": state, "player": me}),
                         ("gibson_game_result", {"state": state}),
                         ("gibson_no_legal_moves", {"state": state, "player": me}),
                         ("gibson_vector_expect", {"state": state, "key": "flags"}),
                         ("gibson_vector_expect", {"state": state, "key": "nothing"})]:
        assert getattr(state._hooks, name)(**kwargs) == getattr(pluggy_hooks, name)(**kwargs)
