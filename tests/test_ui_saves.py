"""Saved games of the window: the computer's hidden set-up is sealed (twin games give the same readable
part), a resumed game is exact and keeps its seats, a changed or foreign file is refused with one line shown
where the user clicked, and saving to an unwritable folder says so instead of crashing."""

import json
import random

import pygame
import pytest
from gibson_pygame import savegame, storage
from gibson_pygame.scenes.gameover import GameOverScene
from gibson_pygame.scenes.launcher import LauncherScene
from gibson_pygame.scenes.play import PlayScene
from gibson_pygame.scenes.setup import start_game
from gibson_pygame.session import GameConfig, Session
from gibson_pygame.testing import UIDriver

from gibson_core import load_variant
from gibson_core.errors import RecordError
from gibson_core.setup import random_setup

VARIANT = "tri-tactics"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    return tmp_path


def computer_game(red_seed: int) -> Session:
    """Blue (human) against the computer (red) on the same squares, red's pieces shuffled among them by
    ``red_seed``; blue has made a first move."""
    variant = load_variant(VARIANT)
    red = random_setup(variant, "red", 2)
    types = sorted(red.values())
    random.Random(red_seed).shuffle(types)
    setups = {"blue": random_setup(variant, "blue", 1), "red": dict(zip(sorted(red), types, strict=True))}
    session = Session(GameConfig(VARIANT, opponent="random", seed=9), setups, sync_ai=True)
    obs = session.observation("blue")
    session.play(next(m for m in obs.legal_moves if m.target is None))
    return session


def test_a_save_against_the_computer_shows_only_the_players_view(home):
    twins = [computer_game(red_seed) for red_seed in (2, 3)]
    assert twins[0].setups["red"] != twins[1].setups["red"]
    readable = []
    for i, session in enumerate(twins):
        path = home / f"twin{i}.json"
        session.save(path)
        doc = json.loads(path.read_text())
        assert doc["format"] == savegame.SAVE_FORMAT and doc["player_record"]["player"] == "blue"
        assert "setups" not in path.read_text()
        readable.append({k: v for k, v in doc.items() if k != "sealed"})
    assert readable[0] == readable[1]  # nothing readable depends on the computer's hidden set-up
    assert (home / "keys" / savegame.KEY_NAME).stat().st_mode & 0o077 == 0


def test_a_resumed_game_is_exact_and_keeps_its_seats(home):
    session = computer_game(2)
    session.config.level = "hard"
    path = home / "g.json"
    session.save(path)
    again = Session.load(path, GameConfig(VARIANT, opponent="friend"), sync_ai=True)
    assert again.record() == session.record()
    assert again.config.opponent == "random" and again.humans == ("blue",) and again.config.level == "hard"


def test_hot_seat_saves_show_no_player_view(home):
    variant = load_variant(VARIANT)
    setups = {p: random_setup(variant, p, 5) for p in variant.players}
    session = Session(GameConfig(VARIANT, opponent="friend"), setups)
    session.save(home / "h.json")
    doc = json.loads((home / "h.json").read_text())
    assert "player_record" not in doc and doc["opponent"] == "friend"
    assert Session.load(home / "h.json").record() == session.record()


def test_changed_or_foreign_saves_are_refused(home, monkeypatch):
    session = computer_game(2)
    path = home / "g.json"
    session.save(path)
    doc = json.loads(path.read_text())
    token = doc["sealed"]
    doc["sealed"] = token[:-8] + ("A" if token[-8] != "A" else "B") + token[-7:]
    path.write_text(json.dumps(doc))
    with pytest.raises(RecordError, match="changed or sealed with another"):
        Session.load(path)
    session.save(path)
    monkeypatch.setenv("GIBSON_HOME", str(home / "elsewhere"))
    with pytest.raises(RecordError, match="key"):
        Session.load(path)


def test_launcher_load_of_a_corrupt_file_says_so(home):
    storage.game_path("broken").write_text('{"format": "gibson-save/1", "sealed": ')
    driver = UIDriver()
    driver.open(LauncherScene(driver.app))
    driver.click_button("Load game")
    driver.click(driver.scene.modal._row(0).center)
    assert isinstance(driver.scene, LauncherScene)
    assert driver.scene.message == "cannot load broken: the file is damaged and cannot be read"
    driver.step()
    driver.snapshot("launcher-load-error")


def test_a_corrupt_saved_setup_gives_one_clean_line(home):
    storage.setup_path(VARIANT, "bad").write_text("variant: tri-tactics\npieces: {a1: [Army\n  b2: : :\n")
    driver = UIDriver()
    start_game(driver.app, GameConfig(VARIANT, opponent="random", seed=1))
    driver.step()
    driver.click_button("Load")
    driver.click(driver.scene.modal._row(0).center)
    assert driver.scene.message == "set-up bad is damaged and cannot be read"
    assert driver.scene.message_bad and driver.scene.setup == {}


def test_saving_to_an_unwritable_folder_shows_an_error(home, monkeypatch):
    blocker = home / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GIBSON_HOME", str(blocker / "gibson"))
    session = computer_game(2)
    session.resign("blue")
    driver = UIDriver()
    driver.open(GameOverScene(driver.app, session, "blue"))
    driver.click_button("Save")
    driver.key(pygame.K_RETURN)
    assert isinstance(driver.scene, GameOverScene)
    assert driver.scene.message.startswith("could not save: ")
    driver.open(PlayScene(driver.app, computer_game(2), "blue"))
    driver.click_button("Save")
    driver.key(pygame.K_RETURN)
    assert driver.scene.message.startswith("could not save: ")
