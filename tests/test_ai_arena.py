"""The arena: statistics, parallel-free runs, the command line and saved records."""

import json

import pytest

from gibson_core.ai.arena import (
    GameJob,
    GameResult,
    agent_from_spec,
    duration,
    elo,
    play_job,
    run_arena,
    summarise,
    wilson,
)
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


def test_durations_read_as_people_write_them():
    assert duration(6.72) == "6.7 s" and duration(245) == "4 min 5 s" and duration(3723) == "1 h 2 min 3 s"


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
    assert "drawn by heuristic: 2 ply limit of 30 reached" in out and "played 2 games in" in out
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 2
    record, state = load_game(files[0])
    assert json.loads(files[0].read_text())["variant"] == "tri-tactics" and state.ply == 30
    match = json.loads((tmp_path / "arena.json").read_text())
    assert match["agents"] == ["heuristic", "random"] and match["options"] == {"ply-limit": 30}
    assert [(r["index"], r["seed"], r["colour"], r["plies"]) for r in match["results"]] == [
        (0, 0, "blue", 30), (1, 1, "red", 30)]
    assert match["summary"]["draws"] == 2 and match["summary"]["ends"] == [
        {"outcome": "drawn", "reason": "ply limit of 30 reached", "games": 2}]
    assert match["wall_seconds"] >= 0 and not list(tmp_path.glob("*.part"))


def test_the_match_file_keeps_each_game_as_it_ends(tmp_path):
    """A run stopped half-way leaves arena.json with the games it played (written after every game)."""
    seen = []
    jobs = [GameJob(i, "lattaque", (), ("heuristic", "random"), 7 + i, None, 12, None) for i in range(3)]

    def keep(results):
        seen.append([r.index for r in results])

    results = run_arena(jobs, on_result=keep)
    assert seen == [[0], [0, 1], [0, 1, 2]]
    summary = summarise(results)
    assert summary.ends == (("drawn", "stopped after 12 plies", 3),)
    assert "drawn by a: 3 stopped after 12 plies" in summary.text(("a", "b"))


def test_how_games_ended_is_counted_by_outcome_and_reason():
    results = [GameResult(0, 1.0, 10, "Flag lost"), GameResult(1, 0.5, 30, "ply limit"),
               GameResult(2, 1.0, 12, "Flag lost"), GameResult(3, 0.0, 9, "no move"),
               GameResult(4, 1.0, 15, "no move")]
    summary = summarise(results)
    assert summary.ends == (("won", "Flag lost", 2), ("won", "no move", 1), ("drawn", "ply limit", 1),
                            ("lost", "no move", 1))
    text = summary.text(("a", "b"))
    assert "1 draws (20.0%)" in text and "won by a: 2 Flag lost; 1 no move" in text and "lost by a: 1 no move" in text


def test_bench_times_an_agent(capsys):
    assert main(["bench", "lattaque", "--agent", "search:iterations=3;seconds=null", "--positions", "1"]) == 0
    out = capsys.readouterr().out
    assert "wall ms/move, mean" in out and "search iterations/move, mean" in out and "  3.0" in out


def _arena(folder, *more):
    return main(["arena", "lattaque", "--agents", "heuristic,random", "--max-plies", "20", "--seed", "5", "--quiet",
                 "--record", str(folder), *more])


def test_a_match_goes_on_where_it_stopped(tmp_path, capsys):
    """--resume keeps the games arena.json has and plays the others: the same games as one long run."""
    assert _arena(tmp_path / "long", "--games", "4") == 0
    whole = json.loads((tmp_path / "long" / "arena.json").read_text())
    assert _arena(tmp_path / "part", "--games", "2") == 0
    capsys.readouterr()
    assert _arena(tmp_path / "part", "--games", "4", "--resume") == 0
    out = capsys.readouterr().out
    assert "4 games" in out and "played 2 games in" in out and "2 more were played before" in out
    resumed = json.loads((tmp_path / "part" / "arena.json").read_text())
    assert resumed["results"] == whole["results"] and resumed["summary"] == whole["summary"]
    assert resumed["games"] == 4 and resumed["wall_seconds"] >= 0
    assert sorted(p.name for p in (tmp_path / "part").glob("game-*.json")) == [f"game-0000{i}.json" for i in range(4)]
    capsys.readouterr()
    assert _arena(tmp_path / "part", "--games", "4", "--resume") == 0  # nothing left to play
    assert "played 0 games" in capsys.readouterr().out


@pytest.mark.parametrize("change, said", [
    (("--games", "2", "--resume", "--seed", "6"), "holds another match (seed 5 there, 6 here)"),
    (("--games", "1", "--resume"), "has game 1; ask for --games 2 or more"),
    (("--games", "2", "--resume", "--agents", "random,random"), "holds another match (agents"),
])
def test_resuming_another_match_is_refused(tmp_path, capsys, change, said):
    assert _arena(tmp_path, "--games", "2") == 0
    before = (tmp_path / "arena.json").read_text()
    capsys.readouterr()
    assert main(["arena", "lattaque", "--agents", "heuristic,random", "--max-plies", "20", "--seed", "5",
                 "--quiet", "--record", str(tmp_path), *change]) == 2
    assert said in capsys.readouterr().err
    assert (tmp_path / "arena.json").read_text() == before  # nothing lost


@pytest.mark.parametrize("content", [
    None, "", "{", "[]", '{"results": 3}', '{"results": [{"index": -1}]}',
    '{"results": [{"index": 0, "seed": 5, "plies": 3, "score": 2, "reason": "x"}]}',
    '{"results": [{"index": 0, "seed": 9, "plies": 3, "score": 1, "reason": "x"}], "variant": "lattaque"}',
    '{"results": [], "wall_seconds": "soon"}', b"\xff\xfe",
])
def test_a_broken_match_file_is_a_clear_error(tmp_path, capsys, content):
    if content is not None:
        target = tmp_path / "arena.json"
        target.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert _arena(tmp_path, "--games", "2", "--resume") == 2
    err = capsys.readouterr().err
    assert err.startswith("gibson: --resume: ") and "Traceback" not in err and err.count("\n") == 1


def test_a_folder_holding_a_match_is_not_overwritten(tmp_path, capsys):
    assert _arena(tmp_path, "--games", "1") == 0
    before = (tmp_path / "arena.json").read_text()
    capsys.readouterr()
    assert _arena(tmp_path, "--games", "3") == 2
    assert "already holds a match: --resume goes on with it" in capsys.readouterr().err
    assert (tmp_path / "arena.json").read_text() == before


def test_resume_needs_the_record_folder(capsys):
    assert main(["arena", "lattaque", "--games", "1", "--resume", "--quiet"]) == 2
    assert "--resume needs --record DIR" in capsys.readouterr().err


def test_games_go_on_from_recorded_positions(tmp_path, capsys):
    """--start plays on from recorded games, --back plies before each one's end, game i from record
    (i // 2) mod n with the colours alternating: each position is played from both sides, the records kept
    hold the plies before it, --only replays one game exactly, and --resume needs the same positions."""
    assert _arena(tmp_path / "src", "--games", "2") == 0  # stopped at 20 plies: not over
    sources = [str(tmp_path / "src" / f"game-0000{i}.json") for i in range(2)]
    out = tmp_path / "on"
    args = ["arena", "lattaque", "--agents", "heuristic,random", "--max-plies", "40", "--seed", "9", "--quiet",
            "--start", *sources, "--back", "6", "--games", "4"]
    assert main([*args, "--record", str(out)]) == 0
    match = json.loads((out / "arena.json").read_text())
    assert match["start"] == sources and match["back"] == 6
    assert [r["colour"] for r in match["results"]] == ["blue", "red", "blue", "red"]
    for i in range(4):
        source, _ = load_game(sources[(i // 2) % 2])
        played, state = load_game(out / f"game-0000{i}.json")
        assert played.setups == source.setups and played.first == source.first
        assert played.moves[:14] == source.moves[:14] and 14 < len(played.moves) == state.ply <= 40
    capsys.readouterr()
    assert main([*args, "--only", "2", "--record", str(tmp_path / "again")]) == 0
    assert load_game(tmp_path / "again" / "game-00002.json")[0].moves == load_game(out / "game-00002.json")[0].moves
    capsys.readouterr()
    assert main([*args[:-4], "--back", "8", "--games", "4", "--record", str(out), "--resume"]) == 2
    assert "holds another match (back 6 there, 8 here)" in capsys.readouterr().err


def test_bad_start_positions_are_refused_before_anything_is_played(tmp_path, capsys):
    assert _arena(tmp_path / "src", "--games", "1") == 0
    assert main(["arena", "tri-tactics", "--agents", "random,random", "--games", "1", "--max-plies", "10",
                 "--quiet", "--record", str(tmp_path / "tri")]) == 0
    assert main(["arena", "lattaque", "--agents", "heuristic,random", "--games", "1", "--quiet",
                 "--record", str(tmp_path / "over")]) == 0  # played to its end
    for more, said in (
            (["--start", str(tmp_path / "tri" / "game-00000.json")], "a game of tri-tactics, not of lattaque"),
            (["--start", str(tmp_path / "nothing.json")], "--start "),
            (["--start", str(tmp_path / "over" / "game-00000.json")], "the game is over at ply"),
            (["--back", "3"], "--back needs --start")):
        capsys.readouterr()
        assert main(["arena", "lattaque", "--agents", "heuristic,random", "--games", "2", "--quiet",
                     "--record", str(tmp_path / "refused"), *more]) == 2, more
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err, (more, err)
        assert not list((tmp_path / "refused").glob("game-*.json"))


def test_a_record_goes_on_under_the_options_it_was_played_with(tmp_path, capsys):
    """Records spell every option out, at its default too: a match without options goes on from them, and
    one under other options is refused."""
    assert main(["arena", "dover-patrol", "--agents", "random,random", "--games", "1", "--max-plies", "10",
                 "--quiet", "--record", str(tmp_path / "src")]) == 0
    source = str(tmp_path / "src" / "game-00000.json")
    assert load_game(source)[0].options  # the defaults, spelled out
    args = ["arena", "dover-patrol", "--agents", "random,random", "--games", "2", "--max-plies", "20", "--quiet",
            "--start", source]
    assert main([*args, "--record", str(tmp_path / "on")]) == 0
    capsys.readouterr()
    assert main([*args, "--option", "first-capture", "--record", str(tmp_path / "other")]) == 2
    err = capsys.readouterr().err
    assert "its options are" in err and "Traceback" not in err
