"""Undo in the window: against the computer it never takes back a move that showed a hidden piece of the
computer (the button is disabled and says why); in a hot-seat game the other player is asked first, on a
screen that shows nothing of the game."""

import os
import signal

import pygame
from gibson_pygame.scenes.handover import ConsentScene, HandoverScene
from gibson_pygame.scenes.play import PlayScene
from gibson_pygame.session import GameConfig, Session

from gibson_core import GameState, load_variant

VARIANT = "tri-tactics"


def position(opponent: str) -> Session:
    variant = load_variant(VARIANT)
    state = GameState.from_position(variant, {"j2": "blue Army", "a1": "blue Bn", "j4": "red Bn", "l11": "red Div",
                                              "a11": "red Bn"}, "blue")
    return Session(GameConfig(VARIANT, opponent=opponent, seed=4), {}, state, sync_ai=True)


def test_undo_against_the_computer_keeps_what_an_attack_showed(driver):
    session = position("random")
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_square("a1")
    driver.click_square("a2")
    driver.step(2)
    assert session.ply == 2 and driver.button("Undo").enabled  # a quiet move and a reply: may be taken back
    driver.click_button("Undo")
    assert session.ply == 0
    driver.click_square("j2")
    driver.click_square("j3")
    driver.click_square("j4")  # the attack shows the red Battalion
    driver.click(driver.scene.view.rect.center)
    driver.step(2)
    undo = driver.button("Undo")
    assert session.ply == 2 and not undo.enabled
    assert undo.reason == "Undo would take back a move that showed you a hidden enemy piece"
    driver.key(pygame.K_u)
    assert session.ply == 2
    below = pygame.Rect(undo.rect.left, undo.rect.bottom, undo.rect.width, 16)
    driver.hover((5, 5))
    before = [driver.pixel((x, y)) for x in range(below.left, below.right, 3) for y in range(below.top, below.bottom, 3)]
    driver.hover(undo.rect.center)  # the reason appears beside the disabled button
    after = [driver.pixel((x, y)) for x in range(below.left, below.right, 3) for y in range(below.top, below.bottom, 3)]
    assert before != after
    driver.snapshot("undo-disabled")


def test_hot_seat_undo_asks_the_other_player(driver):
    session = position("friend")
    driver.open(PlayScene(driver.app, session, "blue"))
    scene = driver.scene
    driver.click_square("a1")
    driver.click_square("a2")
    driver.step()
    assert isinstance(driver.scene, HandoverScene)
    driver.click((10, 10))
    driver.click_square("a11")
    driver.click_square("a10")
    driver.step()
    driver.click((10, 10))
    assert driver.scene is scene and scene.viewer == "blue" and session.ply == 2
    driver.click_button("Undo")
    consent = driver.scene
    assert isinstance(consent, ConsentScene) and consent.player == "red"
    assert "blue asks to take back 2 moves (a1-a2, a11-a10)" in consent.note
    driver.click((10, 10))  # a click beside the buttons answers nothing
    assert driver.scene is consent
    driver.click_button("Refuse")
    assert session.ply == 2 and isinstance(driver.scene, HandoverScene) and driver.scene.player == "blue"
    driver.click((10, 10))
    assert scene.message == "red refused to take back a1-a2, a11-a10"
    driver.click_button("Undo")
    driver.click_button("Allow")
    assert session.ply == 0 and session.to_move == "blue"
    driver.click((10, 10))
    assert driver.scene is scene and scene.viewer == "blue"


def test_a_dead_computer_process_is_restarted_and_plays_on(driver):
    """The computer's process is killed before it is asked and again while it thinks: each time a new one
    answers (no random stand-in move), and the player is told in plain words."""
    config = GameConfig(VARIANT, opponent="random", seed=11, human="red")  # the computer (blue) moves first
    session = Session.random(config, seed=11, ai_process=True)
    try:
        driver.open(PlayScene(driver.app, session, "red"))
        worker = session.worker
        for ply in (0, 2):
            if ply:  # kill it while its second question is out (stopped first, so it cannot answer it)
                os.kill(worker._process.pid, signal.SIGSTOP)
                session.start_thinking()
                assert worker.busy
            worker._process.kill()
            worker._process.join(10)
            deadline = 0
            while session.ply == ply and deadline < 200:  # each join waits for the new process's answer
                worker.join(30)
                driver.step()
                deadline += 1
            assert session.ply == ply + 1
            scene = driver.scene
            assert "It was restarted and the computer plays on" in scene.message
            assert "random" not in scene.message and worker.deaths == 0
            if ply == 0:
                scene.message = ""
                if scene.banner is not None:
                    scene.banner.left = 0
                driver.step()
                scene.play(next(m for m in scene.obs.legal_moves if m.target is None))
                scene.banner = None
                assert session.ply == 2
    finally:
        session.close()


def test_moves_from_the_window_are_submitted_by_the_viewer(driver):
    """A move the window sends on someone else's turn is refused with whose turn it is and nothing more."""
    from gibson_core import Move

    session = position("friend")
    driver.open(PlayScene(driver.app, session, "blue"))
    session.play(Move.parse("a1-a2"), by="blue")
    scene = driver.scene
    scene.play(Move.parse("a11-a10"))  # red's piece, sent from blue's seat
    assert scene.message == "it is red's turn" and session.ply == 1
