"""SIGKILL the server mid-game (a real ``gibson serve`` subprocess) and start it again on the same port:
games come back exactly (same views), clocks are not charged for the downtime, the clients reconnect by
themselves and play on; nothing acknowledged is lost."""

from __future__ import annotations

import os
import random
import selectors
import signal
import subprocess
import sys
import time

from netharness import LoopThread, mover, settle, start_game

from gibson_core.net.client import GameClient


def _serve(db, port: int) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "gibson_core.cli", "serve", "--port", str(port), "--db", str(db),
                             "--rate", "1000"], stdout=subprocess.PIPE, text=True)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    assert sel.select(60), "the server did not start within 60 s"
    line = proc.stdout.readline()
    assert "listening on ws://127.0.0.1:" in line, line
    return proc, int(line.split("127.0.0.1:")[1].split()[0])


def test_sigkill_and_restart_restores_every_game(tmp_path):
    lt = LoopThread()
    db = tmp_path / "games.sqlite3"
    proc, port = _serve(db, 0)
    url = f"ws://127.0.0.1:{port}"
    rng = random.Random(2)
    try:
        async def before_kill():
            a, b = await GameClient(url, backoff=(0.05, 0.3)).connect(), await GameClient(url, backoff=(0.05, 0.3)).connect()
            code = await start_game(a, b, clock={"initial": 600, "increment": 5})
            untimed = await start_game(a, b, variant="lattaque")
            for ply in range(1, 7):
                for game in (code, untimed):
                    c = mover((a, b), game)
                    await c.play(game, str(rng.choice(c.games[game].observation.legal_moves)))
                    await settle((a, b), game, ply)
            return a, b, code, untimed

        a, b, code, untimed = lt.run(before_kill())
        seen = {g: (a.games[g].observation, b.games[g].observation, a.games[g].updates, b.games[g].updates)
                for g in (code, untimed)}
        clock = a.games[code].clock
        running, left_before = clock["running"], clock["left_ms"][clock["running"]]
        t_before = time.monotonic()

        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        t_kill = time.monotonic()
        t_spawn = time.monotonic()
        proc, _ = _serve(db, port)

        async def after_restart():
            for game, (obs_a, obs_b, n_a, n_b) in seen.items():
                await a.wait_for(game, lambda g, o=obs_a, n=n_a: g.updates > n and g.observation == o, 30)
                await b.wait_for(game, lambda g, o=obs_b, n=n_b: g.updates > n and g.observation == o, 30)
            return a.games[code].clock, time.monotonic()

        clock_after, t_after = lt.run(after_restart(), timeout=60)
        assert a.reconnects >= 1 and b.reconnects >= 1
        assert clock_after["running"] == running
        up = (t_after - t_before) - (t_spawn - t_kill)  # the longest the server can have been up meanwhile
        assert clock_after["left_ms"][running] <= left_before
        assert clock_after["left_ms"][running] >= left_before - 1000 * (up + 1.5)  # 1 s heartbeat, 0.5 s slack

        async def play_on():
            for game in (code, untimed):
                start = a.games[game].observation.ply
                for ply in range(start + 1, start + 5):
                    c = mover((a, b), game)
                    await c.play(game, str(rng.choice(c.games[game].observation.legal_moves)))
                    await settle((a, b), game, ply)
                await a.resign(game)
                for c in (a, b):
                    view = await c.wait_for(game, lambda g: g.record is not None, 30)
                    assert view.record["moves"] == list(view.observation.moves)
                assert len(a.games[game].record["moves"]) == start + 4
            await a.close()
            await b.close()

        lt.run(play_on(), timeout=60)
    finally:
        proc.kill()
        proc.wait(30)
        lt.close()
