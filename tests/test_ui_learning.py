"""Scripted UI tests of the learning screens: Rules (launcher and F1), the Value Table legend, Lessons played by
real clicks, the attack-after-moving explanation, Hints (H) and the Review of a saved record. Real events are
posted (the pointer really moved for hover), the app stepped frame by frame, headless."""



import pygame
import pytest
from gibson_pygame import storage
from gibson_pygame.hints import analyse
from gibson_pygame.rules import RulesDialog
from gibson_pygame.scenes.launcher import LauncherScene
from gibson_pygame.scenes.lessons import LessonScene
from gibson_pygame.scenes.play import PlayScene
from gibson_pygame.scenes.position import ALL
from gibson_pygame.scenes.review import ReviewScene, ReviewSession
from gibson_pygame.session import GameConfig, Session
from gibson_pygame.valuetable import ValueTableDialog

from gibson_core import GameState, load_variant, variant_names
from gibson_core.lessons import deciding_rule, load_lessons, reasons
from gibson_core.moves import ILLUMINATE, MOVE
from gibson_core.observe import observe
from gibson_core.record import GameRecord, load_record
from gibson_core.valuetable import marks_legend


def launcher_on(driver, name):
    driver.open(LauncherScene(driver.app))
    driver.click_button(name)
    return driver.scene


def play_by_clicks(driver, move) -> None:
    """Make ``move`` the way a player does: the piece, then its destination, target or action button."""
    scene = driver.scene
    driver.click_square(move.origin)
    assert scene.origin == move.origin
    if move.kind == ILLUMINATE:
        driver.click_button(move.kind.capitalize())
    elif move.kind != MOVE:
        driver.click_square(move.target)
    else:
        driver.click_square(move.dest)
        if move.target:
            driver.click_square(move.target)
        elif scene.dest is not None:
            driver.click_button("No attack")


# -- Rules --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", variant_names())
def test_the_rules_screen_is_built_from_the_data_and_the_rules_page(driver, name):
    launcher_on(driver, name)
    driver.click_button("Rules (F1)")
    dialog = driver.scene.modal
    assert isinstance(dialog, RulesDialog)
    text = " ".join(t for _k, t in dialog.blocks)
    variant = load_variant(name)
    for t in variant.types:
        assert f"{t.name} ({t.id}) x{t.count}" in text  # every piece with its count
    for i, rule in enumerate((variant.data.get("combat") or {}).get("rules") or [], start=1):
        assert f"{i}. {rule['name']}" in text  # the combat rules in their order
    assert ("h2", "Rules page") in dialog.blocks  # the rules page shipped in the package
    driver.hover(dialog.body.center)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-3, flipped=False))
    driver.step()
    assert dialog.scroll > 0
    driver.key(pygame.K_END)
    assert dialog.scroll == dialog.max_scroll > 0
    driver.key(pygame.K_HOME)
    assert dialog.scroll == 0
    driver.key(pygame.K_ESCAPE)
    assert driver.scene.modal is None


def playing(driver, name):
    """A game against the random agent, on the play screen."""
    session = Session.random(GameConfig(name, opponent="random"), seed=2, sync_ai=True)
    PlayScene.begin(driver.app, session)
    driver.step()
    return session


def test_f1_opens_the_rules_in_play_and_closes_them(driver):
    playing(driver, "dover-patrol")
    driver.key(pygame.K_F1)
    assert isinstance(driver.scene.modal, RulesDialog)
    assert any("Walls between squares" in t for _k, t in driver.scene.modal.blocks)
    driver.snapshot("learn-rules")
    driver.key(pygame.K_F1)
    assert driver.scene.modal is None


def test_the_value_table_has_a_legend_in_words(driver):
    session = playing(driver, "tri-tactics")
    driver.key(pygame.K_t)
    dialog = driver.scene.modal
    assert isinstance(dialog, ValueTableDialog)
    assert dialog.legend == marks_legend(session.variant)
    assert {"&", "*", "+", "#", "X", "."} <= {sym for sym, _w in dialog.legend}
    right = pygame.Rect(dialog.origin[0] + len(session.variant.types) * dialog.cell + 24, dialog.rect.top + 60, 300, 300)
    colours = {tuple(driver.pixel((x, y))) for x in range(right.left, right.right, 3) for y in range(right.top, right.bottom, 3)}
    assert len(colours) > 4  # the legend's text is drawn right of the table


# -- Lessons ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["aviation", "dover-patrol", "lattaque", "tri-tactics", "tri-tactics-classic"])
def test_every_lesson_is_played_by_clicks_on_the_real_board(driver, name):
    launcher_on(driver, name)
    driver.click_button("Lessons")
    lessons = load_lessons(name)
    for i, lesson in enumerate(lessons):
        scene = driver.scene
        assert isinstance(scene, LessonScene) and scene.lesson.title == lesson.title
        play_by_clicks(driver, lesson.answers[0])
        assert scene.session.events, f"{lesson.title}: the move was not played"
        assert scene.status_text() == "Lesson done"
        state = lesson.start()
        events = state.play(lesson.answers[0])
        assert reasons(scene.session.events) == reasons(events)
        assert scene.session.rule == deciding_rule(state, events)
        driver.key(pygame.K_SPACE)  # the reveal banner
        driver.step()
        assert driver.scene is scene  # a lesson that wins stays on screen
        if i + 1 < len(lessons):
            driver.key(pygame.K_RIGHT)


def test_a_wrong_move_gets_the_hint_and_a_retry(driver):
    launcher_on(driver, "tri-tactics")
    driver.click_button("Lessons")
    scene = driver.scene
    lesson = scene.lesson
    wrong = next(m for m in scene.obs.legal_moves if not lesson.is_answer(m) and m.target is None)
    play_by_clicks(driver, wrong)
    assert scene.missed and "hint" in scene.message and not scene.session.events
    assert scene.obs.ply == 0 and scene.origin is None  # nothing was played, the selection is cleared
    driver.snapshot("learn-lesson-miss")
    play_by_clicks(driver, lesson.answers[0])
    assert reasons(scene.session.events) == ["Brigade beats Battalion"]
    driver.click_button("Retry (R)")
    assert driver.scene is not scene and driver.scene.obs.ply == 0 and driver.scene.lesson == lesson
    driver.click_button("Lessons")
    driver.click(driver.scene.modal._row(3).center)
    assert driver.scene.index == 3


# -- attack after moving -------------------------------------------------------------------------------------
def test_clicking_an_enemy_explains_that_pieces_attack_after_moving(driver):
    variant = load_variant("lattaque")
    state = GameState.from_position(variant, {"d5": "blue Col", "d6": "red Capt", "b1": "blue Sgt", "i10": "red Sgt"},
                                    "blue")
    session = Session(GameConfig("lattaque"), {}, state)
    session.humans = ("blue",)
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_square("d6")  # nothing selected: an adjacent enemy
    assert "attacks after moving" in driver.scene.note
    driver.click_square("d5")
    driver.click_square("d6")  # the Colonel selected, the enemy beside it
    assert "cannot attack from where it stands" in driver.scene.note
    assert "Colonel" in driver.scene.note
    driver.click_square("d5")
    assert driver.scene.note == ""


def test_a_piece_that_cannot_move_says_it_cannot_attack_either(driver):
    variant = load_variant("lattaque")
    position = {"a1": "blue Mine", "b1": "blue Sgt", "a2": "blue Sgt", "b2": "red Sgt", "c1": "red Capt",
                "f4": "blue Capt", "i10": "red Sgt"}
    session = Session(GameConfig("lattaque"), {}, GameState.from_position(variant, position, "blue"))
    session.humans = ("blue",)
    driver.open(PlayScene(driver.app, session, "blue"))
    driver.click_square("a1")
    assert driver.scene.note == "A Mine never moves, so it never attacks."
    driver.click_square("b1")  # hemmed in by its own pieces and the enemy: no move, so no attack
    assert "Sergeant cannot attack from where it stands" in driver.scene.note
    driver.click_square("f4")  # free to move: selected, no note
    assert driver.scene.origin == "f4" and driver.scene.note == ""


# -- hints -----------------------------------------------------------------------------------------------------
def _twins():
    """Two games that differ only in red's hidden set-up."""
    import random

    from gibson_core.setup import random_setup

    variant = load_variant("lattaque")
    blue = random_setup(variant, "blue", random.Random(1))
    red1 = random_setup(variant, "red", random.Random(2))
    red2 = random_setup(variant, "red", random.Random(3))
    return variant, {"blue": blue, "red": red1}, {"blue": blue, "red": red2}


def test_h_shows_the_best_move_from_the_players_own_view(driver):
    variant, a, b = _twins()
    config = GameConfig("lattaque", opponent="random", human="blue")
    session = Session(config, a, sync_ai=True)
    PlayScene.begin(driver.app, session)
    driver.step()
    driver.key(pygame.K_h)
    scene = driver.scene
    hint = scene.current_hint()
    assert hint is not None and scene.hint_text().startswith(f"Hint: {hint.moves[0][0]}")
    assert hint.moves[0][0] in scene.obs.legal_moves
    driver.snapshot("learn-hint")
    # twin games: the hint depends on nothing the player cannot see
    twin = analyse(observe(GameState.from_setups(variant, b), "blue"))
    assert [m for m, _s in twin.moves] == [m for m, _s in hint.moves] and twin.beliefs == hint.beliefs
    play_by_clicks(driver, hint.moves[0][0])
    assert scene.current_hint() is None  # a hint is for the position it was asked in


# -- review ----------------------------------------------------------------------------------------------------
def _finished_record(setups, plies=None):
    import random

    variant = load_variant("lattaque")
    state = GameState.from_setups(variant, setups)
    rng = random.Random(5)
    while state.outcome() is None and (plies is None or state.ply < plies):
        state.play(state.random_move(rng))
    return GameRecord.from_state(state, setups)


def test_the_review_steps_through_a_saved_game_and_reveals_only_at_the_end(driver):
    _variant, a, _b = _twins()
    record = _finished_record(a)
    record.save(storage.game_path("done"))
    short = _finished_record(a, plies=6)
    short.save(storage.game_path("short"))
    driver.open(LauncherScene(driver.app))
    driver.click_button("Review game")
    driver.click(driver.scene.modal._row(storage.game_names().index("short")).center)
    scene = driver.scene
    assert isinstance(scene, ReviewScene) and scene.session.at == 0
    driver.key(pygame.K_RIGHT)
    driver.key(pygame.K_RIGHT)
    driver.click_button(">")
    assert scene.session.at == 3 and scene.obs.moves == tuple(short.moves[:3])
    driver.click_button("<")
    assert scene.session.at == 2
    assert not driver.button("Reveal all").enabled  # the game is not over
    scene.view_as(ALL)
    assert scene.viewer == "blue" and "once the game is over" in scene.message
    driver.click_button("As red")
    assert scene.viewer == "red" and all(p.type is None or p.owner == "red" or p.revealed for p in scene.obs.pieces)
    driver.key(pygame.K_END)
    assert scene.session.at == 6
    scene.open_other()
    driver.click(driver.scene.modal._row(storage.game_names().index("done")).center)
    scene = driver.scene
    driver.key(pygame.K_END)
    assert scene.session.at == len(record.moves) and scene.obs.result
    driver.click_button("Reveal all")
    assert scene.viewer == ALL and all(p.type for p in scene.obs.pieces)
    driver.key(pygame.K_HOME)
    assert scene.session.at == 0
    driver.snapshot("learn-review")


def test_a_review_from_one_side_shows_nothing_of_the_other_sides_hidden_set_up(driver, tmp_path):
    _variant, a, b = _twins()
    shots = []
    for setups in (a, b):
        path = tmp_path / "r.json"
        GameRecord.from_state(GameState.from_setups(load_variant("lattaque"), setups), setups).save(path)
        driver.open(ReviewScene(driver.app, ReviewSession(load_record(path))))
        driver.hover((5, 5))
        shots.append(pygame.image.tobytes(driver.app.screen, "RGB"))
    assert shots[0] == shots[1]


def _saved(setups, opponent, plies, name):
    """A window save (sealed) of a game ``plies`` plies in, against ``opponent``."""
    import random

    session = Session(GameConfig("lattaque", opponent=opponent, human="blue"), setups, sync_ai=True)
    rng = random.Random(2)
    while session.ply < plies and session.result() is None:
        session.play(rng.choice(session.observation(session.to_move).legal_moves))
    session.save(storage.game_path(name))
    session.close()
    return storage.game_path(name)


def test_a_saved_game_in_progress_is_reviewed_only_from_its_players_own_view(driver):
    from gibson_pygame.scenes.review import open_record

    _variant, a, _b = _twins()
    assert open_record(driver.app, _saved(a, "random", 6, "vs-computer")) == ""
    scene = driver.scene
    assert scene.views() == ["blue"] and not driver.button("As red").enabled
    scene.view_as("red")
    assert scene.viewer == "blue" and "not yours to see" in scene.message
    why = open_record(driver.app, _saved(a, "friend", 6, "hot-seat"))
    assert "hot-seat game is not over" in why and driver.scene is scene
    assert open_record(driver.app, _saved(a, "friend", 10_000, "hot-seat-over")) == ""  # over: everything
    assert driver.scene.views() == ["blue", "red", ALL]
