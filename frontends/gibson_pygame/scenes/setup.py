"""The set-up screen: the player's zone highlighted, pieces placed from a tray by click or drag and drop,
swaps, random / clear / save / load, the count left of each type, and Start only when the set-up is valid."""

from __future__ import annotations

import pygame

from gibson_core import GibsonError
from gibson_core.seeding import setup_rng
from gibson_core.setup import load_setup, random_setup, save_setup, setup_problems

from .. import storage, theme
from ..ai_worker import make_opponent
from ..board import BoardView, draw_piece, home_at_top
from ..narrate import error_line
from ..widgets import Button, NameDialog, PickDialog, tooltip
from .base import Scene
from .handover import HandoverScene

PANEL_WIDTH = 340


def start_game(app, config, setups: dict | None = None) -> None:
    """Begin set-up for the first human player (after a hand-over screen in a hot-seat game)."""
    variant = config.load()
    humans = config.humans(variant)
    _next_setup(app, config, variant, humans, dict(setups or {}))


def _next_setup(app, config, variant, humans, setups) -> None:
    waiting = [p for p in humans if p not in setups]
    if waiting:
        player = waiting[0]
        scene = SetupScene(app, config, variant, player, setups)
        if len(humans) > 1:
            app.switch(HandoverScene(app, player, variant.players, lambda: app.switch(scene),
                                     note=f"{player} sets up their pieces"))
        else:
            app.switch(scene)
        return
    from ..session import Session
    from .play import PlayScene

    for player in variant.players:
        if player not in setups:
            setups[player] = make_opponent(config.opponent, config.level).choose_setup(
                variant, player, setup_rng(config.seed, player))
    session = Session(config, setups, sync_ai=app.sync_ai, ai_process=app.ai_process)
    PlayScene.begin(app, session)


class SetupScene(Scene):
    """Place one player's pieces."""

    def __init__(self, app, config, variant, player: str, setups: dict):
        super().__init__(app)
        self.config, self.variant, self.player, self.setups = config, variant, player, setups
        self.view = BoardView(variant, flipped=home_at_top(variant, player))
        self.allowed = set(variant.setup_squares[player])
        self.setup: dict[str, str] = {}
        self.held: tuple | None = None  # ("tray", type id) or ("square", square name)
        self.press: tuple | None = None  # where the mouse went down: a held-like source
        self.tray_rects: dict[str, pygame.Rect] = {}
        self.message = ""
        self.message_bad = False
        self.rng = setup_rng(config.seed, player)

    # -- model -------------------------------------------------------------------------------------
    def remaining(self, type_id: str) -> int:
        """Pieces of a type still in the tray."""
        return self.variant.type_of(type_id).count - sum(1 for t in self.setup.values() if t == type_id)

    def problems(self) -> list[str]:
        """Why the set-up cannot start yet (empty when it can)."""
        left = sum(self.remaining(t.id) for t in self.variant.types)
        if left:
            return [f"{left} piece{'s' if left != 1 else ''} still to place"]
        return setup_problems(self.variant, self.player, self.setup)

    def place(self, type_id: str, square: str) -> None:
        """Put a piece from the tray on a square (a piece already there goes back to the tray)."""
        if square in self._allowed_names() and self.remaining(type_id) > 0:
            self.setup[square] = type_id

    def move(self, origin: str, square: str) -> None:
        """Move a placed piece, swapping with the piece on the target square."""
        if square not in self._allowed_names() or origin not in self.setup:
            return
        mine = self.setup.pop(origin)
        if square in self.setup:
            self.setup[origin] = self.setup[square]
        self.setup[square] = mine

    def _allowed_names(self) -> set[str]:
        names = self.variant.grid.names
        return {names[sq] for sq in self.allowed}

    def randomise(self) -> None:
        """A sensible random set-up, made the way the computer sets up (pieces in their element, the Flag and
        other vital pieces screened): the AI package's ``planned_setup``."""
        from gibson_core.ai.heuristic import planned_setup

        self.setup = planned_setup(self.variant, self.player, self.rng)
        self.held = None

    def shuffle(self) -> None:
        """A uniformly random legal set-up (any piece on any allowed square)."""
        self.setup = random_setup(self.variant, self.player, self.rng)
        self.held = None

    def clear(self) -> None:
        """Everything back to the tray."""
        self.setup = {}
        self.held = None

    def save(self) -> None:
        """Ask for a name and save the set-up under ``~/.gibson/setups/<variant>/``."""
        def done(name: str) -> None:
            try:
                path = storage.setup_path(self.variant.name, name)
                save_setup(path, self.variant, self.player, self.setup)
                self.say(f"saved as {name}")
            except (GibsonError, OSError) as exc:
                self.say(f"could not save: {error_line(exc, getattr(exc, 'filename', None), name)}", bad=True)
        self.open_modal(NameDialog("Save set-up as", f"{self.player}-{len(storage.setup_names(self.variant.name)) + 1}",
                                   done))

    def load(self) -> None:
        """Pick a saved set-up (mirrored when it was made for the other side)."""
        def pick(name: str) -> None:
            path = storage.setup_path(self.variant.name, name)
            try:
                _owner, self.setup = load_setup(path, self.variant, self.player)
                self.say(f"loaded {name}")
            except (GibsonError, OSError) as exc:
                self.say(error_line(exc, path, f"set-up {name}"), bad=True)
        self.open_modal(PickDialog("Load a set-up", storage.setup_names(self.variant.name), pick))

    def say(self, text: str, bad: bool = False) -> None:
        """A one-line message under the buttons (an error in red)."""
        self.message, self.message_bad = text, bad

    def start(self) -> None:
        """Accept the set-up and go on (next player's set-up, or the game)."""
        if self.problems():
            return
        self.setups[self.player] = dict(self.setup)
        _next_setup(self.app, self.config, self.variant, self.config.humans(self.variant), self.setups)

    def back(self) -> None:
        """Return to the launcher."""
        from .launcher import LauncherScene

        self.app.switch(LauncherScene(self.app, self.config))

    # -- layout and input --------------------------------------------------------------------------
    def resize(self, size) -> None:
        super().resize(size)
        w, h = size
        self.view.fit(pygame.Rect(10, 10, w - PANEL_WIDTH - 20, h - 20))
        px = w - PANEL_WIDTH + 10
        bw = (PANEL_WIDTH - 30) // 2
        specs = [("Random", self.randomise, pygame.K_r), ("Shuffle", self.shuffle, None), ("Clear", self.clear, None),
                 ("Save", self.save, None), ("Load", self.load, None), ("Back", self.back, pygame.K_ESCAPE)]
        self.buttons = []
        for i, (label, action, key) in enumerate(specs):
            b = Button(label, action, key=key)
            b.rect = pygame.Rect(px + (i % 2) * (bw + 10), 60 + (i // 2) * 42, bw, 36)
            self.buttons.append(b)
        self.start_button = Button("Start", self.start, key=pygame.K_RETURN)
        self.start_button.rect = pygame.Rect(px, h - 60, PANEL_WIDTH - 20, 46)
        self.buttons.append(self.start_button)
        self.message_y = 60 + 3 * 42 + 2
        top = self.message_y + 26
        row = max(22, min(34, (h - 130 - top) // max(1, len(self.variant.types))))
        self.tray_rects = {t.id: pygame.Rect(px, top + i * row, PANEL_WIDTH - 20, row - 2)
                           for i, t in enumerate(self.variant.types)}

    def _source_at(self, pos) -> tuple | None:
        for tid, rect in self.tray_rects.items():
            if rect.collidepoint(pos) and self.remaining(tid) > 0:
                return ("tray", tid)
        sq = self.view.square_at(pos)
        if sq is not None and self.variant.grid.names[sq] in self.setup:
            return ("square", self.variant.grid.names[sq])
        return None

    def handle_event(self, event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.press = self._source_at(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            sq = self.view.square_at(event.pos)
            target = self.variant.grid.names[sq] if sq is not None else None
            press, self.press = self.press, None
            if press is not None and press != ("square", target) and self._source_at(event.pos) != press:
                self._drop(press, target)  # a drag ended somewhere else
            else:
                self._click(event.pos, target)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            sq = self.view.square_at(event.pos)
            if sq is not None:
                self.setup.pop(self.variant.grid.names[sq], None)
            self.held = None

    def _drop(self, source: tuple, target: str | None) -> None:
        kind, value = source
        if target is None:
            if kind == "square":
                self.setup.pop(value, None)  # dragged off the board: back to the tray
        elif kind == "tray":
            self.place(value, target)
        else:
            self.move(value, target)
        self.held = None

    def _click(self, pos, target: str | None) -> None:
        for tid, rect in self.tray_rects.items():
            if rect.collidepoint(pos):
                self.held = ("tray", tid) if self.remaining(tid) > 0 else None
                return
        if target is None:
            self.held = None
            return
        if self.held is None:
            self.held = ("square", target) if target in self.setup else None
        elif self.held[0] == "tray":
            self.place(self.held[1], target)
            if self.remaining(self.held[1]) == 0:
                self.held = None
        elif self.held == ("square", target):
            self.held = None
        else:
            self.move(self.held[1], target)
            self.held = None

    # -- drawing -----------------------------------------------------------------------------------
    def update(self, dt: float) -> None:
        problems = self.problems()
        self.start_button.enabled = not problems
        self.start_button.reason = problems[0] if problems else ""

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        v, view = self.variant, self.view
        view.draw_board(surface)
        view.shade(surface, set(range(v.grid.size)) - self.allowed, theme.OUTSIDE_ZONE)
        view.ring(surface, self.allowed, theme.mix(theme.player_color(v.players, self.player), theme.TEXT, 0.3), 1)
        dragging = self.press if self.press and pygame.mouse.get_pressed()[0] else None
        names = v.grid.names
        for square, tid in self.setup.items():
            if dragging == ("square", square):
                continue
            rect = view.square_rect(v.grid.index[square]).inflate(-view.cell // 8, -view.cell // 8)
            draw_piece(surface, v, rect, None, self.player, type_id=tid)
        if self.held and self.held[0] == "square":
            view.ring(surface, [v.grid.index[self.held[1]]], theme.HIGHLIGHT_SELECT)
        hover = view.square_at(pygame.mouse.get_pos())
        if hover is not None and hover in self.allowed:
            view.ring(surface, [hover], theme.TEXT, 2)
        self._draw_panel(surface, w, h)
        if dragging:
            tid = dragging[1] if dragging[0] == "tray" else self.setup.get(dragging[1])
            if tid:
                r = pygame.Rect(0, 0, view.cell, view.cell)
                r.center = pygame.mouse.get_pos()
                draw_piece(surface, v, r, None, self.player, type_id=tid)
        if hover is not None and names[hover] in self.setup:
            tooltip(surface, v.type_of(self.setup[names[hover]]).name)

    def _draw_panel(self, surface, w, h) -> None:
        v = self.variant
        px = w - PANEL_WIDTH
        pygame.draw.rect(surface, theme.PANEL, (px, 0, PANEL_WIDTH, h))
        theme.blit_text(surface, f"{self.player} set-up", (px + 10, 14), 30, theme.player_color(v.players, self.player),
                        True)
        theme.blit_text(surface, v.title, (px + 10, 40), 18, theme.TEXT_DIM)
        for t in v.types:
            rect = self.tray_rects[t.id]
            left = self.remaining(t.id)
            if self.held == ("tray", t.id):
                pygame.draw.rect(surface, theme.mix(theme.PANEL, theme.ACCENT, 0.35), rect, border_radius=4)
            icon = pygame.Rect(rect.left + 2, rect.top + 1, rect.height - 2, rect.height - 2)
            draw_piece(surface, v, icon, None, self.player, type_id=t.id)
            fg = theme.TEXT if left else theme.TEXT_DIM
            size = max(14, rect.height - 12)
            theme.blit_text(surface, t.name, (icon.right + 8, rect.centery), size, fg, anchor="midleft")
            theme.blit_text(surface, f"{left}/{t.count}", (rect.right - 6, rect.centery), size,
                            theme.GOOD if not left else fg, anchor="midright")
        if self.message:
            theme.blit_fit(surface, self.message, (px + 10, self.message_y), 18, PANEL_WIDTH - 20,
                           theme.BAD if self.message_bad else theme.TEXT_DIM, anchor="topleft")
        problems = self.problems()
        note = problems[0] if problems else "Ready: press Start"
        theme.blit_wrapped(surface, note, pygame.Rect(px + 10, h - 110, PANEL_WIDTH - 20, 46), 18,
                           theme.BAD if problems else theme.TEXT_DIM)

