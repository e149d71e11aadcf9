"""Game records (JSON): variant, options, seed, both set-ups, moves in notation, result. Loading replays
every move and refuses a record with a malformed or illegal move, naming its ply.

A record *for a player* (``for_player``) holds only that player's Observation of the game: their own
set-up and the public moves, never the opponent's hidden set-up.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs

from .errors import GibsonError, IllegalMoveError, NotationError, RecordError
from .moves import Move
from .plugins import load_variant
from .state import GameState

FORMAT = "gibson-record/1"


@attrs.define
class GameRecord:
    """A whole game: enough to replay it exactly."""

    variant: str
    setups: dict  # player -> {square: piece id}
    moves: list = attrs.field(factory=list)  # notation strings
    options: dict = attrs.field(factory=dict)
    seed: int | None = None
    first: str | None = None
    result: dict | None = None  # {"winner": player name or None for a draw, "reason": ...}
    tokens: dict | None = None

    @classmethod
    def from_state(cls, state: GameState, setups: dict, seed: int | None = None, first: str | None = None) -> GameRecord:
        """The record of a game played from ``setups``."""
        result = state.outcome()
        return cls(
            variant=state.variant.name, setups={p: dict(s) for p, s in setups.items()},
            moves=[str(m) for m, _ in state.history], options=dict(state.variant.options), seed=seed,
            first=first, result={"winner": result.winner, "reason": result.reason} if result else None,
        )

    def to_json(self) -> str:
        """The record as JSON text."""
        data = {"format": FORMAT, **attrs.asdict(self)}
        return json.dumps(data, indent=1)

    def save(self, path: str | Path) -> None:
        """Write the record to a file."""
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    def replay(self, upto: int | None = None) -> GameState:
        """Rebuild the game by playing every move (or the first ``upto``); RecordError names a bad ply."""
        try:
            variant = load_variant(self.variant, self.options or None)
            state = GameState.from_setups(variant, self.setups, self.first, self.tokens)
        except GibsonError as exc:
            raise RecordError(f"record cannot start the game: {exc}") from None
        for ply, text in enumerate(self.moves[:upto] if upto is not None else self.moves, start=1):
            try:
                state.play(Move.parse(text))
            except NotationError as exc:
                raise RecordError(f"ply {ply}: malformed move {text!r}: {exc}") from None
            except IllegalMoveError as exc:
                raise RecordError(f"ply {ply}: illegal move {text!r}: {exc.reason}") from None
        if upto is None and self.result is not None:
            result = state.outcome()
            got = {"winner": result.winner, "reason": result.reason} if result else None
            said = self.result.get("winner")
            if got is None or got["winner"] != (None if said == "draw" else said):  # "draw": records before 0.2
                raise RecordError(f"record says the result is {self.result}, the replay gives {got}")
        return state


def parse_record(text: str, source: str = "<record>") -> GameRecord:
    """Read a record from JSON text; RecordError for anything malformed (never a crash)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source}: not a game record (invalid JSON at line {exc.lineno}: {exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{source}: not a game record (expected \"format\": \"{FORMAT}\")")
    fields = {f.name for f in attrs.fields(GameRecord)}
    missing = [k for k in ("variant", "setups", "moves") if k not in data]
    if missing:
        raise RecordError(f"{source}: record is missing {', '.join(missing)}")
    if not isinstance(data["setups"], dict) or not isinstance(data["moves"], list):
        raise RecordError(f"{source}: 'setups' must be a mapping and 'moves' a list")
    if not all(isinstance(m, str) for m in data["moves"]):
        raise RecordError(f"{source}: every move must be written in notation, as text")
    return GameRecord(**{k: v for k, v in data.items() if k in fields})


def load_record(path: str | Path) -> GameRecord:
    """Read a record file (not yet replayed: call ``replay``)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read: {exc}") from None
    return parse_record(text, str(path))


def load_game(path: str | Path) -> tuple[GameRecord, GameState]:
    """Read and replay a record file; the state after its last move."""
    record = load_record(path)
    return record, record.replay()


def player_record(state: GameState, player: str) -> dict:
    """A saved game *for one player*: their Observation of the game (their own pieces, the public moves, the
    events as they saw them), never the opponent's hidden set-up. JSON-ready."""
    from .observe import observe

    view = observe(state, player)
    data = attrs.asdict(view, recurse=True, value_serializer=_event_names)
    data["legal_moves"] = [str(m) for m in view.legal_moves]
    return {"format": "gibson-player-record/1", **data}


def _event_names(_inst, _field, value):
    """attrs serializer: tag each event with its kind so a player record reads on its own."""
    if attrs.has(type(value)) and type(value).__module__.endswith("events"):
        return {"event": type(value).__name__, **attrs.asdict(value)}
    if isinstance(value, Move):
        return str(value)
    return value
