"""The JSON protocol between the game server and its clients (``docs/protocol.md``).

Every message is one JSON object in one WebSocket text frame, with a ``type`` and, optionally, an ``id``
(an integer the server echoes in its answer). :func:`parse_client_message` validates everything a client
may send (size, JSON, type, fields, their types and ranges) and raises :class:`ProtocolError` naming the
first problem; the server answers that with an ``error`` message and changes nothing.

Views on the wire are a pure function of one player's :class:`~gibson_core.observe.Observation` (plus the
ply from which its history is sent), so two games that differ only in what a player cannot see give that
player byte-identical messages. :func:`spectator_observation` builds the view of a spectator from the two
players' Observations: only what both of them know.
"""

from __future__ import annotations

import functools
import json
import re

import attrs

from .. import events as ev
from ..errors import JSON_ERRORS, GibsonError, quote
from ..moves import Move
from ..observe import Observation
from ..pieces import Piece

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 64 * 1024  # larger frames are refused by the WebSocket layer itself
SPECTATOR = ""  # the ``player`` of a spectator's Observation: no player's name

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: codes are read aloud and typed
CODE_LENGTH = 6


class ProtocolError(GibsonError, ValueError):
    """A message that does not follow the protocol; ``code`` is a short machine-readable word."""

    def __init__(self, message: str, code: str = "bad-message", msg_id: int | None = None):
        self.code = code
        self.msg_id = msg_id  # the refused message's id, when it had a valid one
        super().__init__(message)


# ------------------------------------------------------------------------------------------------
# Field checkers: each returns the clean value or raises ProtocolError naming the field
# ------------------------------------------------------------------------------------------------
@attrs.frozen
class Text:
    """A string of 1..``max_len`` characters, optionally matching ``pattern``."""

    max_len: int = 40
    pattern: str | None = None

    def check(self, name: str, value):
        if not isinstance(value, str) or not value or len(value) > self.max_len:
            raise ProtocolError(f"{name} must be a string of 1 to {self.max_len} characters, not {quote(value)}")
        if self.pattern and not re.fullmatch(self.pattern, value):
            raise ProtocolError(f"{name} {quote(value)} is not of the expected form")
        return value


@attrs.frozen
class Number:
    """An integer (or, with ``real``, a number) in ``lo..hi``."""

    lo: float
    hi: float
    real: bool = False

    def check(self, name: str, value):
        kinds = (int, float) if self.real else (int,)
        if isinstance(value, bool) or not isinstance(value, kinds) or not self.lo <= value <= self.hi:
            raise ProtocolError(f"{name} must be {'a number' if self.real else 'an integer'} from {self.lo} to "
                                f"{self.hi}, not {quote(value)}")
        return value


@attrs.frozen
class OneOf:
    """One of a few words."""

    words: tuple

    def check(self, name: str, value):
        if value not in self.words:
            raise ProtocolError(f"{name} must be one of {', '.join(self.words)}, not {quote(value)}")
        return value


@attrs.frozen
class Mapping:
    """An object of at most ``max_items`` entries, keys checked by ``key``, values by ``value``."""

    key: object
    value: object
    max_items: int

    def check(self, name: str, value):
        if not isinstance(value, dict):
            raise ProtocolError(f"{name} must be an object, not {quote(value)}")
        if len(value) > self.max_items:
            raise ProtocolError(f"{name} has {len(value)} entries, at most {self.max_items} are allowed")
        return {self.key.check(f"{name} key", k): self.value.check(f"{name}[{k[:20]}]", v) for k, v in value.items()}


@attrs.frozen
class Scalar:
    """An option value: a boolean, a number or a short string."""

    def check(self, name: str, value):
        if isinstance(value, bool) or (isinstance(value, int | float) and abs(value) <= 1e9):
            return value
        if isinstance(value, str) and len(value) <= 40:
            return value
        raise ProtocolError(f"{name} must be a boolean, a number or a short string, not {quote(value)}")


@attrs.frozen
class Clock:
    """A time control: ``{"initial": seconds, "increment": seconds}``."""

    def check(self, name: str, value):
        fields = {"initial": Number(10, 24 * 3600, real=True), "increment": Number(0, 3600, real=True)}
        return _check_fields(name, value, fields, required=("initial",))


GAME = Text(CODE_LENGTH, f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
NAME = Text(40, r"[a-z0-9][a-z0-9-]*")
SQUARE = Text(4, r"[a-z][0-9]{1,2}")
PIECE = Text(40, r"[A-Za-z0-9][A-Za-z0-9_.-]*")

# type -> (fields, required fields). Every message may also carry "id" (an integer the answer echoes).
CLIENT_MESSAGES: dict[str, tuple[dict, tuple]] = {
    "hello": ({"version": Number(1, 1000), "name": Text(40)}, ("version",)),
    "ping": ({}, ()),
    "list": ({}, ()),
    "create": ({"variant": NAME, "options": Mapping(NAME, Scalar(), 20), "side": NAME,
                "clock": Clock(), "opponent": OneOf(("human", "computer")), "agent": NAME}, ("variant",)),
    "join": ({"game": GAME, "side": NAME}, ("game",)),
    "resume": ({"game": GAME, "token": Text(64, r"[A-Za-z0-9_-]{16,64}")}, ("game", "token")),
    "spectate": ({"game": GAME}, ("game",)),
    "leave": ({"game": GAME}, ("game",)),
    "setup": ({"game": GAME, "pieces": Mapping(SQUARE, PIECE, 400)}, ("game", "pieces")),
    "play": ({"game": GAME, "move": Text(16), "ply": Number(0, 10**6)}, ("game", "move")),
    "offer_draw": ({"game": GAME}, ("game",)),
    "accept_draw": ({"game": GAME}, ("game",)),
    "decline_draw": ({"game": GAME}, ("game",)),
    "resign": ({"game": GAME}, ("game",)),
    "rematch": ({"game": GAME}, ("game",)),
}
ID = Number(0, 2**31 - 1)


def _check_fields(name: str, value, fields: dict, required: tuple) -> dict:
    if not isinstance(value, dict):
        raise ProtocolError(f"{name} must be an object, not {quote(value)}")
    unknown = sorted(k for k in value if k not in fields)
    if unknown:
        raise ProtocolError(f"{name}: unknown field {quote(unknown[0])}")
    missing = [k for k in required if k not in value]
    if missing:
        raise ProtocolError(f"{name}: missing field {missing[0]!r}")
    return {k: fields[k].check(k, v) for k, v in value.items()}


def parse_client_message(data: str | bytes) -> dict:
    """A client's message, validated: a dict with ``type``, its fields and maybe ``id``. ProtocolError
    (bounded time: the size is checked before parsing) for anything else."""
    if isinstance(data, bytes):
        raise ProtocolError("messages are JSON text frames, not binary")
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message of {len(data)} characters is over the limit of {MAX_MESSAGE_BYTES}",
                            "too-large")
    try:
        msg = json.loads(data)
    except JSON_ERRORS:
        raise ProtocolError(f"not JSON: {quote(data)}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(f"a message is a JSON object, not {quote(msg)}")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError(f"unknown message type {quote(kind)}", "unknown-type",
                            msg["id"] if type(msg.get("id")) is int else None)
    msg_id = ID.check("id", msg["id"]) if "id" in msg else None
    fields, required = CLIENT_MESSAGES[kind]
    body = {k: v for k, v in msg.items() if k not in ("type", "id")}
    try:
        clean = _check_fields(kind, body, fields, required)
    except ProtocolError as exc:
        exc.msg_id = msg_id
        raise
    clean["type"] = kind
    if msg_id is not None:
        clean["id"] = msg_id
    return clean


def encode(message: dict) -> str:
    """A message as canonical JSON text (sorted keys, no spaces): equal messages give equal bytes."""
    return json.dumps(message, sort_keys=True, separators=(",", ":"))


def decode_server_message(text: str | bytes) -> dict:
    """A server's message as a dict with a ``type``; ProtocolError when it is not one."""
    try:
        msg = json.loads(text)
    except (*JSON_ERRORS, TypeError):
        raise ProtocolError(f"server sent something that is not JSON: {quote(text)}") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError(f"server sent something that is not a message: {quote(msg)}")
    return msg


# ------------------------------------------------------------------------------------------------
# Observations and events on the wire
# ------------------------------------------------------------------------------------------------
EVENT_TYPES = {cls.__name__: cls for cls in (ev.Moved, ev.Attacked, ev.Revealed, ev.Removed, ev.Retreated,
                                             ev.Acted, ev.TokenMoved, ev.GameOver)}


def event_to_wire(event) -> dict:
    """An (already redacted) event as JSON data, tagged with its kind."""
    return {"event": type(event).__name__, **attrs.asdict(event)}


def event_from_wire(data) -> object:
    """The event a :func:`event_to_wire` dict stands for; ProtocolError for anything else."""
    if not isinstance(data, dict) or data.get("event") not in EVENT_TYPES:
        raise ProtocolError(f"not an event: {quote(data)}")
    try:
        return EVENT_TYPES[data["event"]](**{k: v for k, v in data.items() if k != "event"})
    except TypeError as exc:
        raise ProtocolError(f"bad {data['event']} event: {exc}") from None


def _piece_row(p: Piece) -> list:
    return [p.handle, p.owner, p.square, p.type, p.revealed, p.moved]


@functools.lru_cache(maxsize=1 << 16)
def _move(text: str) -> Move:
    """Moves are immutable values: a client decoding view after view parses each text once."""
    return Move.parse(text)


@functools.lru_cache(maxsize=1 << 16)
def _move_text(move: Move) -> str:
    return str(move)


@functools.lru_cache(maxsize=1 << 16)
def _piece(row: tuple) -> Piece:
    return Piece(*row)


def _tuples(value):
    """JSON lists back into the tuples the engine uses (tokens are tuples)."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def observation_to_wire(obs: Observation, since: int = 0) -> dict:
    """The JSON form of an Observation, with its history (moves and events) from ply ``since`` on: a pure
    function of the Observation, so nothing the player cannot see can reach the wire."""
    since = max(0, min(since, len(obs.moves)))
    return {
        "variant": obs.variant, "options": {k: v for k, v in obs.options}, "player": obs.player,
        "to_move": obs.to_move, "ply": obs.ply,
        "pieces": [_piece_row(p) for p in obs.pieces],
        "removed": [_piece_row(p) for p in obs.removed],
        "tokens": [[k, v] for k, v in obs.tokens],
        "since": since,
        "history": [[m, [event_to_wire(e) for e in evs]] for m, evs in zip(obs.moves[since:], obs.events[since:],
                                                                            strict=True)],
        "legal": [_move_text(m) for m in obs.legal_moves],
        "result": list(obs.result) if obs.result else None,
    }


def observation_from_wire(data: dict, moves: list, events: list) -> Observation:
    """Rebuild an Observation from its JSON form. ``moves``/``events`` hold the history the client already
    has (updated in place with the new part, only once the whole view has been read); ProtocolError when the
    data is malformed or leaves a gap, and then the history is left as it was."""
    try:
        since = data["since"]
        if not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= len(moves):
            raise ProtocolError(f"history from ply {quote(since, 20)} leaves a gap after ply {len(moves)}",
                                "gap")
        new_moves = [str(move) for move, _evs in data["history"]]
        new_events = [tuple(event_from_wire(e) for e in evs) for _move_text, evs in data["history"]]
        all_moves, all_events = tuple(moves[:since]) + tuple(new_moves), tuple(events[:since]) + tuple(new_events)
        view = Observation(
            variant=data["variant"], options=tuple(sorted(data["options"].items())), player=data["player"],
            to_move=data["to_move"], ply=data["ply"],
            pieces=tuple(_piece(tuple(row)) for row in data["pieces"]),
            removed=tuple(_piece(tuple(row)) for row in data["removed"]),
            tokens=tuple((k, _tuples(v)) for k, v in data["tokens"]),
            moves=all_moves, events=all_events,
            legal_moves=tuple(_move(m) for m in data["legal"]),
            result=tuple(data["result"]) if data["result"] else None,
        )
        moves[:] = all_moves
        events[:] = all_events
        return view
    except ProtocolError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ProtocolError(f"malformed view: {type(exc).__name__}: {quote(str(exc), 80)}") from None


def spectator_observation(first: Observation, second: Observation) -> Observation:
    """What a spectator may see: only what both players know (no hidden type at all), built from the two
    players' Observations of the same moment."""
    def common(a: Piece, b: Piece | None) -> Piece:
        return a if b is not None and b.type == a.type else attrs.evolve(a, type=None)

    theirs = {p.handle: p for p in second.pieces}
    removed_b = {p.handle: p for p in second.removed}

    def common_event(a, b):
        if a == b:
            return a
        if isinstance(a, ev.Removed):
            return a if a.type is None else b
        raise ValueError(f"the two views disagree on a {type(a).__name__} event")

    return attrs.evolve(
        first, player=SPECTATOR,
        pieces=tuple(common(p, theirs.get(p.handle)) for p in first.pieces),
        removed=tuple(common(p, removed_b.get(p.handle)) for p in first.removed),
        events=tuple(tuple(common_event(a, b) for a, b in zip(ea, eb, strict=True))
                     for ea, eb in zip(first.events, second.events, strict=True)),
        legal_moves=(),
    )
