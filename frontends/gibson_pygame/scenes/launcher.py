"""The launcher: every registered variant with its description and a thumbnail of its board, its
options, the opponent (a friend on this screen, or a computer agent and strength level) and the side."""

from __future__ import annotations

import pygame

from gibson_core import GibsonError, load_variant, variant_names
from gibson_core.plugins import load_errors

from .. import theme
from ..ai_worker import agent_names, levels, takes_level
from ..board import BoardView
from ..narrate import error_line
from ..session import FRIEND, GameConfig
from ..widgets import Button, PickDialog, Stepper, Toggle
from .base import Scene
from .learning import learning_buttons


class LauncherScene(Scene):
    """Choose a game, its options and an opponent; Start opens the set-up screen."""

    def __init__(self, app, config: GameConfig | None = None):
        super().__init__(app)
        self.names = variant_names()
        self.errors: dict[str, str] = {}
        self.config = config or self._remembered()
        self.variant = None
        self.thumb: BoardView | None = None
        self.thumb_rect = pygame.Rect(0, 0, 0, 0)
        self.option_widgets: list = []
        self.message = ""  # the outcome of Load game, shown above its button
        self.select(self.config.variant)

    def select(self, name: str) -> None:
        """Show variant ``name`` (keeping the options when it is the same game)."""
        if name != self.config.variant:
            self.config.options = {}
        self.config.variant = name
        try:
            self.variant = load_variant(name, self.config.options or None)
        except GibsonError as exc:
            self.variant = None
            self.errors[name] = str(exc)
        self.thumb = BoardView(self.variant, labels=False) if self.variant else None
        if self.variant and self.config.human not in self.variant.players:
            self.config.human = self.variant.players[0]
        self.resize(self.size)

    def _set_option(self, name: str, value) -> None:
        base = load_variant(self.config.variant).options.get(name)
        if value == base:
            self.config.options.pop(name, None)
        else:
            self.config.options[name] = value
        self.select(self.config.variant)

    def _set(self, attr: str, value) -> None:
        setattr(self.config, attr, value)
        self.resize(self.size)

    def _remembered(self) -> GameConfig:
        """The launcher's last choices from the settings (variant, opponent, level), where still valid."""
        settings = getattr(self.app, "settings", None)
        variant = settings.variant if settings and settings.variant in self.names else None
        opponent = settings.opponent if settings and settings.opponent in (FRIEND, *agent_names()) else None
        level = settings.level if settings and settings.level in levels() else "medium"
        return GameConfig(variant or (self.names[0] if self.names else ""), opponent=opponent or _default_agent(),
                          level=level)

    def remember(self) -> None:
        """Keep this game's choices for the next time the launcher opens."""
        settings = getattr(self.app, "settings", None)
        if settings is not None:
            settings.variant, settings.opponent, settings.level = (self.config.variant, self.config.opponent,
                                                                   self.config.level)
            settings.save()

    def start(self) -> None:
        """Go to the set-up screen with the chosen configuration."""
        from .setup import start_game

        self.remember()
        start_game(self.app, self.config)

    def play_online(self) -> None:
        """Host this game on a server, or join one (scenes/online.py)."""
        from .online import OnlineLobbyScene

        self.app.switch(OnlineLobbyScene(self.app, self.config))

    def load_game(self) -> None:
        """Continue a saved game, against the opponent chosen here."""
        from .. import storage
        from ..session import Session
        from .play import PlayScene

        def pick(name: str) -> None:
            path = storage.game_path(name)
            try:
                session = Session.load(path, self.config, self.app.sync_ai, self.app.ai_process)
            except (GibsonError, OSError) as exc:
                self.message = f"cannot load {name}: {error_line(exc, path)}"
                return
            PlayScene.begin(self.app, session)
        self.open_modal(PickDialog("Continue a saved game", storage.game_names(), pick))

    def resize(self, size) -> None:
        super().resize(size)
        w, h = size
        self.buttons = []
        y = 70
        for name in self.names:
            b = Button(name, lambda n=name: self.select(n))
            b.rect = pygame.Rect(20, y, 260, 40)
            b.selected = name == self.config.variant
            self.buttons.append(b)
            y += 48
        x = 310
        right = w - 20
        self.thumb_rect = pygame.Rect(x, 160, min(360, (right - x) // 2), min(360, h - 330))
        if self.thumb:
            self.thumb.fit(self.thumb_rect)
        ox = self.thumb_rect.right + 30
        oy = 160
        self.option_widgets = []
        if self.variant:
            for name, spec in self.variant.option_specs.items():
                value = self.variant.options.get(name)
                if isinstance(value, bool) or isinstance(spec.get("default"), bool):
                    t = Toggle(name, bool(value), lambda v, n=name: self._set_option(n, v))
                    t.rect = pygame.Rect(ox, oy, min(320, right - ox), 36)
                    self.buttons.append(t)
                elif isinstance(value, int):
                    s = Stepper(name, value, lambda v, n=name: self._set_option(n, v), step=_step(value))
                    s.place(pygame.Rect(ox, oy, min(320, right - ox), 36))
                    self.option_widgets.append(s)
                    self.buttons.extend([s.minus, s.plus])
                oy += 46
        oy += 20
        self.opponent_y = oy
        choices = [(FRIEND, "A friend (hot seat)")] + [(a, f"Computer: {a}") for a in agent_names()]
        for i, (value, label) in enumerate(choices):
            b = Button(label, lambda v=value: self._set("opponent", v))
            b.rect = pygame.Rect(ox, oy + 30 + i * 42, min(320, right - ox), 36)
            b.selected = self.config.opponent == value
            self.buttons.append(b)
        oy += 30 + len(choices) * 42 + 10
        if self.config.vs_computer and self.variant:
            for i, level in enumerate(levels() if takes_level(self.config.opponent) else []):
                b = Button(level, lambda v=level: self._set("level", v))
                b.rect = pygame.Rect(ox + i * 108, oy, 100, 34)
                b.selected = self.config.level == level
                self.buttons.append(b)
            oy += 44
            for i, player in enumerate(self.variant.players):
                b = Button(f"play {player}", lambda v=player: self._set("human", v))
                b.rect = pygame.Rect(ox + i * 160, oy, 150, 34)
                b.selected = self.config.human == player
                self.buttons.append(b)
        start = Button("Start", self.start, enabled=self.variant is not None, key=pygame.K_RETURN,
                       reason=self.errors.get(self.config.variant, ""))
        start.rect = pygame.Rect(w - 220, h - 70, 200, 50)
        self.buttons.append(start)
        load = Button("Load game", self.load_game)
        load.rect = pygame.Rect(w - 440, h - 70, 200, 50)
        self.buttons.append(load)
        self.buttons.extend(learning_buttons(self, w, h))
        settings = Button("Settings (F2)", lambda: self.app.open_settings())
        settings.rect = pygame.Rect(w - 660, h - 70, 200, 50)
        self.buttons.append(settings)
        self.load_rect = load.rect
        online = Button("Play online", self.play_online, enabled=self.variant is not None)
        online.rect = pygame.Rect(w - 880, h - 70, 200, 50)
        self.buttons.append(online)

    def handle_event(self, event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN) and self.names:
            i = self.names.index(self.config.variant) if self.config.variant in self.names else 0
            i = (i + (1 if event.key == pygame.K_DOWN else -1)) % len(self.names)
            self.select(self.names[i])

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        pygame.draw.rect(surface, theme.PANEL, (0, 0, 300, h))
        theme.blit_text(surface, "Gibson", (20, 18), 40, theme.ACCENT, True)
        if self.message:
            theme.blit_fit(surface, self.message, (w - 20, self.load_rect.top - 8), 18, w - 330, theme.BAD,
                           anchor="bottomright")
        broken = load_errors()  # third-party plugins that failed to load: said, not hidden
        if broken:
            theme.blit_wrapped(surface, "Not loaded: " + "; ".join(str(e) for e in broken),
                               pygame.Rect(20, h - 120, 260, 110), 16, theme.BAD)
        if not self.names:
            theme.blit_text(surface, "No variant is installed.", (310, 40), 28)
            return
        v = self.variant
        if v is None:
            theme.blit_text(surface, self.config.variant, (310, 20), 36, bold=True)
            theme.blit_wrapped(surface, self.errors.get(self.config.variant, ""), pygame.Rect(310, 70, w - 330, 400),
                               20, theme.BAD)
            return
        theme.blit_text(surface, v.title, (310, 20), 40, bold=True)
        summary = f"{v.grid.files}x{v.grid.ranks} board, {v.piece_count} pieces a side, {len(v.types)} kinds"
        theme.blit_text(surface, summary, (310, 58), 20, theme.TEXT_DIM)
        theme.blit_wrapped(surface, " ".join(str(v.description).split()), pygame.Rect(310, 84, w - 330, 70), 20)
        self.thumb.draw_board(surface)
        ox = self.thumb_rect.right + 30
        theme.blit_text(surface, "Options", (ox, 136), 22, theme.ACCENT)
        for widget in self.option_widgets:
            widget.draw(surface)
        theme.blit_text(surface, "Opponent", (ox, self.opponent_y + 4), 22, theme.ACCENT)
        y = self.thumb_rect.bottom + 16
        for name, spec in v.option_specs.items():
            text = f"{name}: {spec.get('description', '')}"
            y = theme.blit_wrapped(surface, text, pygame.Rect(310, y, self.thumb_rect.width + 10, h - y - 80), 17,
                                   theme.TEXT_DIM) + 4


def _default_agent() -> str:
    names = agent_names()
    return names[-1] if names else FRIEND


def _step(value: int) -> int:
    return 100 if value >= 100 or value == 0 else 10
