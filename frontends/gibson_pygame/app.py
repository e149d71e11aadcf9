"""The window and its main loop: one current scene, 60 frames a second, F11 for full screen.

``App.step(dt)`` runs one frame (events, update, draw); tests post events and call it directly, with
``sync_ai=True`` so the computer answers at once instead of in a thread.
"""

from __future__ import annotations

import pygame

from . import theme
from .settings import Settings
from .sound import Sounds

DEFAULT_SIZE = (1280, 800)


class App:
    """The running front end."""

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, sync_ai: bool = False, fps: int = 60,
                 ai_process: bool | None = None, animate: bool = True, sound: bool = True):
        pygame.display.init()
        pygame.font.init()
        self.settings = Settings.load()  # the player's settings from the Gibson folder
        theme.set_palette(self.settings.palette)
        self.animate = animate  # False: no animation whatever the settings say (tests, screenshots)
        self.sounds = Sounds(self.settings) if sound else None  # silent without an audio device
        pygame.display.set_caption("Gibson")
        self.window_size = size
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.clock = pygame.time.Clock()
        self.fps = fps
        self.sync_ai = sync_ai
        self.ai_process = (not sync_ai) if ai_process is None else ai_process  # the computer in its own process
        self.session = None  # the game being played (closed when another begins)
        self.scene = None
        self.running = True
        self.fullscreen = False
        pygame.key.set_repeat(300, 40)

    @property
    def animation_factor(self) -> float:
        """How long animations last relative to normal; 0 when they are off."""
        return self.settings.animation_factor if self.animate else 0.0

    def play_sound(self, name: str) -> None:
        """Play a sound effect (``move``, ``fight``, ``blast``, ``win``) if sound is on and there is a device."""
        if self.sounds is not None:
            self.sounds.play(name)

    def open_settings(self) -> None:
        """The settings dialog over the current scene (F2)."""
        from .scenes.settings import SettingsDialog

        scene = self.scene
        if scene is not None and scene.modal is None:
            scene.open_modal(SettingsDialog(self, lambda: scene.resize(self.screen.get_size())))

    def switch(self, scene) -> None:
        """Make ``scene`` current (``on_exit`` of the old one, ``resize`` and ``on_enter`` of the new)."""
        if self.scene is not None:
            self.scene.on_exit()
        self.scene = scene
        scene.resize(self.screen.get_size())
        scene.on_enter()

    def toggle_fullscreen(self) -> None:
        """Between a resizable window and full screen."""
        self.fullscreen = not self.fullscreen
        try:
            if self.fullscreen:
                self.window_size = self.screen.get_size()
                self.screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                self.screen = pygame.display.set_mode(self.window_size, pygame.RESIZABLE)
        except pygame.error:
            self.fullscreen = False
        if self.scene is not None:
            self.scene.resize(self.screen.get_size())

    def handle(self, event) -> None:
        """App-wide keys and window events, then the scene."""
        if event.type == pygame.QUIT:
            ask = getattr(self.scene, "confirm_quit", None)
            if ask is None or not ask():  # a game in progress asks first; a second close quits
                self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.screen = pygame.display.get_surface()
            self.scene.resize(self.screen.get_size())
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F2 and self.scene.modal is None:
            self.open_settings()
            return
        self.scene.dispatch(event)

    def step(self, dt: float = 1 / 60) -> None:
        """One frame: handle queued events, advance the scene by ``dt`` seconds, draw, flip."""
        for event in pygame.event.get():
            self.handle(event)
            if not self.running:
                return
        self.scene.update(dt)
        self.screen.fill(theme.BACKGROUND)
        self.scene.render(self.screen)
        pygame.display.flip()

    def run(self) -> None:
        """The main loop until the window closes."""
        while self.running:
            dt = self.clock.tick(self.fps) / 1000.0
            self.step(dt)
        if self.session is not None:
            self.session.close()
        pygame.quit()


def run(variant: str | None = None, opponent: str | None = None, level: str | None = None,
        options: dict | None = None) -> None:
    """Open the front end: the launcher, or straight to the set-up of ``variant``."""
    from .scenes.launcher import LauncherScene
    from .scenes.setup import start_game
    from .session import FRIEND, GameConfig

    app = App()
    if variant:
        config = GameConfig(variant, dict(options or {}), opponent or "random", level or "medium")
        if opponent in (None, "computer"):
            from .ai_worker import agent_names

            config.opponent = agent_names()[-1]
        elif opponent == FRIEND:
            config.opponent = FRIEND
        start_game(app, config)
    else:
        app.switch(LauncherScene(app))
    app.run()


def run_online(url: str, code: str | None = None, variant: str | None = None, options: dict | None = None) -> None:
    """Open the window on a game server: join game ``code``, or host ``variant`` (the online lobby when
    neither is given)."""
    from .scenes.online import OnlineLobbyScene
    from .session import FRIEND, GameConfig

    app = App()
    config = GameConfig(variant or "tri-tactics", dict(options or {}), FRIEND)
    lobby = OnlineLobbyScene(app, config, url)
    app.switch(lobby)
    if code:
        lobby.join(code)
    elif variant:
        lobby.host()
    app.run()
