"""Pictures of the learning screens for the docs, made by driving the real window headlessly:

    python -m gibson_pygame.learnshots docs/screenshots

writes ``rules.png``, ``value-table.png``, ``lesson.png``, ``lesson-done.png``, ``hint.png`` and
``review.png`` (saved games go to a temporary Gibson folder, never the user's).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path


def make(out_dir: str | Path) -> list[str]:
    """Render every learning screen into ``out_dir``; returns the files written."""
    os.environ["GIBSON_HOME"] = tempfile.mkdtemp(prefix="gibson-shots-")
    import pygame

    from gibson_core.lessons import load_lessons

    from . import storage
    from .scenes.launcher import LauncherScene
    from .scenes.play import PlayScene
    from .session import GameConfig, Session
    from .testing import UIDriver

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    d = UIDriver()

    def shot(name: str) -> None:
        d.hover((2, 2))
        written.append(d.screenshot(out / name))

    d.open(LauncherScene(d.app))
    d.click_button("tri-tactics")
    d.click_button("Rules (F1)")
    for _ in range(16):
        d.key(pygame.K_DOWN)
    shot("rules.png")

    session = Session.random(GameConfig("tri-tactics", opponent="random", human="blue"), seed=7, sync_ai=True)
    rng = random.Random(7)
    for _ in range(60):
        session.play(rng.choice(session.observation(session.to_move).legal_moves))
    PlayScene.begin(d.app, session)
    d.step()
    d.key(pygame.K_h)
    d.step()
    shot("hint.png")
    d.key(pygame.K_t)
    table = d.scene.modal
    d.hover((table.origin[0] - 20, table.origin[1] + 11 * table.cell + table.cell // 2))  # the Flying Boat's row
    written.append(d.screenshot(out / "value-table.png"))
    d.key(pygame.K_ESCAPE)

    lessons = load_lessons("tri-tactics")
    index = next(i for i, lesson in enumerate(lessons) if lesson.before)  # up the river
    from .scenes.lessons import LessonScene

    d.open(LessonScene(d.app, "tri-tactics", index, lessons))
    move = lessons[index].answers[0]
    d.click_square(move.origin)
    shot("lesson.png")
    index = next(i for i, lesson in enumerate(lessons) if lesson.title == "A ship on the river")
    d.open(LessonScene(d.app, "tri-tactics", index, lessons))
    move = lessons[index].answers[0]
    d.click_square(move.origin)
    d.click_square(move.dest)
    d.click_square(move.target)
    d.key(pygame.K_SPACE)
    d.step()
    shot("lesson-done.png")

    game = Session.random(GameConfig("lattaque"), seed=4)
    rng = random.Random(1)
    while game.result() is None and game.ply < 5000:
        game.play(rng.choice(game.observation(game.to_move).legal_moves))
    game.save(storage.game_path("example"))
    from .scenes.review import open_record

    open_record(d.app, storage.game_path("example"))
    d.step()
    for _ in range(120):
        d.key(pygame.K_RIGHT)
    shot("review.png")
    return written


if __name__ == "__main__":
    for path in make(sys.argv[1] if len(sys.argv) > 1 else "."):
        print(path)
