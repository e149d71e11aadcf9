"""The reinforcement-learning environments (integrations/gibson_rl, the ``rl`` extra): API conformance of the
PettingZoo, Gymnasium and OpenSpiel wrappers for every variant and option, action numbering, hidden
information in the tensors, and seeded reproducibility."""

import random
import warnings

import gibson_rl.pettingzoo  # noqa: F401  (first: importing pettingzoo would change SDL's audio driver)
import numpy as np
import pytest
from gibson_rl import ActionError, ActionSpace, Encoder, Episode, action_to_move, move_to_action

from gibson_core import Move, fastpath, load_variant, variant_names
from gibson_core.bench import new_game
from gibson_core.observe import observe
from gibson_core.setup import random_setup


def _configurations():
    """Every registered variant, and each with each of its boolean options on."""
    for name in variant_names():
        yield pytest.param(name, {}, id=name)
        for option, spec in load_variant(name).option_specs.items():
            if spec.get("default") is False and not spec.get("extension"):
                yield pytest.param(name, {option: True}, id=f"{name}+{option}")


CONFIGS = list(_configurations())
SHORT = {"ply-limit": 24}  # short games keep the conformance checks fast


def _short(name, options):
    return {**options, **SHORT} if "ply-limit" in load_variant(name).option_specs else options


# -- the action space ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", variant_names())
def test_every_legal_move_round_trips_through_its_number(name):
    variant = load_variant(name)
    space = ActionSpace(variant, placements=True)
    assert len(set(space.moves)) == space.n_moves
    rng = random.Random(7)
    for _game in range(2):
        state = new_game(variant, rng)
        for _ply in range(250):
            moves = state.legal_moves()
            if not moves:
                break
            numbers = space.indices(moves)
            assert [space.move(i) for i in numbers] == moves
            assert [space.index(Move.parse(str(m))) for m in moves] == numbers
            assert len(set(numbers)) == len(moves)
            state.push(rng.choice(moves))


def test_attacks_by_moving_onto_a_piece_join_the_action_space():
    """The data Skirmish has every attack mode (``e4xe5`` onto, ``e4-e5xe6`` after moving, slider settings):
    every legal move in random games has a number that round-trips, through its text too."""
    from conftest import outside_variants

    with outside_variants():
        variant = load_variant("skirmish")
        space = ActionSpace(variant)
        assert any(m.is_onto for m in space.moves)
        rng = random.Random(2)
        onto = 0
        for _game in range(6):
            state = new_game(variant, rng)
            for _ply in range(150):
                moves = state.legal_moves()
                if not moves:
                    break
                numbers = space.indices(moves)
                assert [space.move(i) for i in numbers] == moves
                assert [space.index(str(m)) for m in moves] == numbers
                onto += sum(m.is_onto for m in moves)
                state.push(rng.choice(moves))
        assert onto


def test_numbering_is_fixed_by_the_variant_file():
    variant = load_variant("lattaque")
    a, b = ActionSpace(variant), ActionSpace(load_variant("lattaque", {"ply-limit": 99}))
    assert a.moves == b.moves and a.digest == b.digest
    assert move_to_action(variant, "a4-a5") == a.index(Move.parse("a4-a5"))
    assert str(action_to_move(variant, move_to_action(variant, "b4=Spy"))) == "b4=Spy"
    assert a.mask([Move.parse("a4-a5")]).sum() == 1


def test_the_documented_numbering_of_lattaque_holds():
    """docs/rl.md gives each shipped variant's action-space digest: the numbering is the same in every process
    and release until the variant's board or pieces change (then update the table)."""
    space = ActionSpace(load_variant("lattaque"))
    assert (space.n_moves, space.digest) == (5290, "a2babe97ade206e6")
    assert str(space.move(0)) == "a1-b1" and space.index("i10-h10xg10") == space.n_moves - 1


@pytest.mark.parametrize("bad", [-1, 10**9, "3", None, 2.5, True])
def test_a_number_outside_the_space_is_refused(bad):
    with pytest.raises(ActionError):
        ActionSpace(load_variant("lattaque")).move(bad)


@pytest.mark.parametrize("bad", ["a1-j9", "z9=Q", "a4@"])
def test_a_move_outside_the_space_is_refused(bad):
    with pytest.raises(ActionError):
        ActionSpace(load_variant("lattaque"), placements=True).index(bad)


# -- observation tensors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", variant_names())
def test_the_running_tensor_equals_the_tensor_of_the_observation(name):
    """The incremental encoder reads nothing an Observation does not hold: move by move, it gives exactly the
    tensor encoded from ``observe(state, player)``."""
    variant = load_variant(name)
    encoder = Encoder(variant)
    rng = random.Random(3)
    state = new_game(variant, rng)
    views = [encoder.view(p) for p in variant.players]
    for ply in range(160):
        state.outcome()
        for view in views:
            if ply % 5 == 0 or view.p == state.to_move:
                got = view.tensor(state)
                assert got.shape == encoder.shape
                assert np.array_equal(got, encoder.encode_observation(observe(state, view.player))), ply
        moves = state.legal_moves()
        if not moves:
            break
        state.push(rng.choice(moves))


def _hidden_swapped(setups: dict, owner: str, rng: random.Random) -> dict:
    squares = list(setups[owner])
    types = [setups[owner][sq] for sq in squares]
    rng.shuffle(types)
    return {**setups, owner: dict(zip(squares, types, strict=True))}


@pytest.mark.parametrize("name", variant_names())
def test_twin_games_differing_only_in_hidden_setup_give_identical_tensors(name):
    """Two episodes whose set-ups differ only in the opponent's hidden types, played with the same quiet moves:
    until something is revealed, the viewer's tensor (belief planes included) and mask are identical."""
    variant = load_variant(name)
    viewer, opponent = variant.players
    for seed in range(2):
        rng = random.Random(seed)
        setups = {p: random_setup(variant, p, rng) for p in variant.players}
        a, b = Episode(name, beliefs=True), Episode(name, beliefs=True)
        a.reset(seed, setups)
        b.reset(seed, _hidden_swapped(setups, opponent, rng))
        for _ in range(40):
            assert np.array_equal(a.tensor(viewer), b.tensor(viewer))
            assert np.array_equal(a.mask(viewer), b.mask(viewer))
            common = sorted({str(m) for m in a.state.legal_moves() if not m.is_attack}
                            & {str(m) for m in b.state.legal_moves() if not m.is_attack})
            if not common or a.over or b.over:
                break
            number = a.actions.index(rng.choice(common))
            a.step(number)
            b.step(number)
            if any(type(e).__name__ == "Revealed" for ep in (a, b) for e in ep.state.history[-1][1]):
                break


def test_a_midgame_twin_with_shuffled_hidden_types_encodes_the_same():
    variant = load_variant("lattaque")
    rng = random.Random(4)
    state = new_game(variant, rng)
    for _ in range(80):
        state.push(rng.choice(state.legal_moves()))
    twin = state.copy()
    hidden = [pid for pid in state.pids[1] if not state.revealed[pid]]
    types = [state.ptype[pid] for pid in hidden]
    rng.shuffle(types)
    twin.ptype = state.ptype[:]
    for pid, t in zip(hidden, types, strict=True):
        twin.ptype[pid] = t
    encoder = Encoder(variant, beliefs=True)
    assert np.array_equal(encoder.view("blue").tensor(state), encoder.view("blue").tensor(twin))


# -- PettingZoo ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "options"), CONFIGS)
@pytest.mark.parametrize("setup", ["random", "phase", "heuristic"])
def test_pettingzoo_api(name, options, setup):
    from gibson_rl.pettingzoo import env
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on naming agents and on Dict observations
        api_test(env(name, setup=setup, **_short(name, options)), num_cycles=30)


def test_pettingzoo_api_with_belief_planes():
    from gibson_rl.pettingzoo import env
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("lattaque", beliefs=True, ply_limit=12), num_cycles=12)


def _pettingzoo_run(seed: int, **kwargs) -> list:
    from gibson_rl.pettingzoo import env

    e = env("lattaque", **kwargs)
    e.reset(seed=seed)
    trace = []
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _info = e.last()
        trace.append((agent, reward, obs["observation"].tobytes(), obs["action_mask"].tobytes()))
        legal = np.flatnonzero(obs["action_mask"])
        e.step(None if terminated or truncated else int(rng.choice(legal)))
    return trace


def test_a_seeded_pettingzoo_episode_is_reproducible():
    first = _pettingzoo_run(5, ply_limit=60)
    assert first == _pettingzoo_run(5, ply_limit=60)
    assert first != _pettingzoo_run(6, ply_limit=60)
    assert {r for _a, r, _o, _m in first[-2:]} <= {-1.0, 0.0, 1.0}


def test_a_won_game_rewards_plus_and_minus_one():
    from gibson_rl.pettingzoo import env

    e = env("lattaque", ply_limit=0)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    for agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if agent == e.possible_agents[0] and all(e.terminations.values()):
            break
    winner = e.episode.winner()
    assert winner is not None
    loser = next(a for a in e.possible_agents if a != winner)
    assert e.episode.reward(winner) == 1.0 and e.episode.reward(loser) == -1.0


def test_the_setup_phase_places_every_piece_before_play():
    from gibson_rl.pettingzoo import env

    e = env("lattaque", setup="phase")
    e.reset(seed=2)
    variant = e.variant
    placed = 0
    while e.episode.state is None:
        mask = e.observe(e.agent_selection)["action_mask"]
        assert not mask[: e.episode.actions.n_moves].any()
        e.step(int(np.flatnonzero(mask)[0]))
        placed += 1
    assert placed == 2 * variant.piece_count
    assert e.observe(e.agent_selection)["action_mask"][: e.episode.actions.n_moves].any()


@pytest.mark.skipif(fastpath.kernel_module() is None, reason="the C kernel is not built here")
@pytest.mark.parametrize("name", variant_names())
def test_an_episode_in_the_kernel_equals_one_in_the_python_engine(name):
    """The C kernel under an Episode changes nothing observable: same tensors, masks, results and history."""
    options = {"ply-limit": 300} if "ply-limit" in load_variant(name).option_specs else {}
    fast, slow = Episode(name, options), Episode(name, options)
    slow.use_kernel = False
    if fastpath.unsupported(fast.variant) is None:
        assert fast.use_kernel
    rng = random.Random(5)
    for game in range(2):
        fast.reset(seed=game)
        slow.reset(seed=game)
        while True:
            for player in fast.players:
                assert np.array_equal(fast.tensor(player), slow.tensor(player))
                assert np.array_equal(fast.mask(player), slow.mask(player))
            assert (fast.over, fast.current, fast.winner()) == (slow.over, slow.current, slow.winner())
            if fast.over:
                break
            legal = fast.legal_actions()
            assert legal == slow.legal_actions()
            action = rng.choice(legal)
            fast.step(action)
            slow.step(action)
        assert fast.state.history == slow.state.history
        assert fast.state.result == slow.state.result


def test_a_move_that_is_not_legal_is_refused_and_changes_nothing():
    from gibson_core.errors import IllegalMoveError

    ep = Episode("lattaque")
    ep.reset(3)
    before = ep.tensor(ep.current)
    illegal = int(np.flatnonzero(ep.mask() == 0)[0])
    with pytest.raises(IllegalMoveError):
        ep.step(illegal)
    assert np.array_equal(before, ep.tensor(ep.current))


def test_a_bad_setup_at_reset_is_refused():
    from gibson_core.errors import SetupError

    for mode in ("random", "phase"):
        episode = Episode("lattaque", setup=mode)
        episode.reset(1)
        before = (episode.tensor("blue"), episode.mask().copy(), episode.current)
        with pytest.raises(SetupError):
            episode.reset(2, {"blue": {"a1": "Flag"}})
        after = (episode.tensor("blue"), episode.mask(), episode.current)
        assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
        assert before[2] == after[2]


def test_unknown_environment_options_are_refused():
    from gibson_rl.gym import GibsonEnv

    from gibson_core.errors import GibsonError

    with pytest.raises(GibsonError):
        Episode("lattaque", setup="by-magic")
    with pytest.raises(GibsonError):
        GibsonEnv("lattaque", illegal="shrug")
    with pytest.raises(GibsonError):
        Episode("lattaque", {"no_such_option": 1})


# -- Gymnasium -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_gymnasium_env_checker(name, options):
    import gibson_rl  # noqa: F401  (registers gibson/<variant>-v0)
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    e = gymnasium.make(f"gibson/{name}-v0", opponent="heuristic", **_short(name, options))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e.unwrapped, skip_render_check=True)


def _gym_run(seed: int) -> list:
    import gibson_rl  # noqa: F401
    import gymnasium

    e = gymnasium.make("gibson/lattaque-v0", opponent="heuristic", player="red", ply_limit=60)
    obs, info = e.reset(seed=seed)
    trace = [obs.tobytes()]
    rng = np.random.default_rng(seed)
    while True:
        obs, reward, terminated, truncated, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        trace.append((obs.tobytes(), reward))
        if terminated or truncated:
            return trace


def test_a_seeded_gymnasium_episode_is_reproducible():
    assert _gym_run(8) == _gym_run(8)


def test_an_illegal_action_loses_in_the_single_agent_env():
    from gibson_rl.gym import GibsonEnv

    e = GibsonEnv("lattaque", opponent="random")
    _obs, info = e.reset(seed=1)
    _obs, reward, terminated, _truncated, info = e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


# -- OpenSpiel -------------------------------------------------------------------------------------------
def _spiel_game(name, **options):
    import json

    import gibson_rl.openspiel  # noqa: F401  (registers python_gibson)
    import pyspiel

    return pyspiel.load_game("python_gibson", {"variant": name, "options": json.dumps(options) if options else ""})


@pytest.mark.parametrize("name", variant_names())
def test_openspiel_random_simulation(name):
    import pyspiel

    pyspiel.random_sim_test(_spiel_game(name, **{"ply-limit": 6}), num_sims=1, serialize=False, verbose=False)


def _midgame(game, plies: int, seed: int):
    state = game.new_initial_state()
    state.apply_action(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_resampling_keeps_the_players_information():
    import pyspiel

    game = _spiel_game("lattaque")
    state = _midgame(game, 30, 4)
    me = state.current_player()
    for k in range(3):
        world = state.resample_from_infostate(me, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(me) == state.information_state_string(me)
        assert world.legal_actions() == state.legal_actions()
        assert world.observation_tensor(me) == state.observation_tensor(me), k
        assert world.information_state_tensor(me) == state.information_state_tensor(me), k


def test_openspiel_information_state_ignores_the_opponents_hidden_types():
    """Twin OpenSpiel states differing only in the opponent's hidden types: same strings and tensors for the
    player (types shuffled among the opponent's unrevealed pieces)."""
    game = _spiel_game("lattaque")
    state = _midgame(game, 10, 2)
    twin = state.clone()
    gs = twin.gs
    me = state.current_player()
    hidden = [pid for pid in gs.pids[1 - me] if not gs.revealed[pid]]
    types = [gs.ptype[pid] for pid in hidden]
    random.Random(1).shuffle(types)
    gs.ptype = gs.ptype[:]
    for pid, t in zip(hidden, types, strict=True):
        gs.ptype[pid] = t
    for method in ("information_state_string", "observation_string", "observation_tensor",
                   "information_state_tensor"):
        assert getattr(twin, method)(me) == getattr(state, method)(me), method


def test_openspiels_ismcts_bot_plays_gibson():
    from gibson_rl.openspiel import GibsonEvaluator, seeded_resampler
    from open_spiel.python.algorithms import ismcts

    game = _spiel_game("lattaque", **{"ply-limit": 40})
    state = _midgame(game, 4, 1)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, GibsonEvaluator(plies=4, random_state=rng), 2.0, 12, random_state=rng)
    seeded_resampler(bot, 5)
    for _ in range(3):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_the_openspiel_ismcts_agent_plays_in_gibsons_arena_registry():
    from gibson_core.ai import make_agent
    from gibson_core.match import play_match

    variant = load_variant("lattaque", {"ply-limit": 6})
    agents = [make_agent("openspiel-ismcts", simulations=6, rollout=2), make_agent("random")]
    record, state = play_match(variant, agents, seed=2)
    assert state.outcome() is not None and state.ply == 6
    agents = [make_agent("openspiel-ismcts", simulations=6, rollout=2), make_agent("random")]
    assert play_match(variant, agents, seed=2)[0].to_json() == record.to_json()  # seeded: the same game


def test_gibson_bench_env_reports_environment_steps(capsys):
    from gibson_core.cli import main

    assert main(["bench", "--env", "lattaque", "--seconds", "0.02", "--option", "ply-limit=50"]) == 0
    out = capsys.readouterr().out
    assert "env steps/s" in out and "pettingzoo AEC steps/s" in out and "(35, 10, 9)" in out


def test_the_docs_training_example_runs_and_draws_its_curve(tmp_path):
    """docs/examples/rl_reinforce.py (a few episodes) and its PNG writer."""
    import importlib.util
    import sys
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "docs" / "examples"
    sys.path.insert(0, str(examples))
    try:
        spec = importlib.util.spec_from_file_location("rl_reinforce", examples / "rl_reinforce.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        curve = module.train(episodes=20, every=10, lr=0.05, seed=1)
        assert [e for e, _w, _l in curve] == [10, 20]
        assert all(0.0 <= w + lost <= 1.0 for _e, w, lost in curve)
        module.line_chart(str(tmp_path / "curve.png"), [[(e, w) for e, w, _l in curve]], 20)
        assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        sys.path.remove(str(examples))
