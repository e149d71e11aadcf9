"""The exceptions Gibson raises: one base class, narrow subclasses, messages that name the input."""

from __future__ import annotations

import reprlib

QUOTE_LIMIT = 60
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = QUOTE_LIMIT
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = _SHORT.maxdict = 6
_SHORT.maxlevel = 3


# What ``json.loads`` raises on hostile text: JSONDecodeError and the 4,300-digit integer limit are ValueErrors;
# arrays nested 100,000 deep end in RecursionError. Every reader of untrusted JSON catches all of them.
JSON_ERRORS = (ValueError, RecursionError)


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for a message, cut to at most ``limit`` characters (``'abc…' (20,000,000 characters)``);
    other values as a short repr (``[1, 2, 3, 4, 5, 6, ...]``): no message echoes unbounded input."""
    if isinstance(text, str):
        if len(text) <= limit:
            return repr(text)
        return f"{text[:limit]!r}… ({len(text):,} characters)"
    if isinstance(text, int) and not isinstance(text, bool) and text.bit_length() > 128:
        return f"<a {text.bit_length():,}-bit number>"
    try:
        return _SHORT.repr(text)
    except Exception:  # a third party's object whose repr fails: its type is enough
        return f"<{type(text).__name__}>"


def _cut(text: str, limit: int, keep_end: bool = False) -> str:
    """``text`` shortened to about ``limit`` characters with an ellipsis (the end kept for file names)."""
    if len(text) <= limit:
        return text
    return "…" + text[-limit:] if keep_end else text[:limit] + "…"


def short_path(path: object) -> str:
    """A file name for a message: its end, at most about 120 characters."""
    return _cut(str(path), 120, keep_end=True)


class GibsonError(Exception):
    """Base of every error the engine raises on purpose."""


def expect_type(value, kind: type | tuple, what: str, error: type = None):
    """``value`` if it is a ``kind``, else ``error`` (default :class:`GibsonError`) saying what was expected:
    the library's public constructors check their arguments' shapes with it before using them."""
    if isinstance(value, kind) and not (isinstance(value, bool) and kind in (int, (int, float))):
        return value
    names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
    raise (error or GibsonError)(f"{what}: expected a {names}, got {type(value).__name__} {quote(value, 30)}")


class NotationError(GibsonError, ValueError):
    """A move or square written in a form the notation does not accept."""


class IllegalMoveError(GibsonError, ValueError):
    """A well-formed move that the rules refuse in the current position."""

    def __init__(self, move: str, reason: str, position: str = ""):
        self.move = move
        self.reason = reason
        self.position = position
        text = f"illegal move {move}: {reason}"
        if position:
            text += f" ({position})"
        super().__init__(text)


class NotYourTurnError(IllegalMoveError):
    """A move submitted by the player who is not to move. Says whose turn it is and nothing more: no
    explanation is computed for it, so it cannot reveal anything about the pieces it names."""

    def __init__(self, move: str, player_to_move: str):
        self.move = move
        self.reason = f"it is {player_to_move}'s turn"
        self.position = ""
        ValueError.__init__(self, self.reason)


class UnknownPlayerError(GibsonError, ValueError):
    """A name that is not one of the variant's two players."""


class UnknownPieceError(GibsonError, ValueError):
    """A piece handle that is no piece of the game."""


class NothingToUndoError(GibsonError, IndexError):
    """``pop`` with no move to take back."""


class SetupError(GibsonError, ValueError):
    """A set-up that does not fit the variant (counts, zone, unknown pieces)."""


class OptionError(GibsonError, ValueError):
    """A variant option that the variant does not declare, or a value of the wrong kind or out of range."""


class UsageError(GibsonError, ValueError):
    """A command-line argument that does not fit the data it names (an agent, a viewer, a record)."""


class NoLegalMoveError(GibsonError, ValueError):
    """An agent was asked for a move in a view where its player has no legal move (the game is over, or it
    is not that player's turn)."""


class AgentError(UsageError):
    """An agent name or an agent setting that no agent accepts."""


class RecordError(GibsonError, ValueError):
    """A game record or set-up file that cannot be read or replayed."""


class Problem:
    """One validation problem in a data file: where (file, key path, line) and what."""

    __slots__ = ("file", "path", "line", "message")

    def __init__(self, file: str, path: str, line: int | None, message: str):
        self.file = file
        self.path = path
        self.line = line
        self.message = message

    def __str__(self) -> str:  # every part bounded: a file name, a key or a message may come from hostile input
        where = short_path(self.file)
        if self.line is not None:
            where += f":{self.line}"
        if self.path:
            path = _cut(str(self.path), 160)
            where += f": {path}" if where else path
        message = _cut(str(self.message), 2000)
        return f"{where}: {message}" if where else message

    def __repr__(self) -> str:
        return f"Problem({self.file!r}, {self.path!r}, {self.line!r}, {self.message!r})"


class VariantError(GibsonError, ValueError):
    """A variant's YAML that does not validate. Carries every problem found, each with file, key path, line."""

    def __init__(self, problems: list[Problem] | Problem):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        first = self.problems[0] if self.problems else None
        self.file = first.file if first else ""
        self.path = first.path if first else ""
        self.line = first.line if first else None
        lines = [str(p) for p in self.problems]
        super().__init__(lines[0] if len(lines) == 1 else f"{len(lines)} problems:\n" + "\n".join(lines))


class PluginError(GibsonError):
    """A plugin that failed to import, register or answer; names the plugin."""

    def __init__(self, plugin: str, reason: str):
        self.plugin = plugin
        self.reason = reason
        super().__init__(f"plugin {quote(plugin, 80)}: {reason}")
