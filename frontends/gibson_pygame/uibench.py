"""Frame times of the play screen while the computer thinks (``gibson uibench`` / ``gibson bench --ui``).

The human's side plays instant random moves so that the computer is thinking for most of the run; each
frame's work (events, update, draw, flip) is timed, not the wait for the next 60 Hz tick.
"""

from __future__ import annotations

import random
import statistics
import time

from . import headless
from .ai_worker import agent_names


def measure_frames(variant: str, frames: int = 600, size: tuple[int, int] = (1280, 800), agent: str | None = None,
                   level: str = "medium", seed: int = 0, pace: bool = True) -> dict:
    """Run the play screen for ``frames`` frames; median and worst frame time in milliseconds."""
    headless()
    from .app import App
    from .scenes.play import PlayScene
    from .session import GameConfig, Session

    app = App(size)
    agent = agent or agent_names()[-1]
    config = GameConfig(variant, opponent=agent, level=level, seed=seed)
    variant_obj = config.load()
    config.human = variant_obj.players[1]  # the computer moves first
    session = Session.random(config, seed)
    scene = PlayScene(app, session, config.human)
    app.switch(scene)
    rng = random.Random(seed)
    times, thinking_frames, computer_moves = [], 0, 0
    for _ in range(frames):
        if app.scene is not scene:
            break
        if scene.banner is not None:
            scene.banner.left = 0
        if scene.my_turn:
            scene.play(rng.choice(scene.obs.legal_moves))
        before = session.ply
        busy = session.worker is not None and session.worker.busy
        t0 = time.perf_counter()
        app.step(1 / 60)
        times.append((time.perf_counter() - t0) * 1000)
        thinking_frames += busy
        computer_moves += session.ply > before
        if pace:
            app.clock.tick(60)
    if session.worker is not None:
        session.worker.cancel()
    return {"variant": variant, "agent": agent, "level": level, "frames": len(times),
            "median_ms": statistics.median(times), "worst_ms": max(times),
            "p95_ms": sorted(times)[int(0.95 * (len(times) - 1))], "thinking_frames": thinking_frames,
            "computer_moves": computer_moves}


def format_result(r: dict) -> str:
    """One paragraph for the terminal."""
    return (f"{r['variant']} play screen 1280x800 vs {r['agent']} ({r['level']}): {r['frames']} frames, "
            f"{r['thinking_frames']} while the computer was thinking, {r['computer_moves']} computer moves\n"
            f"  frame time median {r['median_ms']:.2f} ms, p95 {r['p95_ms']:.2f} ms, worst {r['worst_ms']:.2f} ms")
