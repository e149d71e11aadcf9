"""The ``gibson`` command end to end (in-process)."""

import json

import pytest
from conftest import CONFORMANCE_VECTORS, OWN_VECTORS

from gibson_core.cli import main


def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_list_and_plugins(capsys):
    code, out = run(capsys, "list")
    assert code == 0 and "tri-tactics" in out
    code, out = run(capsys, "plugins")
    assert code == 0 and "tri-tactics" in out


def test_rules_prints_pieces_and_table(capsys):
    code, out = run(capsys, "rules", "tri-tactics")
    assert code == 0 and "Two-Seat Fighter" in out and "Value Table" in out


def test_check_passes_and_fails(capsys, tmp_path):
    code, out = run(capsys, "check", str(CONFORMANCE_VECTORS / "tri-tactics.yaml"), str(OWN_VECTORS / "tri-tactics.yaml"))
    assert code == 0 and out.strip().endswith(" 0 failed")
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: tri-tactics\ncases:\n  - name: wrong on purpose\n    position: {a1: blue Bn, l12: red Bn}\n"
                   "    to_move: blue\n    moves: [a1-a2]\n    expect: {position: {a1: blue Bn}}\n")
    code, out = run(capsys, "check", str(bad))
    assert code == 1 and "wrong on purpose" in out and out.strip().endswith("0 passed, 1 failed")


def test_check_unreadable_file_fails(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_:
        main(["check", str(tmp_path / "missing.yaml")])
    assert exit_.value.code == 2 and "no such file" in capsys.readouterr().err


def test_selfplay_record_and_replay(capsys, tmp_path):
    path = tmp_path / "game.json"
    code, out = run(capsys, "selfplay", "tri-tactics", "--seed", "4", "--record", str(path), "--option", "ply-limit=300")
    assert code == 0 and "plies" in out
    data = json.loads(path.read_text())
    assert data["variant"] == "tri-tactics" and len(data["moves"]) <= 300 and data["result"]
    code, out = run(capsys, "replay", str(path), "--as", "blue")
    assert code == 0 and "result:" in out


def test_bench_prints_a_table(capsys):
    code, out = run(capsys, "bench", "tri-tactics", "--seconds", "0.2")
    assert code == 0 and "random-playout plies/s" in out and "legal-move enumerations/s" in out


def test_errors_are_reported_not_raised(capsys):
    assert main(["rules", "no-such-variant"]) == 2
    assert "unknown variant" in capsys.readouterr().err
