"""Saved games of the window: a readable part with only what the players may know, and the full record
sealed so that opening the file shows nobody's hidden pieces.

A saved game (``gibson-save/1``, JSON) holds

* in clear: the variant, its options, who played whom, the number of plies, and — against the computer —
  the human's own *player record* (their Observation: their pieces, the public moves, what they saw);
* ``sealed``: the full record (both set-ups, every move) and the seats (opponent, level, the human's side,
  seed), encrypted and authenticated with Fernet (AES-128-CBC and HMAC-SHA256, from the ``cryptography``
  package) under a key kept in the user's Gibson folder (``keys/saved-games.key``, readable by its owner only).

A resumed game is replayed exactly from the sealed record, with the seats the sealed part names (a game
against the computer cannot be reopened as a hot-seat game to read the computer's pieces). A changed or
foreign sealed part is refused (:class:`~gibson_core.errors.RecordError`), never half-loaded. The key is on
the player's own machine, so this keeps the computer's set-up out of sight, not out of reach of someone
determined to decrypt it with the key file; ``docs/guide.md`` says so.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from gibson_core.errors import JSON_ERRORS, RecordError
from gibson_core.record import FORMAT as RECORD_FORMAT
from gibson_core.record import GameRecord, parse_record, player_record

from . import storage

SAVE_FORMAT = "gibson-save/1"
KEY_NAME = "saved-games.key"
MAX_BYTES = 20_000_000  # a saved game of the longest allowed game is far smaller


def key_path() -> Path:
    """Where the sealing key lives (inside the user's Gibson folder, away from the saved games)."""
    return storage.home() / "keys" / KEY_NAME


def _fernet(create: bool):
    from cryptography.fernet import Fernet

    path = key_path()
    try:
        return Fernet(path.read_bytes().strip())
    except FileNotFoundError:
        if not create:
            raise RecordError("this saved game was sealed with a key this Gibson folder does not have") from None
    except (OSError, ValueError) as exc:
        raise RecordError(f"the saved-games key ({path}) cannot be used: {type(exc).__name__}") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    key = Fernet.generate_key()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another window made it a moment ago: use that one
        return _fernet(create=False)
    with os.fdopen(fd, "wb") as f:
        f.write(key + b"\n")
    return Fernet(key)


def save_document(record: GameRecord, seats: dict, view_of: str | None, state) -> dict:
    """The JSON document of a saved game: ``seats`` (opponent, level, human, seed) and the record sealed;
    ``view_of``'s player record in clear when one player's view may be shown (against the computer)."""
    secret = json.dumps({"record": json.loads(record.to_json()), "seats": seats}).encode()
    doc = {"format": SAVE_FORMAT, "variant": record.variant, "options": dict(record.options or {}),
           "opponent": seats.get("opponent"), "human": seats.get("human"), "plies": len(record.moves)}
    if view_of is not None:
        doc["player_record"] = player_record(state, view_of)
    doc["sealed"] = _fernet(create=True).encrypt(secret).decode("ascii")
    return doc


def write_save(path, record: GameRecord, seats: dict, view_of: str | None, state) -> None:
    """Write a saved game; OSError when the folder cannot be written (the caller says so)."""
    text = json.dumps(save_document(record, seats, view_of, state), indent=1) + "\n"
    tmp = Path(path).with_suffix(".part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def read_save(path) -> tuple[GameRecord, dict | None]:
    """A saved game's record and seats (None for a plain ``gibson-record/1`` file, which has no seats).
    RecordError with one line for anything unreadable, corrupt, changed or sealed elsewhere."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read the file ({exc.strerror or type(exc).__name__})") from None
    if len(raw) > MAX_BYTES:
        raise RecordError("the file is too large to be a saved game")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, *JSON_ERRORS):
        raise RecordError("the file is damaged (not a saved game)") from None
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        return parse_record(raw.decode("utf-8"), "the record"), None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or not isinstance(data.get("sealed"), str):
        raise RecordError("not a saved game of Gibson")
    from cryptography.fernet import InvalidToken

    try:
        secret = json.loads(_fernet(create=False).decrypt(data["sealed"].encode("ascii")))
    except (InvalidToken, UnicodeEncodeError, *JSON_ERRORS):
        raise RecordError("the sealed part was changed or sealed with another Gibson folder's key") \
            from None
    if not isinstance(secret, dict) or not isinstance(secret.get("seats"), dict):
        raise RecordError("the saved game names no seats")
    return parse_record(json.dumps(secret.get("record")), "the record"), secret["seats"]
