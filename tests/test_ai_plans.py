"""The agents' plans: hidden dangers, Flags, the last winning pieces, analysis for people, tree reuse —
each also checked for peeking (twin positions that differ only in the opponent's hidden types)."""

import random

import pytest
from test_ai_agents import permuted_twin

from gibson_core.ai import make_agent
from gibson_core.ai.analysis import Analysis, ScoredMove
from gibson_core.ai.beliefs import infer_beliefs
from gibson_core.ai.heuristic import MoveScorer
from gibson_core.ai.values import evaluate, winner_bonus
from gibson_core.observe import observe
from gibson_core.plugins import load_variant
from gibson_core.setup import random_setup
from gibson_core.state import GameState


def quick_search():
    return make_agent("search", seconds=None, iterations=12, depth=3)


def twins(name: str, seed: int = 11):
    variant = load_variant(name)
    rng = random.Random(seed)
    setups = {p: random_setup(variant, p, rng) for p in variant.players}
    state = GameState.from_position(variant, {sq: f"{p} {t}" for p, s in setups.items() for sq, t in s.items()},
                                    variant.players[0])
    return state, permuted_twin(state, variant.players[1], rng)


@pytest.mark.parametrize("name", ["aviation", "dover-patrol", "lattaque"])  # effects, Flags, neither
def test_analysis_is_the_same_for_twins(name):
    """analyse() reads the Observation only: the same moves, scores and beliefs in both twins (choose_move
    is checked on every variant in test_ai_agents)."""
    state, twin = twins(name)
    me = state.variant.players[0]
    obs, twin_obs = observe(state, me), observe(twin, me)
    for make in (lambda: make_agent("heuristic"), quick_search, lambda: make_agent("random")):
        first = make().analyse(obs, None)
        assert isinstance(first, Analysis) and first == make().analyse(twin_obs, None)
        assert first.moves and all(isinstance(m, ScoredMove) and m.move in obs.legal_moves for m in first.moves)
        hidden = {p.handle for p in obs.pieces if p.type is None}
        assert set(first.beliefs) == hidden


def dover_raid(permute: bool):
    """A blue Destroyer beside red's Base (f10, inside red's harbour), red's hidden pieces elsewhere."""
    variant = load_variant("dover-patrol")
    position = {"f11": "blue Dst", "a1": "blue BS", "h12": "red BS", "a12": "red Mine", "h5": "red MTB"}
    if permute:
        position.update({"h12": "red MTB", "h5": "red BS"})
    return GameState.from_position(variant, position, "blue")


def test_a_flag_is_fetched_and_carried_home_without_peeking():
    """Each twin is played by its own agents (the search keeps its tree between moves): the choices agree."""
    chosen = []
    for game in (dover_raid(False), dover_raid(True)):
        agents = (make_agent("heuristic"), make_agent("search", seconds=None, iterations=60))
        moves = [str(a.choose_move(observe(game, "blue"), random.Random(1))) for a in agents]
        game.play("f11-f10")
        game.play("h12-g12")
        obs = observe(game, "blue")
        assert dict(obs.tokens)["flag:red"][1]  # carried, named by handle
        moves += [str(a.choose_move(obs, random.Random(2))) for a in agents]
        chosen.append((obs, moves))
    assert chosen[0] == chosen[1]
    # both pick up red's Flag, then take it off the Base on the way home
    assert chosen[0][1] == ["f11-f10", "f11-f10", "f10-g10", "f10-g10"]


def test_hidden_guns_are_feared_and_bombers_sent_at_them():
    """Aviation: a revealed enemy gun destroys a Troop Carrier ending next to it and may fire at it within
    its range; a Bomber beside it destroys it instead. Hidden pieces count with their probability."""
    variant = load_variant("aviation")
    state = GameState.from_position(variant, {"d8": "red AA3", "a12": "red RP", "h12": "red OB", "c6": "blue TC",
                                              "e7": "blue Bmr", "a1": "blue TC"}, "blue")
    state.revealed[state.board[variant.grid.square("d8")]] = True
    scorer = MoveScorer(observe(state, "blue"), variant, random.Random(0))
    tc, bomber = variant.type_index["TC"], variant.type_index["Bmr"]
    destroy, _backfire, _reveal, fire = scorer.hazard.of(tc)
    sq = variant.grid.square
    assert destroy[sq("d7")] == 1.0 and destroy[sq("c6")] == 0.0
    assert fire[sq("d5")] == 1.0 and fire[sq("a1")] == 0.0  # 3 orthogonal steps from d8, and far away
    assert scorer.hazard.of(bomber)[1][sq("d7")] == pytest.approx(scorer.values[variant.type_index["AA3"]])
    score = {str(m): scorer.score(m) for m in state.legal_moves()}
    assert score["c6-d7"] < score["c6-b7"] - 5  # next to the gun: shot down
    assert score["e7-d7"] > score["e7-f7"] + 1  # a Bomber next to the gun destroys it
    assert scorer.worth[tc] > scorer.values[tc]  # the last winning pieces are worth more than material


def test_a_piece_seen_outside_its_confinement_is_no_gun():
    variant = load_variant("aviation")
    state = GameState.from_position(variant, {"d5": "red RP", "d9": "red AA3", "a1": "blue TC"}, "red")
    allowed = infer_beliefs(observe(state, "blue"), variant).allowed
    outside, inside = (allowed[state.board[variant.grid.square(s)]] for s in ("d5", "d9"))
    assert not outside & {"AA3", "AA4", "AA5", "SL"} and "AA3" in inside


def test_the_last_winning_pieces_count_in_the_evaluation():
    variant = load_variant("aviation")
    one = GameState.from_position(variant, {"a1": "blue TC", "h12": "red RP"}, "blue")
    two = GameState.from_position(variant, {"a1": "blue TC", "c1": "blue TC", "h12": "red RP"}, "blue")
    assert winner_bonus(1) > winner_bonus(2) - winner_bonus(1) > 0
    assert evaluate(two, 0) - evaluate(one, 0) > evaluate(one, 0) - evaluate(one, 0) + 2.0


def test_the_search_reuses_its_tree_after_the_reply():
    state, _twin = twins("lattaque", seed=4)
    agent = make_agent("search", seconds=None, iterations=40, depth=2)
    me = state.player
    state.play(agent.choose_move(observe(state, me), random.Random(0)))
    root = agent._tree[1]
    reply = max(root.children[agent._tree[2]].children.items(), key=lambda kv: kv[1].visits)[0]
    state.play(reply)
    reused = agent._reused_root(observe(state, me))
    assert reused is root.children[agent._tree[2]].children[reply] and reused.visits > 0
