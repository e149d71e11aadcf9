"""The arena: statistics, parallel-free runs, the command line and saved records."""

import json

import pytest

from gibson_core.ai.arena import GameJob, agent_from_spec, elo, play_job, run_arena, summarise, wilson
from gibson_core.cli import main
from gibson_core.record import load_game


def test_wilson_and_elo():
    p, lo, hi = wilson(90, 100)
    assert p == 0.9 and 0.82 < lo < 0.85 and 0.94 < hi < 0.96
    assert wilson(0, 0) == (0.5, 0.0, 1.0)
    assert elo(0.5) == 0 and elo(0.76) == pytest.approx(200, abs=2) and elo(0.0) == -1000


def test_colours_and_first_player_alternate():
    jobs = [GameJob(i, "tri-tactics", (), ("random", "random"), i, None, 10, None) for i in range(4)]
    results = run_arena(jobs)
    assert [r.index for r in results] == [0, 1, 2, 3]
    assert all(r.error is None and r.plies == 10 and r.score == 0.5 for r in results)
    summary = summarise(results)
    assert (summary.games, summary.draws, summary.mean_plies) == (4, 4, 10.0)


def test_agent_specs_take_options():
    agent = agent_from_spec("search:iterations=3;seconds=null")
    assert agent.iterations == 3 and agent.seconds is None


def test_a_crash_is_reported_not_counted():
    result = play_job(GameJob(0, "no-such-game", (), ("random", "random"), 0, None, 10, None))
    assert result.error and summarise([result]).games == 0


def test_arena_command(tmp_path, capsys):
    code = main(["arena", "tri-tactics", "--agents", "heuristic,random", "--games", "2", "--max-plies", "30",
                 "--quiet", "--record", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "heuristic vs random: 2 games" in out and "Elo difference" in out and "average game length" in out
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    record, state = load_game(files[0])
    assert json.loads(files[0].read_text())["variant"] == "tri-tactics" and state.ply == 30


def test_bench_times_an_agent(capsys):
    assert main(["bench", "lattaque", "--agent", "search:iterations=3;seconds=null", "--positions", "1"]) == 0
    out = capsys.readouterr().out
    assert "wall ms/move, mean" in out and "search iterations/move, mean" in out and "  3.0" in out
