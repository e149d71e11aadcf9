"""How the window feels: fights that change nothing say why, banners never repeat a line, the status line
says when the game is over, lost pieces are grouped into readable icons."""



import pygame
import pytest
from gibson_pygame.scenes.play import PlayScene
from gibson_pygame.session import GameConfig, Session
from gibson_pygame.testing import UIDriver

from gibson_core import GameState, load_variant

VARIANT = "tri-tactics"


def hot_seat(position: dict, to_move: str = "blue") -> Session:
    state = GameState.from_position(load_variant(VARIANT), position, to_move)
    return Session(GameConfig(VARIANT, opponent="friend"), {}, state)


def test_a_fight_that_changes_nothing_says_why(driver):
    session = hot_seat({"a5": "blue SL", "a7": "red Car", "l1": "blue Bn", "l12": "red Bn"})
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_square("a5")
    driver.click_square("a6")
    driver.click_square("a7")
    lines = driver.scene.banner.lines
    assert "nothing happens: Searchlight and Aircraft Carrier do not interact" in lines
    assert len(lines) == len(set(lines))
    driver.snapshot("quiet-fight")


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
    assert "pieces[9].emblem" in str(err) and "got text 'ninja'" in str(err) and "submarine" in str(err)


def test_pieces_slide_and_fights_flash_without_holding_up_input(tmp_path, monkeypatch):
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    driver = UIDriver(animate=True)
    variant = load_variant(VARIANT)
    state = GameState.from_position(variant, {"a1": "blue Bn", "l12": "red Bn"}, "blue")
    session = Session(GameConfig(VARIANT, opponent="random", seed=3), {}, state, sync_ai=True)
    driver.open(PlayScene(driver.app, session, "blue"))
    scene = driver.scene
    driver.click_square("a1")
    driver.click_square("a2")
    assert session.ply == 2  # the move is made at once and the computer has replied; only the picture follows
    slide = scene.anim.slides[0]
    assert scene.view.grid.names[slide.dest] == "a2"
    driver.step(1, dt=slide.duration / 2 - slide.t)
    mid = scene.view.square_rect(slide.origin).union(scene.view.square_rect(slide.dest)).center
    land = variant.kind_of(variant.grid.index["a1"])
    assert driver.pixel(mid) not in (pygame.Color(land.color), pygame.Color(land.stroke))  # a piece in between
    driver.snapshot("slide-half-way")
    driver.step(1, dt=slide.duration)
    assert not scene.anim.slides
    assert not driver.app.sounds.available or driver.app.sounds.played[-1] == "move"


def test_the_fight_banner_runs_the_pieces_together(tmp_path, monkeypatch):
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    driver = UIDriver(animate=True)
    session = hot_seat({"j2": "blue Army", "j4": "red Bn", "l12": "red Bn", "a1": "blue Bn"})
    driver.open(PlayScene(driver.app, session, "blue"))
    scene = driver.scene
    driver.click_square("j2")
    driver.click_square("j3")
    driver.click_square("j4")
    assert scene.banner.clash > 0 and any(f.kind == "fight" for f in scene.anim.flashes)
    driver.step(1, dt=0.05)
    early = [rect.center for rect, _tid in scene.banner.icons]
    driver.snapshot("fight-clash")
    driver.step(1, dt=0.5)
    late = [rect.center for rect, _tid in scene.banner.icons]
    assert late[1][0] - late[0][0] < early[1][0] - early[0][0]  # closer together once they have met
    if driver.app.sounds.available:
        assert driver.app.sounds.played[-1] == "fight"


def test_settings_are_saved_in_the_gibson_folder_and_survive_a_bad_file(tmp_path, monkeypatch):
    from gibson_pygame import theme
    from gibson_pygame.scenes.launcher import LauncherScene
    from gibson_pygame.settings import Settings

    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    driver = UIDriver()
    driver.open(LauncherScene(driver.app))
    driver.key(pygame.K_F2)
    dialog = driver.scene.modal
    assert dialog.title == "Settings"
    driver.click(next(b for b in dialog.speeds if b.label == "slow").rect.center)
    driver.click(dialog.sound.rect.center)
    driver.click(driver.scene.modal.volume.minus.rect.center)
    driver.click(driver.scene.modal.palette.rect.center)
    driver.snapshot("settings")
    assert theme.palette == "colour-blind"
    saved = Settings.load()
    assert (saved.animation, saved.sound, saved.volume, saved.palette) == ("slow", False, 60, "colour-blind")
    driver.key(pygame.K_F2)
    assert driver.scene.modal is None
    driver.click_button("lattaque")
    driver.click_button("Computer: heuristic")
    driver.click_button("Start")
    again = Settings.load()
    assert (again.variant, again.opponent) == ("lattaque", "heuristic")
    assert LauncherScene(driver.app).config.variant == "lattaque"  # the launcher opens where it was left
    theme.set_palette("standard")
    (tmp_path / "settings.json").write_text('{"volume": "loud", "animation": "fast", "sound": [')
    assert Settings.load() == Settings() and Settings.load().problems
    (tmp_path / "settings.json").write_text('{"volume": 500, "animation": "fast"}')
    odd = Settings.load()
    assert odd.animation == "fast" and odd.volume == 70 and odd.problems == ["setting 'volume' ignored"]


def test_sound_is_synthesized_muted_on_request_and_silent_without_a_device(monkeypatch):
    from gibson_pygame.settings import Settings
    from gibson_pygame.sound import Sounds, synthesize

    effects = synthesize()
    assert set(effects) == {"move", "fight", "blast", "win"}
    assert all(max(abs(x) for x in samples) <= 1.0 and len(samples) > 500 for samples in effects.values())
    settings = Settings(sound=False)
    assert not Sounds(settings).play("fight")  # muted
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)

    def no_device(*_args, **_kwargs):
        raise pygame.error("no audio device")
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    silent = Sounds(Settings())
    assert not silent.available and not silent.play("win")


def test_the_colour_blind_palette_changes_sides_and_marks_targets(driver):
    from gibson_pygame import theme

    session = hot_seat({"j2": "blue Army", "j4": "red Bn", "l12": "red Bn", "a1": "blue Bn"})
    try:
        theme.set_palette("colour-blind")
        driver.open(PlayScene(driver.app, session, "blue"))
        driver.click_square("j2")
        driver.click_square("j3")
        driver.snapshot("colour-blind")
        assert theme.player_color(session.players, "red") == pygame.Color("#e69f00")
        centre = driver.square_center("j4")
        rad = int(driver.scene.view.cell * 0.38)
        assert driver.pixel((centre[0], centre[1] - rad)) == theme.TEXT  # the crosshair, not only a colour
    finally:
        theme.set_palette("standard")
