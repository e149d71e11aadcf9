"""How the window feels: fights that change nothing say why, banners never repeat a line, the status line
says when the game is over, lost pieces are grouped into readable icons."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from gibson_pygame.scenes.play import PlayScene  # noqa: E402
from gibson_pygame.session import GameConfig, Session  # noqa: E402
from gibson_pygame.testing import UIDriver  # noqa: E402

from gibson_core import GameState, load_variant  # noqa: E402

VARIANT = "tri-tactics"
SHOTS = "/tmp/uifeel"


@pytest.fixture
def driver(tmp_path, monkeypatch):
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    return UIDriver()


def hot_seat(position: dict, to_move: str = "blue") -> Session:
    state = GameState.from_position(load_variant(VARIANT), position, to_move)
    return Session(GameConfig(VARIANT, opponent="friend"), {}, state)


def shot(driver, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    pygame.image.save(driver.app.screen, f"{SHOTS}/{name}.png")


def test_a_fight_that_changes_nothing_says_why(driver):
    session = hot_seat({"a5": "blue SL", "a7": "red Car", "l1": "blue Bn", "l12": "red Bn"})
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_square("a5")
    driver.click_square("a6")
    driver.click_square("a7")
    lines = driver.scene.banner.lines
    assert "nothing happens: Searchlight and Aircraft Carrier do not interact" in lines
    assert len(lines) == len(set(lines))
    shot(driver, "quiet-fight")


def test_the_status_line_says_the_game_is_over(driver):
    session = hot_seat({"f11": "blue Bn", "a1": "blue Bde", "l12": "red Bn"})
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_square("f11")
    driver.click_square("f12")
    scene = driver.scene
    assert scene.banner is not None and session.result()[0] == "blue"
    assert scene.status_text().startswith("Game over: blue wins")


@pytest.mark.parametrize("name", ["tri-tactics", "lattaque"])
def test_random_setup_is_sensible_and_shuffle_is_uniform(driver, name):
    from gibson_pygame.scenes.setup import start_game

    variant = load_variant(name)
    start_game(driver.app, GameConfig(name, opponent="random", seed=7))
    driver.step()
    scene = driver.scene
    index = variant.grid.index
    driver.click_button("Random")
    assert driver.button("Start").enabled
    for square, tid in scene.setup.items():  # every piece in its own element
        t = variant.type_index[tid]
        native = variant.types[t].element
        assert native is None or variant.elements[t][index[square]] == native, (tid, square)
    front = max(sq // variant.grid.files for sq in variant.setup_squares["blue"])
    vital = [sq for sq, tid in scene.setup.items() if tid == "Flag"]
    assert all(index[sq] // variant.grid.files < front for sq in vital)  # the Flag is never in the front row
    driver.click_button("Shuffle")
    assert driver.button("Start").enabled and scene.setup


def test_every_shipped_piece_has_an_emblem_the_window_draws():
    from gibson_pygame.emblems import emblem_names, emblem_surface

    from gibson_core import variant_names

    for name in variant_names():
        for t in load_variant(name).types:
            assert t.emblem in emblem_names(), (name, t.id)
    for emblem in emblem_names():
        img = emblem_surface(emblem, (40, 40), (255, 255, 255))
        covered = sum(img.get_at((x, y)).a > 128 for x in range(40) for y in range(40))
        assert 100 < covered < 1300, emblem  # a shape, neither empty nor a filled square


def test_an_unknown_emblem_is_refused(tmp_path):
    from conftest import refused

    from gibson_core.plugins import variant_specs

    err, _text = refused(tmp_path, variant_specs()["lattaque"].path, "emblem: spy}", "emblem: ninja}")
    assert "unknown emblem 'ninja'" in str(err) and "emblem" in str(err)
