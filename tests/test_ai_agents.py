"""Agents: complete games of every variant, set-ups, budgets as iteration counts, and no peeking."""

import random

import pytest

from gibson_core.ai import AGENTS, SearchAgent, make_agent
from gibson_core.ai.heuristic import planned_setup
from gibson_core.ai.search import PRIOR_VISITS
from gibson_core.match import play_match
from gibson_core.observe import observe
from gibson_core.plugins import load_variant, variant_names
from gibson_core.setup import random_setup, validate_setup
from gibson_core.state import GameState


def quick(name: str):
    """An agent with a small, time-independent budget."""
    if name == "search":
        return make_agent("search", seconds=None, iterations=6, depth=4)
    return make_agent(name)


@pytest.mark.parametrize("name", variant_names())
@pytest.mark.parametrize("pair", [("heuristic", "random"), ("random", "heuristic"), ("search", "heuristic")])
def test_agents_play_whole_games(name, pair):
    """Every move an agent makes is legal (``play_match`` validates each one) and games run to the cap."""
    variant = load_variant(name)
    plies = 40 if "search" in pair else 120
    record, state = play_match(variant, [quick(a) for a in pair], seed=7, max_plies=plies)
    assert state.outcome() is not None or state.ply == plies
    assert len(record.moves) == state.ply


@pytest.mark.parametrize("name", variant_names())
def test_planned_setups_are_legal(name):
    variant = load_variant(name)
    for seed in range(3):
        for player in variant.players:
            validate_setup(variant, player, planned_setup(variant, player, random.Random(seed)))


def test_registry_names_and_levels():
    assert {"random", "heuristic", "search", "search-easy", "search-medium", "search-hard"} <= set(AGENTS)
    easy, hard = make_agent("search-easy"), make_agent("search", level="hard")
    assert isinstance(easy, SearchAgent) and easy.level == "easy"
    assert easy.seconds < hard.seconds and easy.iterations < hard.iterations
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("grandmaster")


def test_search_respects_its_iteration_budget():
    """The budget is counted in iterations here, so the test does not depend on the machine's speed."""
    variant = load_variant("tri-tactics")
    state = GameState.from_setups(variant, {p: random_setup(variant, p, 3) for p in variant.players}, "blue")
    agent = make_agent("search", seconds=None, iterations=17)
    rng = random.Random(0)
    for _ in range(3):
        move = agent.choose_move(observe(state, state.player), rng)
        assert agent.last_iterations == 17
        state.play(move)


def test_the_search_overrides_the_heuristics_first_choice_only_by_its_margin():
    """The heuristic's first choice is played unless the move the search visited most has a mean better by
    ``margin``: without iterations the search plays the heuristic's choice, with them its own, and with a
    margin no mean can reach the heuristic's again."""
    from gibson_core.bench import new_game

    variant = load_variant("lattaque")
    overridden = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(variant, rng)
        for _ in range(55):
            state.play(rng.choice(state.legal_moves()))
        observation = observe(state, state.player)

        def choice(**shape):
            agent = make_agent("search", seconds=None, pool=8, **shape)
            return str(agent.choose_move(observation, random.Random(7)))  # noqa: B023 - called at once

        first = choice(iterations=0)
        overridden += choice(iterations=300) != first
        assert choice(iterations=300, margin=1e9) == first
    assert overridden >= 2
    with pytest.raises(ValueError, match="margin"):
        make_agent("search", margin=-1.0)


@pytest.mark.parametrize(("pool", "iterations", "sampled"), [(4, 30, 4), (32, 10, 10), (1, 5, 1)])
def test_search_samples_a_pool_of_determinizations(monkeypatch, pool, iterations, sampled):
    """Each move samples ``pool`` hidden worlds (fewer when the iterations run out first) and cycles
    through them; the harder levels sample more, so more time also means more of the beliefs seen, and hard
    plays longer playouts from more root candidates."""
    from gibson_core.ai.beliefs import Beliefs

    variant = load_variant("lattaque")
    state = GameState.from_setups(variant, {p: random_setup(variant, p, 5) for p in variant.players}, "blue")
    calls = []
    real = Beliefs.sample
    monkeypatch.setattr(Beliefs, "sample", lambda self, rng: calls.append(1) or real(self, rng))
    agent = make_agent("search", seconds=None, iterations=iterations, pool=pool)
    agent.choose_move(observe(state, state.player), random.Random(0))
    assert agent.last_iterations == iterations and len(calls) == sampled
    assert make_agent("search-easy").pool < make_agent("search-medium").pool < make_agent("search-hard").pool
    assert make_agent("search-medium", reach=3).reach == 3
    assert make_agent("search-hard", depth=3, width=5).depth == 3 and make_agent("search-hard", width=5).width == 5
    with pytest.raises(ValueError, match="pool must be at least 1"):
        make_agent("search", pool=0)
    with pytest.raises(ValueError, match="reach must be at least 1"):
        make_agent("search", reach=0)
    with pytest.raises(ValueError, match="trees must be at least 1"):
        make_agent("search", trees=0)
    with pytest.raises(ValueError, match="at most the pool"):
        make_agent("search", trees=5, pool=4)


@pytest.mark.parametrize("compiled", [True, False])
def test_the_search_splits_its_budget_among_its_trees(monkeypatch, compiled):
    """``trees`` trees share the iterations and the worlds: each grows on its own worlds and the root's
    visits are summed over them, so every iteration counts once; the same seed gives the same analysis."""
    from gibson_core.ai.beliefs import Beliefs

    variant = load_variant("lattaque")
    state = GameState.from_setups(variant, {p: random_setup(variant, p, 5) for p in variant.players}, "blue")
    obs = observe(state, state.player)
    calls = []
    real = Beliefs.sample
    monkeypatch.setattr(Beliefs, "sample", lambda self, rng: calls.append(1) or real(self, rng))
    agent = make_agent("search", seconds=None, iterations=120, pool=8, trees=3, width=4, compiled=compiled)
    agent.choose_move(obs, random.Random(0))
    assert agent.last_iterations == 120 and len(calls) == 3 * (8 // 3) and len(agent._tree[1]) == 3
    first = agent.analyse(obs)
    assert first == make_agent("search", seconds=None, iterations=120, pool=8, trees=3, width=4,
                                compiled=compiled).analyse(obs)
    # each tree's 4 candidates start at PRIOR_VISITS visits, then every iteration adds one
    assert sum(m.visits for m in first.moves) == 120 + PRIOR_VISITS * 4 * 3
    assert make_agent("search-hard").trees > make_agent("search-medium").trees == 1


def permuted_twin(state: GameState, player: str, rng: random.Random) -> GameState:
    """The same start position with ``player``'s pieces' types shuffled among themselves."""
    position = state.position()
    squares = [sq for sq, text in position.items() if text.split()[0] == player]
    types = [position[sq].split()[1] for sq in squares]
    rng.shuffle(types)
    twin = dict(position, **{sq: f"{player} {t}" for sq, t in zip(squares, types, strict=True)})
    return GameState.from_position(state.variant, twin, state.player)


@pytest.mark.parametrize("agent_name", ["heuristic", "search"])
@pytest.mark.parametrize("name", variant_names())
def test_choice_does_not_depend_on_hidden_enemy_types(agent_name, name):
    """Two positions that differ only in the opponent's hidden types give the same Observation, and the
    agent (same random seed) chooses the same move in both."""
    variant = load_variant(name)
    rng = random.Random(11)
    setups = {p: random_setup(variant, p, rng) for p in variant.players}
    state = GameState.from_position(variant, {sq: f"{p} {t}" for p, s in setups.items() for sq, t in s.items()},
                                    variant.players[0])
    me, them = variant.players
    twin = permuted_twin(state, them, rng)
    assert twin.position() != state.position()
    obs, twin_obs = observe(state, me), observe(twin, me)
    assert obs == twin_obs
    agent = quick(agent_name)
    assert agent.choose_move(obs, random.Random(5)) == agent.choose_move(twin_obs, random.Random(5))


@pytest.mark.parametrize("name", variant_names())
def test_no_peeking_after_quiet_play(name):
    """The same holds later in a game: both twins play the same quiet moves; until something is revealed
    (a gun's zone, a blast), the observing player's Observations are equal, and so are the agent's choices."""
    variant = load_variant(name)
    rng = random.Random(3)
    setups = {p: random_setup(variant, p, rng) for p in variant.players}
    me, them = variant.players
    state = GameState.from_position(variant, {sq: f"{p} {t}" for p, s in setups.items() for sq, t in s.items()}, me)
    twin = permuted_twin(state, them, rng)
    agent = quick("heuristic")
    for _ply in range(12):
        if state.history and any(type(e).__name__ == "Revealed" for g in (state, twin) for e in g.history[-1][1]):
            break  # something was revealed on the board: the twins may now rightly look different
        obs = observe(state, me)
        assert obs == observe(twin, me)
        if state.player == me:
            move = agent.choose_move(obs, random.Random(_ply))
            assert move == agent.choose_move(observe(twin, me), random.Random(_ply))
            if move.is_attack:
                break
        else:
            common = set(twin.legal_moves())
            quiet = sorted((m for m in state.legal_moves() if m in common and not m.is_attack and not m.is_action),
                           key=str)
            if not quiet:
                break
            move = rng.choice(quiet)
        state.play(move)
        twin.play(move)


@pytest.mark.parametrize("name", variant_names())
def test_playouts_do_not_peek_at_the_other_sides_hidden_pieces(name):
    """In a playout each side attacks what it has not seen by what it may be, not by what it is: positions
    that differ only in the hidden types of the side not to move get the same choices from the same draws
    (the C kernel makes the same choices: tests/test_fastpath.py)."""
    from gibson_core.ai.search import Playout

    variant = load_variant(name)
    rng = random.Random(5)
    setups = {p: random_setup(variant, p, rng) for p in variant.players}
    state = GameState.from_setups(variant, setups, variant.players[0])
    for _ in range(30):  # bring the armies into contact with some random play
        if state.result is not None:
            break
        state.play(rng.choice(state.legal_moves()))
    twin = state.copy()
    twin.ptype = list(state.ptype)  # a copy shares the fixed tables; the twin gets its own types
    hidden = [pid for pid in twin.pids[1 - twin.to_move] if twin.square[pid] >= 0 and not twin.revealed[pid]]
    types = [twin.ptype[pid] for pid in hidden]
    random.Random(1).shuffle(types)
    for pid, t in zip(hidden, types, strict=True):
        twin.ptype[pid] = t
    assert any(twin.ptype[pid] != state.ptype[pid] for pid in hidden)
    choices = [[str(Playout(variant, random.Random(seed)).choose(s)) for seed in range(40)] for s in (state, twin)]
    assert choices[0] == choices[1]


def test_planned_setups_shield_an_immobile_vital_piece():
    """L'Attaque's Flag (its loss loses the game, it never moves) gets the Mines (only the Sappers remove
    them) on its neighbouring squares in the set-up zone; the set-ups still differ from seed to seed."""
    variant = load_variant("lattaque")
    grid, zone = variant.grid, set(variant.setup_squares["red"])
    flags = set()
    for seed in range(6):
        setup = planned_setup(variant, "red", random.Random(seed))
        flag = grid.index[next(sq for sq, t in setup.items() if t == "Flag")]
        flags.add(flag)
        beside = [grid.names[n] for n in grid.orth[flag] if n in zone]
        assert beside and all(setup[sq] == "Mine" for sq in beside), (seed, setup)
    assert len(flags) > 1


def test_a_first_analysis_spends_its_budget_searching_not_counting_set_ups(monkeypatch):
    """The enemy's set-up statistics are counted once per process and variant; an analysis of a loaded
    position by a fresh agent (no set-up chosen first) counts them before its budget starts, so it still
    searches. Counted inside the budget (about 0.2 s for Aviation), the first analysis ran no iteration."""
    import time

    from gibson_core.ai import search
    from gibson_core.bench import midgame_positions

    counted = search.setup_ratios

    def slow(*args):  # a one-off count longer than the whole budget
        time.sleep(0.3)
        return counted(*args)

    monkeypatch.setattr(search, "setup_ratios", slow)
    state = midgame_positions(load_variant("lattaque"), random.Random(4), 1, 60)[0]
    agent = make_agent("search", seconds=0.1)
    analysis = agent.analyse(observe(state, state.player))
    assert analysis.iterations > 0 and analysis.moves[0].visits > 0
