"""Actions (illuminate, fire, hand-over) are reached through the same clicks as moves, for every
registered variant whose random games offer them; and the window re-lays itself out when resized."""



import random

import pygame
import pytest
from gibson_pygame.scenes.play import PlayScene
from gibson_pygame.session import GameConfig, Session
from gibson_pygame.testing import UIDriver

from gibson_core import load_variant, variant_names
from gibson_core.check import build_case_state
from gibson_core.moves import Move

KINDS = ("illuminate", "fire", "handover")


def declared_actions() -> list:
    """(variant, action) pairs the variants' data declare: piece actions, and hand-overs where Flags exist."""
    pairs = []
    for name in variant_names():
        variant = load_variant(name)
        kinds = {a.get("kind") for t in variant.types for a in t.actions if isinstance(a, dict)}
        if "flags" in variant.rules:
            kinds.add("handover")
        pairs += [(name, kind) for kind in KINDS if kind in kinds]
    return pairs


def session_offering(name: str, kind: str, plies: int = 400) -> tuple[Session, object] | None:
    """A hot-seat session in which the side to move may play an action of ``kind`` (random games)."""
    for seed in range(4):
        session = Session.random(GameConfig(name, opponent="friend"), seed)
        rng = random.Random(seed)
        for _ in range(plies):
            if session.result() is not None:
                break
            obs = session.observation(session.to_move)
            found = [m for m in obs.legal_moves if m.kind == kind]
            if found:
                return session, found[0]
            session.play(rng.choice(obs.legal_moves))
    return None


def play_action_through_the_board(session: Session, move) -> None:
    """Click the action's piece, then its button or target square, and see it played."""
    kind = move.kind
    driver = UIDriver()
    driver.open(PlayScene(driver.app, session, session.to_move))
    scene = driver.scene
    before = session.ply
    driver.click_square(move.origin)
    assert scene.origin == move.origin
    if move.target is None:
        driver.click_button(kind.capitalize())
    else:
        assert move.target in scene.choices()["action"]
        driver.click_square(move.target)
    assert session.ply == before + 1
    played = session.observation(session.players[0]).moves[-1]
    assert played.startswith(move.origin) and played[len(move.origin)] in "@*>"


@pytest.mark.parametrize(("name", "kind"), [p for p in declared_actions() if p[1] != "handover"])
def test_actions_are_played_through_the_board(name, kind, tmp_path, monkeypatch):
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    found = session_offering(name, kind)
    assert found is not None, f"{name} declares {kind} but random games never offered it"
    play_action_through_the_board(*found)


@pytest.mark.parametrize(("name", "kind"), [p for p in declared_actions() if p[1] == "handover"])
def test_a_flag_hand_over_is_played_through_the_board(name, kind, tmp_path, monkeypatch):
    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    case = {"position": {"d6": "red LC", "d7": "red MS", "h1": "blue PV", "a12": "red PV"},
            "flags": {"blue": "d6", "red": "f10"}, "to_move": "red"}
    state = build_case_state(name, case)
    move = Move.parse("d6>d7")
    assert move in state.legal_moves()
    session = Session(GameConfig(name, opponent="friend"), {}, state)
    play_action_through_the_board(session, move)
    assert dict(session.observation("blue").tokens)["flag:blue"][0] == "d7"


def test_window_resize_refits_the_board():
    session = Session.random(GameConfig(variant_names()[0], opponent="friend"), 0)
    driver = UIDriver()
    driver.open(PlayScene(driver.app, session, session.to_move))
    cell = driver.scene.view.cell
    driver.app.screen = pygame.display.set_mode((900, 600), pygame.RESIZABLE)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(900, 600), w=900, h=600))
    driver.step()
    assert driver.scene.view.cell < cell
    assert driver.scene.view.rect.right <= 900 - 300


def test_f11_toggles_full_screen_and_back():
    session = Session.random(GameConfig(variant_names()[0], opponent="friend"), 0)
    driver = UIDriver()
    driver.open(PlayScene(driver.app, session, session.to_move))
    driver.key(pygame.K_F11)
    driver.key(pygame.K_F11)
    assert not driver.app.fullscreen
    assert driver.scene.view.rect.width > 0
