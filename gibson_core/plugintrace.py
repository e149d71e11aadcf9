"""``GIBSON_TRACE_PLUGINS=1``: one line per hook call on stderr, redacted.

Hook arguments hold the live game (every hidden type) and events that name hidden pieces, so the trace
never prints an argument's own repr: a game shows as its one-line description, events as a player who owns
none of the pieces would see them (:func:`gibson_core.events.redact`), the move being made in notation (it
is public), but lists of moves only by their number (a player's possible moves and actions tell which of its
pieces can do what), plain numbers and words as they are, and anything else by its type's name only.
"""

from __future__ import annotations

import os
import sys

from . import events as ev
from .moves import Move

#: A viewer who is neither player: redacting for it hides every type that is not public.
_NOBODY = "\x00nobody"


def tracing_enabled() -> bool:
    """True when ``GIBSON_TRACE_PLUGINS`` asks for the trace."""
    return bool(os.environ.get("GIBSON_TRACE_PLUGINS"))


def safe_text(value, depth: int = 0) -> str:
    """A short text for a hook argument or answer that names no hidden type."""
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    if isinstance(value, str):
        return repr(value[:60])
    if isinstance(value, Move):
        return str(value)
    if hasattr(value, "describe") and hasattr(value, "variant") and hasattr(value, "ptype"):
        return f"<game {value.describe()}>"
    if type(value).__module__ == ev.__name__:
        return repr(ev.redact(value, _NOBODY)) if not isinstance(value, ev.Removed) or value.public else (
            f"Removed(square={value.square!r}, owner={value.owner!r}, reason={value.hidden_reason!r})")
    if isinstance(value, list | tuple) and _holds_moves(value):
        return f"<{_count_moves(value)} moves>"
    if isinstance(value, list | tuple) and depth < 2:
        inner = ", ".join(safe_text(v, depth + 1) for v in value[:8])
        more = ", ..." if len(value) > 8 else ""
        return f"[{inner}{more}]" if isinstance(value, list) else f"({inner}{more})"
    return f"<{type(value).__name__}>"


def _holds_moves(value) -> bool:
    return any(isinstance(v, Move) or (isinstance(v, list | tuple) and _holds_moves(v)) for v in value)


def _count_moves(value) -> int:
    return sum(1 if isinstance(v, Move) else _count_moves(v) if isinstance(v, list | tuple) else 0 for v in value)


def enable_trace(pm, write=None) -> None:
    """Print every hook call of ``pm`` (name, redacted arguments, redacted answer) to ``write``/stderr."""
    write = write or sys.stderr.write

    def before(hook_name, hook_impls, kwargs):
        args = ", ".join(f"{k}={safe_text(v)}" for k, v in kwargs.items())
        write(f"[gibson] {hook_name}({args})\n")

    def after(outcome, hook_name, hook_impls, kwargs):
        try:
            answer = outcome.get_result()
        except BaseException as exc:  # the hook raised: name the error's type, not its text
            write(f"[gibson] {hook_name} raised {type(exc).__name__}\n")
            return
        write(f"[gibson] {hook_name} -> {safe_text(answer)}\n")

    pm.add_hookcall_monitoring(before, after)
