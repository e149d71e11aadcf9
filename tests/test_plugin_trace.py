"""GIBSON_TRACE_PLUGINS: the trace names no hidden type (issue 9, section 3)."""

import os
import random
import subprocess
import sys

from gibson_core import GameState, load_variant
from gibson_core.events import Removed
from gibson_core.plugintrace import safe_text
from gibson_core.record import load_record
from gibson_core.setup import random_setup


def _traced_selfplay(tmp_path, variant: str, seed: int) -> tuple[GameState, str]:
    record = tmp_path / f"{variant}.json"
    env = dict(os.environ, GIBSON_TRACE_PLUGINS="1")
    run = subprocess.run([sys.executable, "-m", "gibson_core.cli", "selfplay", variant, "--seed", str(seed),
                          "--option", "ply-limit=300", "--record", str(record)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return load_record(record).replay(), run.stderr


def test_a_traced_game_prints_no_hidden_type(tmp_path):
    state, text = _traced_selfplay(tmp_path, "dover-patrol", 4)  # Flags, blasts: many hooks
    assert "[gibson] gibson_after_move(" in text and "public=False" not in text and "ptype" not in text
    state, text = _traced_selfplay(tmp_path, "tri-tactics", 1)
    hidden = [e for _m, evs in state.history for e in evs if isinstance(e, Removed) and not e.public]
    assert hidden, "the seed should remove a hidden piece (a transit forfeit)"
    for event in hidden:  # a game with only core rules traces nothing; one with hooks never names them
        if event.reason != event.hidden_reason:
            assert event.reason not in text
    assert "public=False" not in text


def test_arguments_are_summarised_not_dumped():
    variant = load_variant("aviation")
    rng = random.Random(2)
    state = GameState.from_setups(variant, {p: random_setup(variant, p, rng) for p in variant.players})
    state.play(state.legal_moves()[0])
    assert safe_text(state) == f"<game {state.describe()}>"
    assert safe_text(state.legal_moves()) == f"<{len(state.legal_moves())} moves>"
    assert safe_text([[*state.legal_moves()[:2]], []]) == "<2 moves>"
    assert safe_text(state.history[-1][0]) == str(state.history[-1][0])
    assert safe_text(object()) == "<object>"
