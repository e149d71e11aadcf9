"""The fast path (gibson_core.fastpath, the C kernel): identical to the Python engine on seeded random games of
every variant and option it plays, the explicit feature check, batch playouts, and the fallback to the Python
engine when the kernel is switched off (GIBSON_FASTPATH=0) or cannot play a variant."""

from __future__ import annotations

import random

import attrs
import pytest

from gibson_core import difftest, fastpath
from gibson_core.bench import measure, new_game, random_playout
from gibson_core.cli import main
from gibson_core.hookspecs import hookimpl
from gibson_core.moves import Move
from gibson_core.pieces import PieceType
from gibson_core.plugins import game_plugin_manager, load_variant
from gibson_core.state import GameState

needs_kernel = pytest.mark.skipif(fastpath.kernel_module() is None, reason="the C kernel is not built here")

CONFIGS = difftest.configurations()


@needs_kernel
@pytest.mark.parametrize(("name", "options"), CONFIGS, ids=[f"{n}-{'-'.join(o) or 'default'}" for n, o in CONFIGS])
def test_kernel_and_python_engine_agree_on_random_games(name, options):
    """Legal-move lists (in order), positions, tokens, events, results and push/pop, every ply; then whole
    random playouts from the same generator, which must also leave the generators in the same state."""
    variant = load_variant(name, options or None)
    if fastpath.unsupported(variant):
        assert fastpath.engine_for(variant) == "python"
        return
    config = [(name, options)]
    # many openings and skirmishes, a whole game and a whole playout for the default rules, a whole playout
    # for each option (the skirmish positions reach the endings sooner)
    starts = difftest.run(games=10, seed=200, configs=config, max_plies=40, playouts=1)
    whole = difftest.run(games=2 if not options else 0, seed=100, configs=config, max_plies=5000, playouts=0)
    assert starts["games"] == 10 and starts["playouts"] == 1 and not whole["python only"] + starts["python only"]


@needs_kernel
def test_every_ending_of_the_kernel_is_reached_by_the_differential_games():
    """The compared games reach the kernel's endings (arrival wins, vital piece lost, none left, ply limit,
    no legal move is rarer) and its special events (transit forfeits, retreats), so each is really compared."""
    seen = set()
    for name, options in [("tri-tactics", {}), ("lattaque", {}), ("tri-tactics", {"ply-limit": 40})]:
        variant = load_variant(name, options or None)
        for seed in range(12):
            rng = random.Random(seed)
            state = new_game(variant, rng)
            game = fastpath.FastGame(state)
            game.playout(rng)
            seen.add(game.result.reason.split(" ")[-1] if "ply limit" in game.result.reason else
                     "lost" if " lost: " in game.result.reason else game.result.reason.split(" ")[0])
    assert "reached" in seen and "lost" in seen and len(seen) >= 3, seen


class _ShorterGames:
    """A Python rule hook, as a variant or option plugin would bring one."""

    @hookimpl
    def gibson_game_result(self, state):
        return None


def test_the_feature_check_sends_rule_hooks_and_unknown_features_to_python():
    lattaque = load_variant("lattaque")
    assert fastpath.unsupported(lattaque) is None
    pm = game_plugin_manager(lattaque.spec, lattaque)
    pm.register(_ShorterGames())
    assert fastpath.unsupported(attrs.evolve(lattaque, plugin_manager=pm)) == "rule hooks: gibson_game_result"

    @attrs.frozen
    class NewPieceType(PieceType):
        attacks_by_moving_onto: bool = False

    def with_types(flag: bool):
        types = tuple(NewPieceType(**attrs.asdict(t, recurse=False), attacks_by_moving_onto=flag) for t in lattaque.types)
        return attrs.evolve(lattaque, types=types)

    assert fastpath.unsupported(with_types(False)) is None  # an unknown feature switched off changes nothing
    assert "attacks_by_moving_onto" in fastpath.unsupported(with_types(True))
    data = dict(lattaque.data, repetition={"limit": 3})
    assert "repetition" in fastpath.unsupported(attrs.evolve(lattaque, data=data))


@needs_kernel
def test_batch_playouts_choose_as_random_Random_of_each_seed():
    variant = load_variant("lattaque", {"ply-limit": 50})
    rng = random.Random(7)
    states = [new_game(variant, rng) for _ in range(5)]
    seeds = [0, 1, 2**32, 2**64 - 1, 987654321012]
    batch = fastpath.batch_playouts(states, seeds)
    assert fastpath.batch_playouts(states, seeds, threads=2) == batch  # the GIL is released: threads play at once
    assert batch == [(random_playout(s, random.Random(seed)), s.result) for s, seed in zip(states, seeds, strict=True)]


def test_forcing_the_python_engine_with_the_environment(monkeypatch, capsys):
    monkeypatch.setenv(fastpath.ENV, "0")
    lattaque = load_variant("lattaque")
    assert fastpath.kernel_module() is None
    assert fastpath.engine_for(lattaque) == "python"
    with pytest.raises(ValueError, match="not available"):
        measure("lattaque", 0.01, engine="fast")
    assert main(["bench", "lattaque", "--seconds", "0.05", "--engine", "fast"]) == 0
    out = capsys.readouterr().out
    assert "no fast path" in out and "(python engine" in out
    state = new_game(lattaque, random.Random(3))  # the reference engine plays on, as everywhere
    assert random_playout(state, random.Random(3), 30) == 30


@needs_kernel
def test_bench_names_the_engine_it_measured(capsys):
    assert main(["bench", "lattaque", "--seconds", "0.05", "--engine", "both"]) == 0
    out = capsys.readouterr().out
    assert "(python engine" in out and "(fast engine" in out and "batch playout plies/s" in out


@needs_kernel
def test_difftest_command_reports_identical_games(capsys):
    assert main(["difftest", "lattaque", "dover-patrol", "--games", "1", "--max-plies", "30"]) == 0
    out = capsys.readouterr().out
    assert "identical in both engines" in out


@needs_kernel
@pytest.mark.parametrize("name", ["aviation", "dover-patrol", "lattaque", "tri-tactics"])
def test_the_kernel_tree_searches_exactly_as_the_python_tree(name):
    """The search's iterations in the kernel (KernelTree) and in Python (PythonTree): the same root moves
    with the same visits and the same mean values, to the last bit, after the same iterations; and they
    searched (the best move drew more than twice an even share of them)."""
    from gibson_core.ai import make_agent
    from gibson_core.bench import midgame_positions
    from gibson_core.observe import observe

    state = midgame_positions(load_variant(name), random.Random(4), 1, 60)[0]
    obs = observe(state, state.player)
    analyses = [make_agent("search", seconds=None, iterations=150, compiled=compiled).analyse(obs)
                for compiled in (True, False)]
    fast, python = ([(str(m.move), m.visits, m.score) for m in a.moves] for a in analyses)
    assert fast == python and analyses[0].iterations == analyses[1].iterations == 150
    assert fast[0][1] > 2 * 150 / len(obs.legal_moves)


@needs_kernel
@pytest.mark.parametrize("reach", [1, 2, 3])
def test_the_tree_holds_at_most_reach_moves_on_a_path(reach):
    """``reach`` bounds how many moves a path through the tree holds (the root's move included): below
    that the playout alone plays on. Both trees obey it with the same root visits and values."""
    from gibson_core.ai import make_agent
    from gibson_core.bench import midgame_positions
    from gibson_core.observe import observe

    state = midgame_positions(load_variant("lattaque"), random.Random(4), 1, 60)[0]
    obs = observe(state, state.player)
    agents = [make_agent("search", seconds=None, iterations=400, compiled=compiled, reach=reach)
              for compiled in (True, False)]
    fast, python = ([(str(m.move), m.visits, m.score) for m in agent.analyse(obs).moves] for agent in agents)
    assert fast == python
    agents[0].choose_move(obs, random.Random(1))
    tree = agents[0]._tree[1][0].tree

    def height(node):
        return max((1 + height(child) for _key, child in tree.children(node)), default=0)

    assert height(0) == reach  # 400 iterations fill every level allowed, and none below it


@needs_kernel
@pytest.mark.parametrize("name", ["lattaque", "tri-tactics"])
def test_the_kernel_tree_is_kept_between_moves_as_the_python_tree(name):
    """Over several moves, each search starting from the subtree the last one kept (copied out of the kernel
    after our move and the reply): the same moves and the same visits through each kept root."""
    from gibson_core.ai import make_agent
    from gibson_core.observe import observe

    runs = []
    for compiled in (True, False):
        state = new_game(load_variant(name), random.Random(3))
        agent = make_agent("search", seconds=None, iterations=300, compiled=compiled)
        rng, trace = random.Random(8), []
        for _ply in range(16):
            if state.outcome() is not None:
                break
            if state.to_move == 0:
                state.push(agent.choose_move(observe(state, state.player), rng))
                trace.append((str(state.history[-1][0]), [t.visits for t in agent._tree[1]] if agent._tree else None))
            else:
                state.push(rng.choice(state.legal_moves()))
        runs.append(trace)
    assert runs[0] == runs[1] and len(runs[0]) == 8


@needs_kernel
def test_a_subtree_copied_out_of_the_kernel_tree_is_the_same_tree():
    """Tree.subtree copies a node's whole subtree (thousands of nodes, the node array growing as it is
    copied): the same moves, visits and totals at every node."""
    from gibson_core.ai import make_agent
    from gibson_core.bench import midgame_positions
    from gibson_core.observe import observe

    state = midgame_positions(load_variant("lattaque"), random.Random(4), 1, 60)[0]
    agent = make_agent("search", seconds=None, iterations=3000, width=2)
    agent.choose_move(observe(state, state.player), random.Random(1))
    tree = agent._tree[1][0].tree

    def shape(t, node):
        return (t.stats(node), sorted((key, shape(t, child)) for key, child in t.children(node)))

    best = max(tree.children(0), key=lambda kc: tree.stats(kc[1])[0])[1]
    sub = tree.subtree(best)
    assert sub.size() > 1000 and shape(sub, 0) == shape(tree, best)


@needs_kernel
def test_the_kernel_tree_refuses_bad_arguments():
    """The kernel's Tree (the search's nodes) raises clear errors for bad nodes, games and buffers."""
    from array import array

    kernel = fastpath.Kernel.for_variant(load_variant("lattaque"))
    game = fastpath.FastGame(new_game(load_variant("lattaque"), random.Random(2)))
    code = kernel.code(game.legal_moves()[0])
    tree = kernel.module.Tree()
    assert tree.size() == 1 and tree.stats(0) == (0, 0.0) and tree.find(0, code) == -1
    for bad in (1, -1):
        with pytest.raises(IndexError, match="no such node"):
            tree.stats(bad)
        with pytest.raises(IndexError):
            tree.find(bad, code)
    twister = fastpath.Twister(random.Random(1))
    constants = array("d", [2.0, 1.0, 2, 40.0, 2.0, 0.9, 6, 0, 1000])
    good = ([game.game], [0.0], 0, 10, -1.0, twister.buf, kernel.policy(), array("q", [code]), array("d", [0.0]),
            array("d", [1.0]), constants)
    for i, value, error in ((0, [], ValueError), (0, ["game"], TypeError), (1, [0.0, 1.0], ValueError),
                            (6, b"short", ValueError), (7, array("q", []), ValueError),
                            (7, array("q", [0xFFF]), ValueError), (8, array("d", []), ValueError),
                            (10, array("d", [1.0]), ValueError), (5, bytearray(3), ValueError)):
        args = list(good)
        args[i] = value
        with pytest.raises(error):
            tree.run(*args)
    assert tree.size() == 1  # nothing was searched
    out_of_time = list(good)
    out_of_time[4] = 0.0
    assert tree.run(*out_of_time) == 0 and tree.size() == 1  # the seconds are checked before each iteration
    assert tree.run(*good) == 10 and tree.stats(tree.find(0, code))[0] == 2 + 10
    assert game.legal_moves() and kernel.code(game.legal_moves()[0]) == code  # the game was rewound


@needs_kernel
@pytest.mark.parametrize("name", ["dover-patrol", "tri-tactics"])
def test_search_agent_chooses_the_same_with_either_engine(name, monkeypatch):
    """Its tail playouts run in the kernel when it is built, with the same choices: so the same move."""
    from gibson_core.ai.search import SearchAgent
    from gibson_core.bench import midgame_positions
    from gibson_core.observe import observe

    variant = load_variant(name)
    state = midgame_positions(variant, random.Random(4), 1, 40)[0]
    obs = observe(state, state.player)
    agent = SearchAgent("easy", seconds=None, iterations=60)
    fast = agent.choose_move(obs, random.Random(9))
    monkeypatch.setenv(fastpath.ENV, "0")
    assert fastpath.kernel_or_none(variant) is None
    assert agent.choose_move(obs, random.Random(9)) == fast


@needs_kernel
def test_rules_random_play_rarely_reaches_are_compared_on_scripts():
    """A Submarine's whole journey up the river onto the enemy Lake (an arrival win by a path) and a Flag
    handed over onto its own Base, played in both engines with everything compared after every ply."""
    tri = load_variant("tri-tactics")
    river = GameState.from_position(tri, {"f9": "blue SM", "a1": "blue Army", "a12": "red Army", "c12": "red Bn"},
                                     "blue")
    shuttle = ["a12-a11", "a11-a12"] * 3
    journey = ["f9-f10", shuttle[0], "f10-g10", shuttle[1], "g10-h10", shuttle[2], "h10-i10", shuttle[3], "i10-i11"]
    assert difftest.compare_moves(river, journey, "river journey") == len(journey)
    assert river.result.winner == "blue" and "river" in river.result.reason
    dover = load_variant("dover-patrol")
    home = GameState.from_position(dover, {"b3": "blue Dst", "c3": "blue SM", "h12": "red Dst", "a12": "red SM"},
                                   "blue")
    dover.rules["flags"].place(home, {"blue": "b3"})  # the Destroyer next to its Base carries its own Flag
    assert difftest.compare_moves(home, ["b3>c3", "h12-h11"], "hand-over home") == 2
    assert home.tokens["flag:blue"] == ("c3", 0, False)
    assert any(getattr(e, "reason", "") == "handed over onto its own Base" for e in home.history[0][1])


@needs_kernel
def test_the_kernel_refuses_an_action_the_piece_does_not_have():
    """push is unchecked, as GameState.push, but an impossible action is refused rather than crashing."""
    variant = load_variant("lattaque")
    game = fastpath.FastGame(new_game(variant, random.Random(2)))
    origin = game.legal_moves()[0].origin
    for text in (f"{origin}@", f"{origin}>{origin}"):
        with pytest.raises(ValueError, match="not a move of this position"):
            game.push(Move.parse(text))
    assert game.legal_moves() and game.history == []


@needs_kernel
@pytest.mark.parametrize("name", ["lattaque", "dover-patrol", "tri-tactics", "aviation"])
def test_the_kernel_scores_a_lopsided_playout_as_the_python_search_does(name):
    """Far ahead the evaluation hunts the enemy's last movers and the Mines that wall them in
    (``values.mopup``); the kernel counts it to the last bit as the Python search does, from positions
    where one side keeps a random few of its mobile pieces."""
    from gibson_core.ai.search import Playout
    from gibson_core.ai.values import mopup, prey_types

    variant = load_variant(name)
    kernel = fastpath.Kernel.for_variant(variant)
    hunted = 0
    for seed in range(6):
        rng = random.Random(seed)
        start = new_game(variant, rng)
        thin, keep = seed % 2, 0.3 * rng.random()
        position = {variant.grid.name(start.square[pid]): f"{variant.players[start.owner[pid]]} "
                    f"{variant.types[start.ptype[pid]].id}"
                    for pid in range(1, len(start.owner))
                    if not (start.owner[pid] == thin and variant.types[start.ptype[pid]].mobile
                            and rng.random() > keep)}
        state = GameState.from_position(variant, position, variant.players[1 - thin])
        prey = any(prey_types(variant)[state.ptype[pid]] and state.square[pid] >= 0 for pid in state.pids[thin])
        assert (mopup(state, 1 - thin) > 0.0) == prey and mopup(state, thin) == 0.0
        hunted += prey
        for player in (0, 1):
            ours, theirs = random.Random(seed + 10 * player), random.Random(seed + 10 * player)
            compiled = kernel.finish_value(state, 6, ours, 0.9, player)
            python = Playout(variant, theirs).finish(state.copy(), 6, player)
            assert compiled == python and ours.getstate() == theirs.getstate()
    assert hunted >= 3


@needs_kernel
def test_a_twister_lends_the_generator_to_the_kernel_and_gives_it_back():
    from gibson_core.ai.search import Playout

    variant = load_variant("aviation")
    state = new_game(variant, random.Random(1))
    rng, twin = random.Random(5), random.Random(5)
    twister = fastpath.Twister(rng)
    game = fastpath.FastGame(state)
    compiled = [game.choose(twister, 0.9) for _ in range(4)]
    twister.give()
    policy = Playout(variant, twin)
    assert compiled == [policy.choose(state) for _ in range(4)]
    assert rng.getstate() == twin.getstate()


@needs_kernel
@pytest.mark.parametrize("name", ["aviation", "dover-patrol", "lattaque", "tri-tactics", "tri-tactics-classic"])
def test_the_kernel_scores_a_playout_as_the_python_search_does(name):
    """``Kernel.finish_value`` plays and scores the search's tail playout as ``Playout.finish`` does: the
    same value (material, squares, the last winning pieces, Flags) and the same advance of the generator,
    from positions up to 490 plies into random games (Aviation's Troop Carriers down to one or none,
    Tri-Tactics' two dozen winning pieces down to a dozen, where each still counts a little)."""
    from gibson_core.ai.search import Playout

    variant = load_variant(name)
    kernel = fastpath.Kernel.for_variant(variant)
    for seed in range(4):
        state = new_game(variant, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(40 + 150 * seed):
            moves = state.legal_moves()
            if state.result is not None or not moves:
                break
            state.push(rng.choice(moves))
        if state.outcome() is not None:
            continue
        for player in (0, 1):
            ours, theirs = random.Random(seed + 10 * player), random.Random(seed + 10 * player)
            compiled = kernel.finish_value(state, 6, ours, 0.9, player)
            python = Playout(variant, theirs).finish(state.copy(), 6, player)
            assert compiled == pytest.approx(python, abs=1e-9) and ours.getstate() == theirs.getstate()
