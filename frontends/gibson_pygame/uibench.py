"""Frame times of the play screen while the computer thinks (``gibson uibench`` / ``gibson bench --ui``).

The human's side plays instant random moves so that the computer is thinking for most of the run; each
frame's work (events, update, draw, flip) is timed, not the wait for the next 60 Hz tick. Frames that
began while the computer's thread was thinking are reported on their own.
"""

from __future__ import annotations

import random
import statistics
import time

from . import headless
from .ai_worker import agent_names


def _stats(times: list[float]) -> dict:
    if not times:
        return {"frames": 0, "median_ms": 0.0, "p95_ms": 0.0, "worst_ms": 0.0}
    ordered = sorted(times)
    return {"frames": len(times), "median_ms": statistics.median(times),
            "p95_ms": ordered[int(0.95 * (len(ordered) - 1))], "worst_ms": ordered[-1]}


def measure_frames(variant: str, frames: int = 600, size: tuple[int, int] = (1280, 800), agent: str | None = None,
                   level: str = "medium", seed: int = 0, pace: bool = True, process: bool = True) -> dict:
    """Run the play screen for ``frames`` frames (new games as games end); frame times in milliseconds,
    for all frames and for the frames during which the computer was thinking."""
    headless()
    from .app import App
    from .scenes.play import PlayScene
    from .session import GameConfig, Session

    app = App(size, ai_process=process)
    app.settings.animation = "normal"  # measured with the animations running, whatever the user chose
    agent = agent or agent_names()[-1]
    rng = random.Random(seed)
    all_times, thinking, computer_moves, games = [], [], 0, 0
    scene = session = None
    while len(all_times) < frames:
        if scene is None or app.scene is not scene:
            config = GameConfig(variant, opponent=agent, level=level, seed=seed + games)
            config.human = config.load().players[1]  # the computer moves first
            if session is not None:
                session.close()
            session = Session.random(config, seed + games, ai_process=process)
            scene = PlayScene(app, session, config.human)
            app.switch(scene)
            games += 1
        if scene.banner is not None:
            scene.banner.left = 0
        if scene.my_turn:
            scene.play(rng.choice(scene.obs.legal_moves))
        before = session.ply
        busy = session.worker.busy
        t0 = time.perf_counter()
        app.step(1 / 60)
        elapsed = (time.perf_counter() - t0) * 1000
        all_times.append(elapsed)
        if busy:
            thinking.append(elapsed)
        computer_moves += session.ply > before
        if pace:
            app.clock.tick(60)
    session.close()
    return {"variant": variant, "agent": agent, "level": level, "size": size, "games": games,
            "worker": "process" if process else "thread",
            "computer_moves": computer_moves, "all": _stats(all_times), "thinking": _stats(thinking),
            "failure": scene.message if "computer" in scene.message else ""}


def format_result(r: dict) -> str:
    """A few lines for the terminal."""
    w, h = r["size"]
    lines = [f"{r['variant']}: play screen {w}x{h} against {r['agent']} ({r['level']}, thinking in a {r['worker']}), "
             f"{r['computer_moves']} computer moves in {r['games']} game(s)"]
    for label in ("thinking", "all"):
        s = r[label]
        what = "while the computer thinks" if label == "thinking" else "every frame"
        lines.append(f"  {what:<26} {s['frames']:>5} frames: median {s['median_ms']:.2f} ms, "
                     f"p95 {s['p95_ms']:.2f} ms, worst {s['worst_ms']:.2f} ms")
    if r["failure"]:
        lines.append(f"  note: {r['failure']}")
    return "\n".join(lines)
