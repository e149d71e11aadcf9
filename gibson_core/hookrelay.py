"""A fast relay for a game's rule hooks.

Rule hooks are called several times per move (move generation, arrival, end of move), so pluggy's per-call
bookkeeping shows in random-playout speed. :func:`hook_relay` gives the game state an object with one plain
function per rule hook that calls the same implementations, in pluggy's order and with pluggy's semantics
(``firstresult`` hooks stop at the first answer that is not None; the others return the list of answers),
passing each implementation only the arguments it names. Hooks with wrappers, and every hook while
``GIBSON_TRACE_PLUGINS`` is set, go through pluggy itself; any other attribute falls back to ``pm.hook``.

Every answer is checked against :data:`gibson_core.hookcheck.SHAPES`, the one table of what each rule hook returns: a wrong shape
raises :class:`~gibson_core.errors.PluginError` naming the plugin and the hook (None, "no answer", is
always accepted).
"""

from __future__ import annotations

import weakref

from .hookcheck import checker
from .movegen import RULE_HOOKS
from .plugintrace import tracing_enabled

_RELAYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class HookRelay:
    """``relay.gibson_X(**kwargs)`` behaves like ``pm.hook.gibson_X(**kwargs)`` for the game's rule hooks, and
    checks the shape of every answer (:mod:`gibson_core.hookcheck`): a wrong one is a PluginError naming the
    plugin and the hook."""

    def __init__(self, pm):
        self._pm = pm
        tracing = tracing_enabled()
        for name in RULE_HOOKS:
            caller = getattr(pm.hook, name, None)
            if caller is None:
                continue
            check = checker(name)
            impls = caller.get_hookimpls()
            first = bool(caller.spec and caller.spec.opts.get("firstresult"))
            if tracing or any(i.hookwrapper or getattr(i, "wrapper", False) for i in impls):
                setattr(self, name, _through_pluggy(caller, first, check) if check else caller)
                continue
            calls = tuple((i.function, tuple(i.argnames), i.plugin_name) for i in reversed(impls))
            setattr(self, name, _first_answer(calls, check) if first else _all_answers(calls, check))

    def __getattr__(self, name: str):
        return getattr(self._pm.hook, name)


def _first_answer(calls: tuple, check):
    def relay(**kwargs):
        for function, names, plugin in calls:
            answer = function(*[kwargs[n] for n in names])
            if answer is not None:
                if check is not None:
                    check(answer, plugin, kwargs)
                return answer
        return None

    return relay


def _all_answers(calls: tuple, check):
    def relay(**kwargs):
        answers = []
        for function, names, plugin in calls:
            answer = function(*[kwargs[n] for n in names])
            if answer is not None:
                if check is not None:
                    check(answer, plugin, kwargs)
                answers.append(answer)
        return answers

    return relay


def _through_pluggy(caller, first: bool, check):
    """pluggy's own call (tracing, wrappers), with the answers checked; the plugin is not known here."""

    def relay(**kwargs):
        answer = caller(**kwargs)
        for one in ([answer] if first else answer or ()):
            check(one, "a plugin of this game", kwargs)
        return answer

    return relay


def hook_relay(pm) -> HookRelay:
    """The relay of a game's plugin manager (built once per manager)."""
    relay = _RELAYS.get(pm)
    if relay is None:
        relay = _RELAYS[pm] = HookRelay(pm)
    return relay
