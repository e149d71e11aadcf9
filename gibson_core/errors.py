"""The exceptions Gibson raises: one base class, narrow subclasses, messages that name the input."""

from __future__ import annotations

QUOTE_LIMIT = 60


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for a message, cut to at most ``limit`` characters (``'abc…' (20,000,000 characters)``):
    no message echoes unbounded input."""
    if not isinstance(text, str):
        if isinstance(text, int) and not isinstance(text, bool) and text.bit_length() > 128:
            return f"<a {text.bit_length():,}-bit number>"
        text = str(text) if isinstance(text, int | float | bool) or text is None else f"<{type(text).__name__}>"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


class GibsonError(Exception):
    """Base of every error the engine raises on purpose."""


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


class SetupError(GibsonError, ValueError):
    """A set-up that does not fit the variant (counts, zone, unknown pieces)."""


class OptionError(GibsonError, ValueError):
    """A variant option that the variant does not declare, or a value of the wrong kind or out of range."""


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

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
        if self.path:
            where += f": {self.path}"
        return f"{where}: {self.message}"

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
        super().__init__(f"plugin {plugin!r}: {reason}")
