"""Rendering tests for every registered variant: the board's terrain colours are where the data says,
walls are drawn on their edges, hidden enemy pieces show no identity, and the computer's thread joins."""

import os

import pytest
from gibson_pygame import theme
from gibson_pygame.ai_worker import AIWorker
from gibson_pygame.board import BoardView
from gibson_pygame.screenshot import render_position, render_session
from gibson_pygame.session import GameConfig, Session

from gibson_core import variant_names
from gibson_core.events import REVEAL_ALL


def overlay_squares(variant) -> set[int]:
    out = set()
    for overlay in variant.data.get("overlays") or []:
        for squares in variant.paths.get(overlay.get("path"), {}).values():
            out.update(squares)
    return out


@pytest.mark.parametrize("name", variant_names())
def test_screenshot_has_terrain_colours_where_the_data_says(name):
    session = Session.random(GameConfig(name), seed=0)
    surface = render_session(session, session.players[0])
    from gibson_pygame.scenes.play import PlayScene

    scene = PlayScene(None, session, session.players[0])
    scene.resize(surface.get_size())
    variant, view = session.variant, scene.view
    occupied = {variant.grid.index[p.square] for p in scene.obs.pieces}
    skip = occupied | overlay_squares(variant)
    checked = 0
    for sq in range(variant.grid.size):
        if sq in skip:
            continue
        want = theme.color(variant.kind_of(sq).color)
        assert surface.get_at(view.square_center(sq)) == want, f"{name} {variant.grid.names[sq]}"
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", variant_names())
def test_walls_are_drawn_on_their_edges(name):
    from gibson_pygame.app import App

    app = App((1000, 800))
    variant = GameConfig(name).load()
    view = BoardView(variant)
    view.fit(app.screen.get_rect())
    view.draw_board(app.screen)
    for edge in variant.grid.walls:
        a, b = (view.square_center(sq) for sq in edge)
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        assert app.screen.get_at(mid) == view.wall_style()[0]


@pytest.mark.parametrize("name", variant_names())
def test_hidden_enemy_pieces_show_their_backs(name):
    session = Session.random(GameConfig(name), seed=1)
    viewer, enemy = session.players
    seen = render_session(session, viewer)
    everything = render_session(session, REVEAL_ALL)
    from gibson_pygame.scenes.play import PlayScene

    scene = PlayScene(None, session, viewer)
    scene.resize(seen.get_size())
    faces = {tuple(theme.color(t.color)) for t in session.variant.types}
    for piece in scene.obs.enemy():
        rect = scene.view.square_rect(session.variant.grid.index[piece.square])
        inside = (rect.left + rect.width // 4, rect.top + rect.height // 4 + 2)
        assert tuple(seen.get_at(inside)) not in faces
    assert any(seen.get_at(scene.view.square_center(session.variant.grid.index[p.square]))
               != everything.get_at(scene.view.square_center(session.variant.grid.index[p.square]))
               for p in scene.obs.enemy())


def test_screenshot_command_writes_a_png(tmp_path):
    out = render_position(variant_names()[0], str(tmp_path / "shot.png"), "all", plies=10)
    assert os.path.getsize(out) > 1000


def test_ai_worker_thread_is_joinable_and_answers_from_the_observation():
    session = Session.random(GameConfig("tri-tactics", opponent="random"), seed=2)
    worker = AIWorker(session.worker.agent, None, seed=3)
    obs = session.observation(session.to_move)
    worker.start(obs)
    worker.join()
    move = worker.poll()
    assert move in obs.legal_moves
    worker.start(obs)
    worker.cancel()
    worker.join()
    assert worker.poll() is None


def test_process_worker_answers_from_the_observation():
    from gibson_pygame.ai_worker import ProcessAIWorker

    session = Session.random(GameConfig("tri-tactics", opponent="random"), seed=4)
    worker = ProcessAIWorker(session.worker.agent, None, seed=5)
    try:
        obs = session.observation(session.to_move)
        worker.start(obs)
        assert worker.join(60)
        assert worker.poll() in obs.legal_moves
        assert not worker.busy and not worker.asked
    finally:
        worker.close()


def test_process_worker_restarts_a_dead_process_and_gives_up_after_repeated_deaths():
    from gibson_pygame.ai_worker import AgentError, ProcessAIWorker

    session = Session.random(GameConfig("tri-tactics", opponent="random"), seed=6)
    worker = ProcessAIWorker(session.worker.agent, None, seed=7)
    try:
        worker._process.terminate()
        worker._process.join()
        obs = session.observation(session.to_move)
        worker.start(obs)
        while not worker.join(30):
            pass
        assert worker.poll() in obs.legal_moves
        assert "restarted" in worker.take_notice() and worker.take_notice() == ""
        worker.MAX_RESTARTS = 0  # the next death is one too many: an error, never a hang
        worker._process.kill()
        worker._process.join()
        worker.start(obs)
        with pytest.raises(AgentError, match="stopped"):
            worker.poll()
    finally:
        worker.close()


def test_hover_guesses_cover_hidden_enemy_pieces_only():
    from gibson_pygame.scenes.play import PlayScene

    session = Session.random(GameConfig("tri-tactics", opponent="friend"), seed=8)
    scene = PlayScene(None, session, "blue")
    guesses = scene.guesses()
    hidden = {p.handle for p in scene.obs.enemy() if p.type is None}
    assert set(guesses) <= hidden
    for handle in guesses:
        assert abs(sum(guesses[handle].values()) - 1) < 1e-6
