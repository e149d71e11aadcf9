"""The Lessons screen: a variant's lessons (``lessons.yaml`` beside its rules, :mod:`gibson_core.lessons`) on
the real board. The player makes the move the lesson asks for with the play screen's own clicks; the right
move is played and the reveal and the panel show what happened in the engine's words; any other move is not
played, and the lesson's hint is shown for a retry.
"""

from __future__ import annotations

import pygame

from gibson_core import GibsonError
from gibson_core.lessons import Lesson, deciding_rule, load_lessons, reasons

from .. import theme
from ..session import GameConfig, Session
from ..widgets import PickDialog
from .play import PlayScene


class LessonMiss(GibsonError):
    """A legal move that is not the one the lesson asks for (it is not played)."""


class LessonSession(Session):
    """A session at a lesson's position, the learner's side only, no computer; only the lesson's moves play."""

    def __init__(self, lesson: Lesson):
        state = lesson.start()
        super().__init__(GameConfig(lesson.variant), {}, state)
        self.lesson = lesson
        self.humans = (state.player,)
        self.events: tuple = ()  # what the right move did
        self.rule = ""  # the rule that decided its fight, in words

    def play(self, move, by: str | None = None) -> tuple:
        """Play ``move`` (submitted ``by`` the learner) when the lesson asks for it; LessonMiss (nothing
        played) for any other move."""
        ok, events = self.lesson.attempt(self._state, move, by)
        if not ok:
            raise LessonMiss(f"{move} is not the move this lesson asks for")
        self.events = events
        self.rule = deciding_rule(self._state, events)
        return events

    def undo_plan(self, player: str) -> tuple[int, str]:
        """Lessons are retried, not undone (the Undo button says so)."""
        return 0, "a lesson is retried, not undone"

    def undo(self, player: str | None = None) -> bool:
        """Lessons are retried, not undone."""
        return False


class LessonScene(PlayScene):
    """One lesson of a variant's course, with Previous, Next, Retry and the list of lessons."""

    def __init__(self, app, variant_name: str, index: int = 0, lessons: list | None = None, back=None):
        self.lessons = lessons if lessons is not None else load_lessons(variant_name)
        self.index = max(0, min(index, len(self.lessons) - 1))
        self.back = back  # the launcher's GameConfig to return to
        self.missed = False
        session = LessonSession(self.lessons[self.index])
        super().__init__(app, session, session.humans[0])

    @property
    def lesson(self) -> Lesson:
        """The lesson on screen."""
        return self.lessons[self.index]

    def goto(self, index: int) -> None:
        """Open lesson ``index`` (wrapping around the course)."""
        self.app.switch(LessonScene(self.app, self.lesson.variant, index % len(self.lessons), self.lessons,
                                    self.back))

    def retry(self) -> None:
        """Start the lesson again."""
        self.goto(self.index)

    def pick(self) -> None:
        """Choose a lesson from the list."""
        titles = [f"{i + 1}. {lesson.title}" for i, lesson in enumerate(self.lessons)]
        self.open_modal(PickDialog("Lessons", titles, lambda t: self.goto(titles.index(t))))

    def menu(self) -> None:
        """Back to the launcher."""
        from .launcher import LauncherScene

        self.app.switch(LauncherScene(self.app, self.back))

    def commands(self) -> list:
        return [("Retry (R)", self.retry, pygame.K_r), ("< Previous", lambda: self.goto(self.index - 1), pygame.K_LEFT),
                ("Next >", lambda: self.goto(self.index + 1), pygame.K_RIGHT), ("Lessons", self.pick, pygame.K_l),
                ("Table (T)", self.show_table, pygame.K_t), ("Rules (F1)", self.show_rules, pygame.K_F1),
                ("Menu", self.menu, None)]

    def play(self, move) -> None:
        """Try a move: the right one plays and shows what happened; another gets the hint."""
        super().play(move)
        if self.session.events:
            self.missed = False
        elif self.message:
            self.missed = True
            self.message = "Not that move: read the hint and try again"
            self.select(None)

    def status_text(self) -> str:
        """The play screen's status, or that the lesson is done once its move is played."""
        return "Lesson done" if self.session.events else super().status_text()

    def game_over(self) -> None:
        """A lesson that wins the game stays on screen: the panel says so."""

    def draw_panel(self, surface: pygame.Surface, top: int) -> None:
        """The lesson instead of the move log: title, what to try, then the hint or what happened."""
        p = self.panel
        x, width = p.left + 12, p.width - 24
        area = pygame.Rect(x, top, width, p.bottom - top - 10)
        lesson = self.lesson
        theme.blit_text(surface, f"Lesson {self.index + 1} of {len(self.lessons)}", (x, area.top), 18, theme.TEXT_DIM)
        y = theme.blit_wrapped(surface, lesson.title, pygame.Rect(x, area.top + 22, width, 60), 24, theme.ACCENT) + 6
        y = theme.blit_wrapped(surface, lesson.prompt, pygame.Rect(x, y, width, area.bottom - y), 19) + 12
        if self.session.events:
            theme.blit_text(surface, "What happened", (x, y), 20, theme.GOOD)
            y += 24
            for line in reasons(self.session.events) or ["The move was made; no rule removed or revealed anything."]:
                y = theme.blit_wrapped(surface, line, pygame.Rect(x + 8, y, width - 8, area.bottom - y), 19) + 4
            if self.session.rule:
                y = theme.blit_wrapped(surface, f"Decided by {self.session.rule}",
                                       pygame.Rect(x + 8, y + 2, width - 8, area.bottom - y), 18, theme.ACCENT) + 4
            if lesson.note:
                y = theme.blit_wrapped(surface, lesson.note, pygame.Rect(x, y + 6, width, area.bottom - y), 18,
                                       theme.TEXT_DIM) + 6
            theme.blit_text(surface, "Next > (right arrow) for the next lesson", (x, y + 8), 18, theme.TEXT_DIM)
        elif self.missed:
            theme.blit_text(surface, "Hint", (x, y), 20, theme.BAD)
            theme.blit_wrapped(surface, lesson.hint, pygame.Rect(x + 8, y + 24, width - 8, area.bottom - y - 24), 19)


def open_lessons(app, variant_name: str, back=None) -> str:
    """Open the first lesson of a variant; returns "" or why there are none (a broken file is said, not hidden)."""
    try:
        lessons = load_lessons(variant_name)
    except GibsonError as exc:
        return str(exc)
    if not lessons:
        return f"{variant_name} has no lessons"
    app.switch(LessonScene(app, variant_name, 0, lessons, back))
    return ""
