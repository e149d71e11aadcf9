"""The window as a client of the game server, headless: host from the launcher, a remote client joins,
both set up, moves go both ways through the server, the opponent resigns and the window shows the full
reveal from the published record. The server runs in-process on an ephemeral port."""

import os

import pytest
from gibson_pygame.scenes.gameover import GameOverScene
from gibson_pygame.scenes.launcher import LauncherScene
from gibson_pygame.scenes.online import OnlineLobbyScene, OnlinePlayScene, OnlineSetupScene, WaitingScene
from gibson_pygame.session import FRIEND, GameConfig
from gibson_pygame.testing import UIDriver
from netharness import LoopThread, Served

from gibson_core.plugins import load_variant
from gibson_core.setup import random_setup


def caught_up(driver, ply: int) -> bool:
    """True once the play screen shows ``ply`` (a reveal banner is dismissed, as a player would)."""
    driver.scene.banner = None
    return driver.scene.obs.ply >= ply


@pytest.fixture
def served(tmp_path):
    lt = LoopThread()
    s = Served(lt, tmp_path / "games.sqlite3")
    yield s
    s.close()
    lt.close()


def test_the_window_hosts_and_plays_a_game_through_the_server(served, tmp_path, monkeypatch):
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    driver = UIDriver()
    driver.open(LauncherScene(driver.app, GameConfig("tri-tactics", opponent=FRIEND)))
    driver.click_button("Play online")
    assert isinstance(driver.scene, OnlineLobbyScene)
    driver.scene.url = served.url
    driver.scene.resize(driver.scene.size)
    driver.click_button("Host tri-tactics")
    assert isinstance(driver.scene, WaitingScene)
    session = driver.app.session
    remote = served.lt.run(served.client_async())
    game = served.lt.run(remote.join(session.code))
    driver.run_until(lambda: isinstance(driver.scene, OnlineSetupScene))
    driver.click_button("Random")
    driver.click_button("Start")
    v = load_variant("tri-tactics")
    served.lt.run(remote.submit_setup(game.id, random_setup(v, game.seat, 7)))
    driver.run_until(lambda: isinstance(driver.scene, OnlinePlayScene))
    labels = [b.label for b in driver.scene.buttons]
    assert "Undo" not in labels and "Resign" in labels and "Offer draw" in labels
    for ply in range(1, 5):
        scene = driver.scene
        if scene.my_turn:
            scene.play(scene.obs.legal_moves[0])
            served.lt.run(remote.wait_for(game.id, lambda g, n=ply: g.observation.ply >= n, 10))
        else:
            view = served.lt.run(remote.wait_for(game.id, lambda g: g.my_turn, 10))
            served.lt.run(remote.play(game.id, str(view.observation.legal_moves[0])))
        driver.run_until(lambda n=ply: caught_up(driver, n))
    assert driver.scene.obs.ply == 4 and driver.scene.obs.player == session.seat
    driver.app.screen.fill((0, 0, 0))
    driver.step()
    import pygame

    pygame.image.save(driver.app.screen, os.environ.get("GIBSON_ONLINE_SHOT", str(tmp_path / "online.png")))
    served.lt.run(remote.resign(game.id))
    driver.run_until(lambda: isinstance(driver.scene, GameOverScene))
    full = driver.scene.obs
    assert all(p.type is not None for p in full.pieces)  # the reveal, from the record published at the end
    assert driver.scene.session.result()[1] == f"{game.seat} resigned"
    served.lt.run(remote.close())
    session.close()
