"""Command-line arguments checked before any work starts: argparse types for numbers and paths, a parser
whose errors are one line, and checks that need the variant (agents, viewers, a record's variant).

An argparse type error exits with status 2 and one line (``gibson arena: argument --games: expected a
whole number from 1, got '0'``); a check that needs data raises :class:`~gibson_core.errors.UsageError`,
which ``gibson`` prints as one line with status 2 as well.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

from .errors import UsageError, quote

MESSAGE_LIMIT = 200


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line naming the command (no usage block); ``--help`` still
    shows everything."""

    def error(self, message: str):
        if len(message) > MESSAGE_LIMIT:  # argparse quotes a bad value whole ("invalid int value: '…20 MB…'")
            message = f"{message[:MESSAGE_LIMIT]}… ({len(message):,} characters)"
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _number(text: str, kind, lo, what: str):
    try:
        value = kind(text)
    except (TypeError, ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"expected {what}, got {quote(text, 30)}") from None
    if isinstance(value, float) and not math.isfinite(value) or value < lo:
        raise argparse.ArgumentTypeError(f"expected {what}, got {quote(text, 30)}")
    return value


def whole_from(lo: int, what: str | None = None, hi: int | None = None):
    """An argparse type: an integer ``>= lo`` (and ``<= hi`` when given)."""
    what = what or (f"a whole number from {lo}" + (f" to {hi}" if hi is not None else ""))

    def parse(text: str) -> int:
        value = _number(text, int, lo, what)
        if hi is not None and value > hi:
            raise argparse.ArgumentTypeError(f"expected {what}, got {quote(text, 30)}")
        return value

    parse.__name__ = "whole number"
    return parse


def above_zero(what: str, name: str):
    """An argparse type: a finite number greater than 0, described as ``what`` in messages."""

    def parse(text: str) -> float:
        value = _number(text, float, 0.0, what)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"expected {what}, got {quote(text, 30)}")
        return value

    parse.__name__ = name
    return parse


positive_seconds = above_zero("a number of seconds greater than 0", "seconds")
count = whole_from(1)
count.__name__ = "count"
ply_number = whole_from(0, "a ply number from 0")
port = whole_from(0, "a port number from 0 to 65535", 65535)
MAX_WORKERS = 64
workers = whole_from(1, f"a number of processes from 1 to {MAX_WORKERS}", MAX_WORKERS)


def seconds_from_zero(text: str) -> float:
    """An argparse type: a finite number of seconds, 0 or more."""
    return _number(text, float, 0.0, "a number of seconds from 0")


seconds_from_zero.__name__ = "seconds"


positive_number = above_zero("a number greater than 0", "number")  # a rate, a budget


def server_url(text: str) -> str:
    """An argparse type: a server address ``ws://HOST:PORT`` or ``wss://HOST:PORT``, checked before connecting
    (a wrong one would otherwise be retried with back-off for ever)."""
    from .net.client import check_url
    from .net.protocol import ProtocolError

    try:
        return check_url(text)
    except ProtocolError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


server_url.__name__ = "address"


def known_variants(names) -> None:
    """UsageError (with a did-you-mean) for the first name that is no registered variant."""
    from .plugins import load_variant

    for name in names:
        load_variant(name)


def _path_type(check):
    """A path type whose system errors (a name too long for the file system, a NUL byte, a loop of links)
    are one-line argparse refusals too."""

    def parse(text: str) -> str:
        if "\0" in text:
            raise argparse.ArgumentTypeError(f"{quote(text, 40)}: a path cannot hold a NUL character")
        try:
            return check(text)
        except (OSError, ValueError) as exc:
            if isinstance(exc, argparse.ArgumentTypeError):
                raise
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a usable path"
            raise argparse.ArgumentTypeError(f"{quote(text, 40)}: {reason}") from None

    parse.__name__ = check.__name__
    parse.__doc__ = check.__doc__
    return parse


@_path_type
def output_file(text: str) -> str:
    """An argparse type: a file that can be written: its folder exists and is writable, and it is not a
    folder itself. Checked before any work, so a long game is not played for nothing."""
    path = Path(text)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{quote(text)} is a folder, not a file")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"folder {quote(str(folder))} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {quote(text)} (no permission)")
    return text


@_path_type
def output_folder(text: str) -> str:
    """An argparse type: a folder that exists and is writable, or that can be made in one that is."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{quote(text)} is a file, not a folder")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not os.access(existing, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write in {quote(str(existing))} (no permission)")
    return text


@_path_type
def input_file(text: str) -> str:
    """An argparse type: a file that exists and can be read."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{quote(text)} is a folder, not a file")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file {quote(text)}")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"cannot read {quote(text)} (no permission)")
    return text


def agents_from_text(text: str, how_many: int = 2) -> list:
    """``"heuristic,search:iterations=200"`` -> agents, each name and setting checked (UsageError)."""
    from .ai.arena import agent_from_spec

    specs = [s.strip() for s in text.split(",")]
    if len(specs) != how_many or not all(specs):
        raise UsageError(f"--agents takes {how_many} agent names separated by a comma, got {quote(text, 60)}")
    return [agent_from_spec(spec) for spec in specs]


def viewer(variant, text: str):
    """A viewer named on the command line (``--as``): a player of the variant or ``all``."""
    from .errors import UnknownPlayerError
    from .observe import viewer_from_text
    from .options import did_you_mean

    try:
        return viewer_from_text(variant, text)
    except UnknownPlayerError as exc:
        hint = did_you_mean(text, (*variant.players, "all")) if isinstance(text, str) else None
        raise UnknownPlayerError(f"--as: {exc}" + (f"; did you mean {hint!r}?" if hint else "")) from None


def same_variant(record, name: str) -> None:
    """UsageError when a record is of another variant than the one named on the command line."""
    if record.variant != name:
        raise UsageError(f"the record is a game of {quote(record.variant, 40)}, not of {name}")


def quiet_broken_pipe() -> int:
    """After a BrokenPipeError on stdout (``gibson replay g.json | head``): point stdout at devnull so the
    interpreter's final flush does not fail again, and return the status to exit with."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (tests): nothing to redirect
        pass
    return 1
