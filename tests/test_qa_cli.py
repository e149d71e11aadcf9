"""Every number, address and name of every command — including the server, bot, load-test and difftest
commands — is checked before any work starts: one line, exit status 2, nothing written, no connection tried.

Property-based: any text for a typed argument is either accepted by its type or refused in one line."""

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gibson_core.cli import build_parser, main

BAD = [
    (["serve", "--port", "-1"], "port number"),
    (["serve", "--port", "70000"], "port number"),
    (["serve", "--certfile", "/no/such/cert.pem"], "no such file"),
    (["serve", "--db", "{tmp}"], "is a folder"),
    (["serve", "--rate", "0"], "greater than 0"),
    (["serve", "--open-games", "-1"], "from 1"),
    (["serve", "--grace", "-1"], "from 0"),
    (["serve", "--abandon", "nan"], "greater than 0"),
    (["serve", "--agent-workers", "0"], "processes"),
    (["serve", "--agent-seconds", "-1"], "greater than 0"),
    (["loadtest", "--url", "notaurl"], "server address"),
    (["loadtest", "--url", "ws://127.0.0.1:99999"], "server address"),
    (["loadtest", "--url", "ws://127.0.0.1:1", "--games", "0"], "from 1"),
    (["loadtest", "--url", "ws://127.0.0.1:1", "--moves", "-1"], "from 0"),
    (["loadtest", "--url", "ws://127.0.0.1:1", "--timeout", "0"], "greater than 0"),
    (["loadtest", "--url", "ws://127.0.0.1:1", "--timeline", "{tmp}"], "is a folder"),
    (["loadtest", "--url", "ws://127.0.0.1:1", "--variant", "Lattaque"], "did you mean 'lattaque'"),
    (["bot", "--connect", "http://x"], "server address"),
    (["bot", "--connect", "ws://127.0.0.1:1", "--variant", "nosuch"], "unknown variant"),
    (["bot", "--connect", "ws://127.0.0.1:1", "--budget", "-1"], "greater than 0"),
    (["play", "--connect", "notaurl"], "server address"),
    (["difftest", "--games", "0"], "from 1"),
    (["difftest", "--max-plies", "-3"], "from 1"),
    (["difftest", "Lattaque"], "did you mean 'lattaque'"),
    (["arena", "lattaque", "--jobs", "100000"], "processes"),
    (["arena", "lattaque", "--only", "-1"], "from 0"),
    (["replay", "{tmp}"], "is a folder"),
]


def _run(argv):
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's own refusal
        return exc.code


@pytest.mark.parametrize(("argv", "words"), BAD, ids=[" ".join(a[:3]) for a, _ in BAD])
def test_bad_arguments_of_every_command_are_one_line(capsys, tmp_path, argv, words):
    argv = [a.format(tmp=tmp_path) for a in argv]
    code = _run(argv)
    err = capsys.readouterr().err
    assert code == 2 and words in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def _typed_options():
    """(command, option) for every option of every command that has a type check."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sorted(sub.choices.items()):
        for action in command._actions:
            if action.type is not None and action.option_strings:
                yield name, action.option_strings[-1]


TYPED = list(_typed_options())


REQUIRED = {"screenshot": ["lattaque", "--out", "x.png"], "loadtest": ["--url", "ws://127.0.0.1:1"],
            "bot": ["--connect", "ws://127.0.0.1:1"], "arena": ["lattaque"], "selfplay": ["lattaque"],
            "rules": ["lattaque"], "replay": ["g.json"], "new-variant": ["my-game"]}


@settings(derandomize=True, database=None, deadline=None, max_examples=150)
@given(where=st.sampled_from(TYPED), text=st.one_of(
    st.text(max_size=12), st.sampled_from(["-1", "0", "nan", "inf", "1e400", "9" * 400, "x" * 5000, "a\0b"])))
def test_any_text_for_a_typed_option_is_accepted_or_refused_in_one_line(where, text):
    command, option = where
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            build_parser().parse_args([command, *REQUIRED.get(command, []), f"{option}={text}"])
        except SystemExit as exc:
            assert exc.code == 2
    assert err.getvalue().count("\n") <= 1 and len(err.getvalue()) < 400, err.getvalue()[:400]


@pytest.mark.parametrize("argv", [["validate", "x" * 5000], ["new-variant", "abc", "--dir", "x" * 5000],
                                  ["check", "x" * 5000], ["screenshot", "lattaque", "--out", "a\0b"]])
def test_a_huge_or_impossible_path_is_quoted_short(capsys, argv):
    code = _run(argv)
    out = capsys.readouterr()
    assert code in (1, 2) and "Traceback" not in out.err
    assert all(len(line) < 400 for line in (out.out + out.err).splitlines())


def test_ctrl_c_ends_a_long_command_in_one_line():
    """SIGINT once the arena has shown progress: status 130, one line, no traceback (nor a worker's)."""
    import signal
    import subprocess
    import sys

    script = "import sys; from gibson_core.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", script, "arena", "lattaque", "--agents", "random,random",
                             "--games", "500"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = proc.stderr.read(1)  # the progress bar has started: the games are being played
        assert first in (b"\r", b"[")
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and b"Traceback" not in err and err.endswith(b"gibson arena: interrupted\n")
