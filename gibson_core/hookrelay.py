"""A fast relay for a game's rule hooks.

Rule hooks are called several times per move (move generation, arrival, end of move), so pluggy's per-call
bookkeeping shows in random-playout speed. :func:`hook_relay` gives the game state an object with one plain
function per rule hook that calls the same implementations, in pluggy's order and with pluggy's semantics
(``firstresult`` hooks stop at the first answer that is not None; the others return the list of answers),
passing each implementation only the arguments it names. Hooks with wrappers, and every hook while
``GIBSON_TRACE_PLUGINS`` is set, go through pluggy itself; any other attribute falls back to ``pm.hook``.

Every answer is checked against :data:`SHAPES`, the one table of what each rule hook returns: a wrong shape
raises :class:`~gibson_core.errors.PluginError` naming the plugin and the hook (None, "no answer", is
always accepted).
"""

from __future__ import annotations

import weakref

from .combat import Outcome
from .errors import PluginError
from .movegen import RULE_HOOKS
from .moves import Move
from .plugintrace import tracing_enabled


def _moves(answer) -> bool:
    return isinstance(answer, list | tuple) and all(type(m) is Move for m in answer)


def _ending(answer) -> bool:
    return (isinstance(answer, tuple | list) and len(answer) == 2 and isinstance(answer[0], str | None)
            and isinstance(answer[1], str))


# hook -> (what it must return besides None, the check)
SHAPES = {
    "gibson_init_state": ("nothing", lambda a: False),
    "gibson_extra_moves": ("a list of Move", _moves),
    "gibson_filter_moves": ("a list of Move", _moves),
    "gibson_arrival_wins": ("True", lambda a: a is True or a is False),
    "gibson_on_arrival": ("nothing", lambda a: False),
    "gibson_apply_action": ("True", lambda a: a is True or a is False),
    "gibson_after_move": ("nothing", lambda a: False),
    "gibson_on_removed": ("nothing", lambda a: False),
    "gibson_resolve_combat": ("an Outcome", lambda a: isinstance(a, Outcome)),
    "gibson_game_result": ("a (winner, reason) pair: a player name or None for a draw, and a text", _ending),
    "gibson_no_legal_moves": ("a (winner, reason) pair: a player name or None for a draw, and a text", _ending),
    "gibson_vector_setup": ("True", lambda a: a is True or a is False),
    "gibson_vector_expect": ("the value, shaped as the vector writes it", lambda a: True),
}


def check_answer(hook: str, plugin: str, answer):
    """``answer`` when it has the shape ``hook`` must return (or is None), else a PluginError naming both."""
    if answer is None:
        return answer
    what, ok = SHAPES[hook]
    if not ok(answer):
        shown = repr(answer)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise PluginError(plugin, f"{hook} returned {shown}; it must return {what} or None")
    return answer

_RELAYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class HookRelay:
    """``relay.gibson_X(**kwargs)`` behaves like ``pm.hook.gibson_X(**kwargs)`` for the game's rule hooks."""

    def __init__(self, pm):
        self._pm = pm
        tracing = tracing_enabled()
        for name in RULE_HOOKS:
            caller = getattr(pm.hook, name, None)
            if caller is None:
                continue
            impls = caller.get_hookimpls()
            if tracing or any(i.hookwrapper or getattr(i, "wrapper", False) for i in impls):
                setattr(self, name, caller)
                continue
            first = bool(caller.spec and caller.spec.opts.get("firstresult"))
            calls = tuple((i.function, tuple(i.argnames), i.plugin_name) for i in reversed(impls))
            setattr(self, name, _first_answer(name, calls) if first else _all_answers(name, calls))

    def __getattr__(self, name: str):
        return getattr(self._pm.hook, name)


def _first_answer(hook: str, calls: tuple):
    def relay(**kwargs):
        for function, names, plugin in calls:
            answer = function(*[kwargs[n] for n in names])
            if answer is not None:
                return check_answer(hook, plugin, answer)
        return None

    return relay


def _all_answers(hook: str, calls: tuple):
    def relay(**kwargs):
        answers = []
        for function, names, plugin in calls:
            answer = function(*[kwargs[n] for n in names])
            if answer is not None:
                answers.append(check_answer(hook, plugin, answer))
        return answers

    return relay


def hook_relay(pm) -> HookRelay:
    """The relay of a game's plugin manager (built once per manager)."""
    relay = _RELAYS.get(pm)
    if relay is None:
        relay = _RELAYS[pm] = HookRelay(pm)
    return relay
