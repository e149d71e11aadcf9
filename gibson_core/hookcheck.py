"""Checks at the plugin boundary: hook names a plugin implements, and the shape of what rule hooks return.

A plugin is code from a third party. A typo in a hook name (``gibson_on_remove``) or an answer of the wrong
shape (a string where a list of moves is expected) must not crash deep in the engine or hide other variants:
each is a :class:`~gibson_core.errors.PluginError` naming the plugin and the hook, raised where the answer
enters the engine (:mod:`gibson_core.hookrelay` calls :func:`checker`).
"""

from __future__ import annotations

import difflib

from .errors import PluginError, quote


def unknown_hooks(pm, plugin) -> list[tuple[str, str]]:
    """``(hook name, hint)`` for each hook ``plugin`` implements that no hookspec declares."""
    from . import hookspecs

    known = [name for name in dir(hookspecs) if name.startswith("gibson_")]
    out = []
    for caller in pm.get_hookcallers(plugin) or ():
        if caller.has_spec():
            continue
        close = difflib.get_close_matches(caller.name, known, n=1)
        out.append((caller.name, f"; did you mean {close[0]}?" if close else ""))
    return out


def refuse_unknown_hooks(pm, plugin, name: str) -> None:
    """PluginError naming the package and the first hook it implements that Gibson does not have."""
    bad = unknown_hooks(pm, plugin)
    if bad:
        hook, hint = bad[0]
        raise PluginError(name, f"implements {hook}, which is not a Gibson hook{hint}")


def _moves(value) -> bool:
    from .moves import Move

    return isinstance(value, list | tuple) and all(type(m) is Move for m in value)


def _flag(value) -> bool:
    return value is True or value is False


def _outcome(value) -> bool:
    from .combat import Outcome

    return isinstance(value, Outcome)


def _nothing(value) -> bool:
    return False  # only None is an answer; the relay checks answers that are not None


def _result(state):
    players = state.variant.players if state is not None else ()

    def fits(value) -> bool:
        return (isinstance(value, list | tuple) and len(value) == 2 and (value[0] is None or value[0] in players)
                and isinstance(value[1], str))

    return fits


def _always(state):
    return _nothing


_ENDING = "a (winner, reason) pair: a player name or None for a draw, and a text"

# hook -> (what it must return besides None, in words; given the game state, the test of one answer).
# Every rule hook is here (tests/test_docs.py checks it against movegen.RULE_HOOKS).
SHAPES = {
    "gibson_init_state": ("nothing", _always),
    "gibson_extra_moves": ("a list of Move", lambda state: _moves),
    "gibson_filter_moves": ("a list of Move", lambda state: _moves),
    "gibson_arrival_wins": ("True or False", lambda state: _flag),
    "gibson_on_arrival": ("nothing", _always),
    "gibson_apply_action": ("True or False", lambda state: _flag),
    "gibson_after_move": ("nothing", _always),
    "gibson_on_removed": ("nothing", _always),
    "gibson_resolve_combat": ("an Outcome", lambda state: _outcome),
    "gibson_game_result": (_ENDING, _result),
    "gibson_no_legal_moves": (_ENDING, _result),
    "gibson_vector_setup": ("True or False", lambda state: _flag),
    "gibson_vector_expect": ("the value, shaped as the vector writes it", None),
}


def checker(hook: str):
    """A function ``check(answer, plugin_name, kwargs)`` that raises PluginError when a non-None answer of
    ``hook`` has the wrong shape; None for hooks whose answers are not checked (``gibson_vector_expect``)."""
    shape = SHAPES.get(hook)
    if shape is None or shape[1] is None:
        return None
    words, make_test = shape

    def check(answer, plugin: str, kwargs: dict) -> None:
        if answer is None:
            return
        if not make_test(kwargs.get("state"))(answer):
            raise PluginError(plugin, f"{hook} returned {quote(answer)}; it must return {words} or None")

    return check
