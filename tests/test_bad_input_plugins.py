"""Broken plugins: a typo in a hook name or an answer of the wrong shape is a PluginError naming the plugin
and the hook; every other variant keeps working, and a refused move leaves the game as it was."""

import types

import pytest

from gibson_core import GameState, PluginError
from gibson_core.cli import main
from gibson_core.hookspecs import hookimpl
from gibson_core.plugins import load_errors, load_variant, register_plugin, variant_names, variant_specs
from gibson_core.variant import VariantSpec

TRI_PATH = variant_specs()["tri-tactics"].path


@pytest.fixture
def broken_variant():
    """Register a variant 'broken-tt' (Tri-Tactics' data) whose rule hooks are the object the test fills."""
    from gibson_core import plugins

    hooks = types.SimpleNamespace(__name__="broken_rules")
    package = types.SimpleNamespace(__name__="gibson_broken")

    @hookimpl
    def gibson_register_variants():
        return [VariantSpec("broken-tt", TRI_PATH, hooks)]

    package.gibson_register_variants = gibson_register_variants
    register_plugin(package, name="gibson-broken")
    yield hooks
    plugins.plugin_manager().unregister(name="gibson-broken")
    plugins._SPECS = None
    plugins._VARIANT_CACHE.clear()


def test_a_typo_in_a_package_hook_leaves_the_package_out_and_names_it():
    package = types.SimpleNamespace(__name__="gibson_typo")

    @hookimpl
    def gibson_on_remove(state, pid):
        return None

    package.gibson_on_remove = gibson_on_remove
    with pytest.raises(PluginError, match=r"gibson-typo.*gibson_on_remove.*did you mean gibson_on_removed"):
        register_plugin(package, name="gibson-typo")
    assert "tri-tactics" in variant_names()


def test_a_typo_in_rule_hooks_refuses_that_variant_only(broken_variant, capsys):
    @hookimpl
    def gibson_on_remove(state, pid):
        return None

    broken_variant.gibson_on_remove = gibson_on_remove
    with pytest.raises(PluginError, match="gibson_on_remove"):
        load_variant("broken-tt")
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "broken-tt" in out and "cannot load" in out and "tri-tactics" in out


def test_a_broken_register_answer_is_reported_and_the_rest_load():
    package = types.SimpleNamespace(__name__="gibson_bad_answer")

    @hookimpl
    def gibson_register_variants():
        return "tri-tactics"

    package.gibson_register_variants = gibson_register_variants
    register_plugin(package, name="gibson-bad-answer")
    try:
        assert "tri-tactics" in variant_names()
        assert any("gibson-bad-answer" in str(e) and "gibson_register_variants" in str(e) for e in load_errors())
    finally:
        from gibson_core import plugins

        plugins.plugin_manager().unregister(name="gibson-bad-answer")
        plugins._SPECS = None


@pytest.mark.parametrize(("hook", "answer"), [
    ("gibson_extra_moves", "e5-e6"),
    ("gibson_filter_moves", [1, 2]),
    ("gibson_game_result", "blue"),
    ("gibson_game_result", ("green", "made up")),
    ("gibson_resolve_combat", "attacker wins"),
    ("gibson_arrival_wins", "yes"),
])
def test_a_wrong_answer_names_plugin_and_hook_and_changes_nothing(broken_variant, hook, answer):
    def wrong(state):
        return answer

    setattr(broken_variant, hook, hookimpl(specname=hook)(wrong))
    state = GameState.from_position(load_variant("broken-tt"), {"a1": "blue Bn", "b2": "red Bn", "l12": "red Div"})
    before = (state.position(), state.ply, len(state.history), state.to_move)
    with pytest.raises(PluginError, match=f"broken_rules.*{hook}"):
        state.play("a1-a2xb2")
    assert (state.position(), state.ply, len(state.history), state.to_move) == before
