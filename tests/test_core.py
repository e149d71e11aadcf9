"""The core engine's building blocks: grid, notation, set-ups, observations, options, plugins."""

import random
import types

from hypothesis import given
from hypothesis import strategies as st

from gibson_core import GameState, Move, PluginError, load_variant
from gibson_core.events import Removed
from gibson_core.grid import Grid
from gibson_core.observe import observe
from gibson_core.plugins import register_plugin, variant_names
from gibson_core.setup import load_setup, mirror_setup, random_setup, save_setup, setup_problems

TRI = "tri-tactics"


def test_grid_names_neighbours_and_walls():
    grid = Grid(12, 12)
    assert grid.name(0) == "a1" and grid.name(143) == "l12" and grid.square("e5") == 4 * 12 + 4
    assert sorted(grid.name(n) for n in grid.orth[grid.square("a1")]) == ["a2", "b1"]
    assert len(grid.diag[grid.square("e5")]) == 4
    walled = Grid(8, 12, frozenset({frozenset((grid8 := Grid(8, 12)).square("a3") for _ in [0]) | {grid8.square("a4")}}))
    assert walled.square("a4") not in walled.orth[walled.square("a3")]
    assert walled.wall_between(walled.square("a3"), walled.square("a4"))
    assert [walled.name(s) for s in walled.rays[walled.square("a1")][0]] == ["a2", "a3"]
    assert sorted(walled.name(s) for s in walled.jumps[walled.square("a3")]) == ["a1", "a5", "c3"]
    assert grid.rect("a1", "b2") == [0, 1, 12, 13]


squares = st.builds(lambda f, r: f"{'abcdefghijkl'[f]}{r}", st.integers(0, 11), st.integers(1, 12))


@given(squares, squares, st.one_of(st.none(), squares))
def test_move_notation_round_trips(a, b, c):
    move = Move(a, b, c)
    assert Move.parse(str(move)) == move
    assert eval(repr(move)) == move


@given(squares, squares)
def test_action_notation_round_trips(a, b):
    for text in (f"{a}@", f"{a}*{b}", f"{a}>{b}"):
        assert str(Move.parse(text)) == text
        assert Move.parse(text).is_action


def test_random_setup_is_legal_and_seeded(tmp_path):
    variant = load_variant(TRI)
    one = random_setup(variant, "red", 4)
    assert one == random_setup(variant, "red", 4)
    assert setup_problems(variant, "red", one) == []
    assert len(one) == 56 and "f12" not in one and "i11" not in one
    path = tmp_path / "red.yaml"
    save_setup(path, variant, "red", one)
    assert load_setup(path, variant) == ("red", one)
    player, as_blue = load_setup(path, variant, "blue")
    assert player == "blue" and as_blue == mirror_setup(variant, one)


def test_first_player_is_explicit_or_chosen_by_the_seed():
    variant = load_variant(TRI)
    setups = {p: random_setup(variant, p, 1) for p in variant.players}
    assert GameState.from_setups(variant, setups, "red").player == "red"
    firsts = {random.Random(seed).choice(variant.players) for seed in range(20)}
    assert firsts == {"blue", "red"}


def test_ply_limit_extension_draws():
    variant = load_variant(TRI, {"ply-limit": 4})
    state = GameState.from_position(variant, {"a1": "blue Bn", "l12": "red Bn"}, "blue")
    for move in ("a1-a2", "l12-l11", "a2-a1", "l11-l12"):
        state.play(move)
    assert state.outcome().is_draw and "ply limit" in state.outcome().reason


def test_neither_side_can_win_extension_draws():
    variant = load_variant(TRI)
    assert variant.options["no-win-draw"] is True
    pos = {"j4": "blue Bn", "j6": "red Bn", "a1": "blue FA", "l12": "red FA"}
    state = GameState.from_position(variant, pos, "blue")
    state.play("j4-j5xj6")
    assert state.outcome().is_draw
    off = GameState.from_position(load_variant(TRI, {"no-win-draw": False}), pos, "blue")
    off.play("j4-j5xj6")
    assert off.outcome() is None


def test_observation_hides_enemy_types_until_revealed():
    variant = load_variant(TRI)
    state = GameState.from_position(variant, {"j4": "blue Bn", "j6": "red RP", "a1": "blue Bn", "l12": "red Bn"}, "blue")
    view = observe(state, "blue")
    assert view.piece_at("j6").type is None and view.piece_at("j4").type == "Bn"
    assert {str(m) for m in view.legal_moves} >= {"j4-j5xj6"}
    assert observe(state, "red").legal_moves == ()
    state.play("j4-j5xj6")
    view = observe(state, "blue")
    assert view.piece_at("j6").type == "RP" and view.piece_at("j6").revealed
    assert view.unaccounted(variant)["RP"] == 3


def test_a_forfeit_of_a_hidden_piece_does_not_reveal_it_to_the_opponent():
    variant = load_variant(TRI)
    state = GameState.from_position(variant, {"f1": "blue Army", "a1": "blue Bn", "l12": "red Bn"}, "blue")
    state.play("a1-a2")
    red_view = observe(state, "red")
    blue_view = observe(state, "blue")
    (removed_red,) = [e for e in red_view.events[-1] if isinstance(e, Removed)]
    (removed_blue,) = [e for e in blue_view.events[-1] if isinstance(e, Removed)]
    assert removed_red.type is None and removed_blue.type == "Army"
    assert red_view.removed[0].type is None


def test_copy_is_independent():
    variant = load_variant(TRI)
    state = GameState.from_position(variant, {"a1": "blue Bn", "l12": "red Bn"}, "blue")
    twin = state.copy()
    twin.play("a1-a2")
    assert state.position() == {"a1": "blue Bn", "l12": "red Bn"}


def test_plugins_register_at_run_time_and_bad_answers_name_the_plugin():
    plugin = types.SimpleNamespace()
    from gibson_core.hookspecs import hookimpl

    @hookimpl
    def gibson_register_variants():
        return ["not a spec"]

    plugin.gibson_register_variants = gibson_register_variants
    register_plugin(plugin, name="broken-test-plugin")
    try:
        assert TRI in variant_names()  # the other plugins' variants are all there
        from gibson_core.plugins import load_errors

        assert any("broken-test-plugin" in str(e) and "gibson_register_variants" in str(e) for e in load_errors())
    finally:
        from gibson_core import plugins

        plugins.plugin_manager().unregister(name="broken-test-plugin")
        plugins._SPECS = None
    assert TRI in variant_names()


def test_a_package_that_fails_to_import_is_reported_by_name(monkeypatch):
    from importlib.metadata import EntryPoint

    from gibson_core import plugins

    broken = EntryPoint(name="broken-game", value="gibson_no_such_module_anywhere", group=plugins.ENTRY_POINT_GROUP)
    real = plugins.entry_points
    monkeypatch.setattr(plugins, "entry_points", lambda group: [*real(group=group), broken])
    monkeypatch.setattr(plugins, "_GLOBAL", None)
    monkeypatch.setattr(plugins, "_SPECS", None)
    monkeypatch.setattr(plugins, "_LOAD_ERRORS", [])
    errors = plugins.load_errors()
    assert len(errors) == 1 and isinstance(errors[0], PluginError)
    assert "broken-game" in str(errors[0]) and "failed to import" in str(errors[0])
    assert TRI in plugins.variant_names()  # the other games still load
