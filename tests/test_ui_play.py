"""Scripted UI tests of the pygame front end: real events posted to the queue, the app stepped frame by
frame (dummy video driver, the computer answering synchronously), assertions on rendered pixels."""



import pygame
from gibson_pygame import storage, theme
from gibson_pygame.scenes.handover import HandoverScene
from gibson_pygame.scenes.launcher import LauncherScene
from gibson_pygame.scenes.play import PlayScene
from gibson_pygame.scenes.setup import SetupScene, start_game
from gibson_pygame.session import GameConfig, Session

from gibson_core import GameState, load_variant

VARIANT = "tri-tactics"


def face(variant, type_id) -> pygame.Color:
    return theme.color(variant.type_of(type_id).color)


def piece_face_pixel(driver, square: str) -> pygame.Color:
    """A pixel inside the piece on ``square``, away from its rim and its label."""
    rect = driver.scene.view.square_rect(driver.scene.view.grid.index[square])
    return driver.pixel((rect.left + rect.width // 4, rect.top + rect.height // 4 + 2))


def start_vs_computer(driver, seed=1) -> None:
    config = GameConfig(VARIANT, opponent="random", seed=seed)
    start_game(driver.app, config)
    driver.step()
    assert isinstance(driver.scene, SetupScene)
    driver.click_button("Random")
    driver.click_button("Start")
    assert isinstance(driver.scene, PlayScene)


def plain_move(scene):
    """A legal move of the viewer without an attack, whose destination is not next to an enemy."""
    return next(m for m in scene.obs.legal_moves if m.kind == "move" and m.target is None
                and not any(x.origin == m.origin and x.dest == m.dest and x.target for x in scene.obs.legal_moves))


def test_launcher_lists_every_variant_and_starts_setup(driver):
    from gibson_core import variant_names

    driver.open(LauncherScene(driver.app))
    labels = [b.label for b in driver.scene.buttons]
    for name in variant_names():
        assert name in labels
    driver.click_button(VARIANT)
    driver.click_button("A friend (hot seat)")
    assert driver.scene.config.opponent == "friend"
    driver.click_button("Start")
    assert isinstance(driver.scene, HandoverScene)  # hot seat: the screen is handed to the first player


def test_setup_tray_click_drag_swap_and_start_button(driver):
    variant = load_variant(VARIANT)
    start_game(driver.app, GameConfig(VARIANT, opponent="random", seed=2))
    driver.step()
    scene = driver.scene
    assert not driver.button("Start").enabled
    assert "still to place" in driver.button("Start").reason
    squares = [variant.grid.names[sq] for sq in variant.setup_squares["blue"]]
    # click a tray entry, then a square
    driver.click(scene.tray_rects["Army"].center)
    driver.click_square(squares[0])
    assert scene.setup == {squares[0]: "Army"}
    assert piece_face_pixel(driver, squares[0]) == face(variant, "Army")
    # drag from the tray onto a square
    driver.drag(scene.tray_rects["SL"].center, driver.square_center(squares[1]))
    assert scene.setup[squares[1]] == "SL"
    # drag one placed piece onto another: they swap
    driver.drag(driver.square_center(squares[0]), driver.square_center(squares[1]))
    assert scene.setup == {squares[0]: "SL", squares[1]: "Army"}
    assert piece_face_pixel(driver, squares[1]) == face(variant, "Army")
    assert scene.remaining("Army") == 0
    driver.click_button("Clear")
    assert scene.setup == {}
    driver.click_button("Random")
    assert driver.button("Start").enabled
    driver.click_button("Start")
    assert isinstance(driver.scene, PlayScene)


def test_setup_save_and_load_named(driver):
    start_game(driver.app, GameConfig(VARIANT, opponent="random", seed=3))
    driver.step()
    driver.click_button("Random")
    placed = dict(driver.scene.setup)
    driver.click_button("Save")
    driver.key(pygame.K_RETURN)
    assert storage.setup_names(VARIANT) == ["blue-1"]
    driver.click_button("Clear")
    driver.click_button("Load")
    driver.click(driver.scene.modal._row(0).center)
    assert driver.scene.setup == placed


def test_move_undo_and_the_board_shows_it(driver):
    start_vs_computer(driver)
    scene = driver.scene
    variant = scene.variant
    move = plain_move(scene)
    type_id = scene.obs.piece_at(move.origin).type
    driver.click_square(move.origin)
    assert move.dest in scene.choices()["dest"]
    driver.click_square(move.dest)
    driver.step(3)
    assert scene.session.ply >= 2  # our move and the computer's reply
    assert scene.obs.moves[0] == str(move)
    if scene.banner is not None:
        driver.click(scene.view.rect.center)
        driver.step()
    assert piece_face_pixel(driver, move.dest) == face(variant, type_id)
    driver.click_button("Undo")
    assert scene.session.ply == 0
    assert piece_face_pixel(driver, move.origin) == face(variant, type_id)
    assert piece_face_pixel(driver, move.dest) != face(variant, type_id)


def attack_session(opponent="random") -> Session:
    variant = load_variant(VARIANT)
    state = GameState.from_position(variant, {"j2": "blue Army", "a1": "blue Bn", "j4": "red Bn", "l11": "red Div"},
                                    "blue")
    return Session(GameConfig(VARIANT, opponent=opponent, seed=4), {}, state, sync_ai=True)


def test_attack_shows_the_reveal_and_the_reason(driver):
    session = attack_session()
    driver.open(PlayScene(driver.app, session, "blue"))
    scene = driver.scene
    driver.click_square("j2")
    driver.click_square("j3")
    assert scene.dest == "j3"
    assert scene.choices()["attack"] == {"j4"}
    assert driver.button("No attack")  # the choice not to attack is offered
    driver.click_square("j4")
    assert scene.banner is not None
    text = " ".join(scene.banner.lines)
    assert "Battalion" in text and "removed" in text
    # both pieces are drawn face up in the reveal
    icons = scene.banner.icons
    assert [tid for _rect, tid in icons] == ["Army", "Bn"]
    for rect, tid in icons:
        assert driver.pixel((rect.left + rect.width // 6, rect.top + rect.height // 2)) == face(scene.variant, tid)
    assert any(p.type == "Bn" for p in scene.obs.removed)
    # the banner goes after a click, then the computer replies
    driver.click(scene.view.rect.center)
    driver.step(2)
    assert scene.banner is None or session.ply == 2
    assert session.ply == 2


def test_save_and_reload_a_game(driver):
    start_vs_computer(driver, seed=5)
    scene = driver.scene
    move = plain_move(scene)
    driver.click_square(move.origin)
    driver.click_square(move.dest)
    driver.step(2)
    moves = list(scene.obs.moves)
    driver.click_button("Save")
    assert driver.scene.modal is not None
    driver.key(pygame.K_RETURN)
    assert storage.game_names() == [f"{VARIANT}-{len(moves)}"]
    driver.click_button("Load")
    driver.click(driver.scene.modal._row(0).center)
    assert isinstance(driver.scene, PlayScene) and driver.scene is not scene
    assert list(driver.scene.obs.moves) == moves
    # and from the launcher
    driver.open(LauncherScene(driver.app))
    driver.click_button("Load game")
    driver.click(driver.scene.modal._row(0).center)
    assert isinstance(driver.scene, PlayScene)
    assert list(driver.scene.obs.moves) == moves


def test_hot_seat_handover_hides_the_previous_players_pieces(driver):
    variant = load_variant(VARIANT)
    start_game(driver.app, GameConfig(VARIANT, opponent="friend", seed=6))
    for player in variant.players:
        assert isinstance(driver.scene, HandoverScene) and driver.scene.player == player
        driver.click((10, 10))
        assert isinstance(driver.scene, SetupScene) and driver.scene.player == player
        driver.click_button("Random")
        driver.click_button("Start")
    assert isinstance(driver.scene, HandoverScene)
    driver.click((10, 10))
    scene = driver.scene
    assert isinstance(scene, PlayScene) and scene.viewer == "blue"
    move = plain_move(scene)
    driver.click_square(move.origin)
    driver.click_square(move.dest)
    driver.step()
    assert isinstance(driver.scene, HandoverScene) and driver.scene.player == "red"
    driver.step()
    forbidden = {tuple(theme.color(k.color))[:3] for k in variant.kinds.values()}
    forbidden |= {tuple(theme.color(t.color))[:3] for t in variant.types}
    w, h = driver.app.screen.get_size()
    seen = {tuple(driver.pixel((x, y)))[:3] for x in range(0, w, 4) for y in range(0, h, 4)}
    assert not seen & forbidden, "the hand-over screen shows part of the board or a piece"
    driver.click((10, 10))
    assert isinstance(driver.scene, PlayScene) and driver.scene.viewer == "red"
    assert driver.scene.obs.player == "red"


def test_value_table_overlay_opens_on_t(driver):
    session = attack_session()
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.key(pygame.K_t)
    assert driver.scene.modal is not None
    driver.key(pygame.K_t)
    assert driver.scene.modal is None


def test_resign_shows_the_full_reveal(driver):
    from gibson_pygame.scenes.gameover import GameOverScene

    session = attack_session()
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_button("Resign")
    dialog = driver.scene.modal
    assert dialog is not None and dialog.title == "Resign?"  # asked first
    driver.click(dialog.no.rect.center)
    assert driver.scene.modal is None and session.result() is None
    driver.click_button("Resign")
    driver.click(driver.scene.modal.yes.rect.center)
    assert isinstance(driver.scene, GameOverScene)
    assert session.result() == ("red", "blue resigned")
    driver.step()
    # the hidden red pieces are now drawn face up
    assert piece_face_pixel(driver, "l11") == face(session.variant, "Div")
    driver.click_button("Play again")
    assert isinstance(driver.scene, SetupScene)


def test_a_piece_can_be_dragged_to_its_destination(driver):
    session = attack_session()
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.drag(driver.square_center("a1"), driver.square_center("a2"))
    assert session.ply >= 1
    assert driver.scene.obs.moves[0] == "a1-a2"


def test_launcher_options_reach_the_game(driver):
    driver.open(LauncherScene(driver.app))
    driver.click_button(VARIANT)
    toggles = [b for b in driver.scene.buttons if b.label.startswith("no-win-draw")]
    assert toggles and toggles[0].label.endswith("on")
    driver.click(toggles[0].rect.center)
    assert driver.scene.config.options == {"no-win-draw": False}
    stepper = driver.scene.option_widgets[0]
    driver.click(stepper.minus.rect.center)
    assert driver.scene.config.options["ply-limit"] == 1900
    driver.click_button("Computer: random")
    driver.click_button("play red")
    driver.click_button("Start")
    driver.click_button("Random")
    driver.click_button("Start")
    scene = driver.scene
    assert isinstance(scene, PlayScene) and scene.viewer == "red"
    assert scene.variant.options["ply-limit"] == 1900 and scene.variant.options["no-win-draw"] is False
    assert scene.session.ply >= 1  # the computer (blue) moved first


def test_an_attack_onto_the_enemy_is_one_click_on_the_enemy(driver):
    """In a game whose pieces attack by moving onto the enemy (the tutorial's Forty), the enemies in reach
    are highlighted as attacks and clicking one plays ``e4xe5`` at once; the winner stands on e5."""
    from conftest import TUTORIAL, registered

    with registered(TUTORIAL, "gibson_forty"):
        variant = load_variant("forty")
        state = GameState.from_position(variant, {"e4": "red Ca", "e5": "blue Lt", "a1": "red F", "j9": "blue Sg",
                                                  "j10": "blue F"}, "red")
        session = Session(GameConfig("forty", opponent="random", seed=4), {}, state, sync_ai=True)
        driver.open(PlayScene(driver.app, session, "red"))
        scene = driver.scene
        driver.click_square("e4")
        assert scene.choices()["attack"] == {"e5"} and "e5" not in scene.choices()["dest"]
        driver.click_square("e5")
        assert str(state.history[0][0]) == "e4xe5"
        assert state.history[0][1][-1].dest == "e5" and scene.banner is not None


def test_leaving_an_unsaved_game_asks_first(driver):
    session = attack_session()
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_square("a1")
    driver.click_square("a2")
    driver.step(2)
    driver.click_button("Menu")
    dialog = driver.scene.modal
    assert isinstance(driver.scene, PlayScene) and dialog.title == "Leave this game?"
    driver.key(pygame.K_n)
    assert driver.scene.modal is None and isinstance(driver.scene, PlayScene)
    board = driver.scene.view.rect.copy()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    driver.step()  # closing the window asks too
    assert driver.app.running and driver.scene.modal.title == "Leave this game?"
    driver.key(pygame.K_n)
    assert driver.scene.view.rect == board  # dialogs, banners and messages never move the board
    driver.click_button("Save")
    driver.key(pygame.K_RETURN)
    driver.click_button("Menu")  # just saved: nothing to lose, no question
    assert isinstance(driver.scene, LauncherScene)
