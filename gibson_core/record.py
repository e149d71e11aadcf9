"""Game records (JSON): variant, options, seed, both set-ups, moves in notation, result. Loading replays
every move and refuses a record with a malformed or illegal move, naming its ply.

A record *for a player* (``for_player``) holds only that player's Observation of the game: their own
set-up and the public moves, never the opponent's hidden set-up.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs

from .errors import GibsonError, IllegalMoveError, NotationError, RecordError, quote
from .moves import Move
from .plugins import load_variant
from .schema import Flag, ListOf, MapOf, Maybe, Number, OneOf, Record, Text, Whole
from .state import GameState
from .yamlfile import format_path, read_text

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

    def check_players(self, variant) -> None:
        """RecordError unless every player the record names (set-ups, first, winner) is one of the variant's."""
        players = variant.players
        names = ", ".join(players)
        for player in self.setups:
            if player not in players:
                raise RecordError(f"setups: {variant.name} has no player {quote(player, 30)} (players: {names})")
        if self.first is not None and self.first not in players:
            raise RecordError(f"first: {variant.name} has no player {quote(self.first, 30)} (players: {names})")
        winner = (self.result or {}).get("winner")
        if winner is not None and winner not in players and winner != "draw":  # "draw": records before 0.2
            raise RecordError(f"result.winner: {variant.name} has no player {quote(winner, 30)} (players: {names})")

    def _start_tokens(self, variant) -> dict | None:
        """The record's starting tokens, each checked against the shape of the one the game makes itself
        (same name, same number and kinds of parts, square names on the board)."""
        if not self.tokens:
            return None
        state = GameState.from_setups(variant, self.setups, self.first)
        start, handles = state.tokens, len(state.owner)
        out = {}
        for name, value in self.tokens.items():
            shape = start.get(name)
            where = f"tokens.{name[:40]}"
            if shape is None:
                known = ", ".join(sorted(start)) or "none"
                raise RecordError(f"{where}: {variant.name} has no such token (tokens: {known})")
            if len(value) != len(shape) or any(type(a) is not type(b) for a, b in zip(value, shape, strict=True)):
                raise RecordError(f"{where}: expected parts like {quote(list(shape))}, got {quote(json.dumps(value))}")
            for part, model in zip(value, shape, strict=True):
                if isinstance(part, str) and model in variant.grid.index and part not in variant.grid.index:
                    raise RecordError(f"{where}: {quote(part)} is not a square of this board")
                if isinstance(part, int) and not isinstance(part, bool) and not 0 <= part < handles:
                    raise RecordError(f"{where}: {part} is no piece of this game")
            out[name] = tuple(value)
        return out

    def replay(self, upto: int | None = None) -> GameState:
        """Rebuild the game by playing every move (or the first ``upto``); RecordError names a bad ply."""
        if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int) or upto < 0):
            raise RecordError(f"a ply to stop at is a whole number from 0, got {quote(upto)}")
        if upto is not None and upto > len(self.moves):
            raise RecordError(f"the record has {len(self.moves)} plies; there is no ply {upto}")
        try:
            variant = load_variant(self.variant, self.options or None)
            self.check_players(variant)
            state = GameState.from_setups(variant, self.setups, self.first, self._start_tokens(variant))
        except GibsonError as exc:
            raise RecordError(f"record cannot start the game: {exc}") from None
        for ply, text in enumerate(self.moves[:upto] if upto is not None else self.moves, start=1):
            try:
                state.play(Move.parse(text))
            except NotationError as exc:
                raise RecordError(f"ply {ply}: malformed move {quote(text)}: {exc}") from None
            except IllegalMoveError as exc:
                raise RecordError(f"ply {ply}: illegal move {quote(text)}: {exc.reason}") from None
        if upto is None and self.result is not None:
            result = state.outcome()
            got = {"winner": result.winner, "reason": result.reason} if result else None
            said = self.result.get("winner")
            if got is None or got["winner"] != (None if said == "draw" else said):  # "draw": records before 0.2
                raise RecordError(f"record says the result is {self.result}, the replay gives {got}")
        return state


MAX_RECORD_BYTES = 4_000_000  # a 2,000-ply game is about 30 kB
MAX_MOVES = 100_000

_SCALAR = OneOf(Flag(), Number(-1e18, 1e18), Text(max_len=200), what="true/false, a number or text")
_PLAYER = Text(max_len=30, what="a player name")
RECORD_FIELDS = Record({
    "format": Text(max_len=40),
    "variant": Text(max_len=60, what="a variant name"),
    "setups": MapOf(MapOf(Text(max_len=30, what="a piece id"), "a mapping of squares to piece ids", key_len=10),
                    "a mapping of players to set-ups", key_len=30),
    "moves": ListOf(Text(max_len=40, what="a move in notation"), what="a list of moves"),
    "options": MapOf(_SCALAR, "a mapping of option names to values"),
    "seed": Maybe(Whole(-2**63, 2**63)),
    "first": Maybe(_PLAYER),
    "result": Maybe(Record({"winner": Maybe(_PLAYER), "reason": Text(max_len=400)}, "result key")),
    "tokens": Maybe(MapOf(ListOf(OneOf(Flag(), Whole(0, 10**9), Text(max_len=40), what="a token part")),
                          "a mapping of token names to values")),
}, "record field")


def parse_record(text: str, source: str = "<record>") -> GameRecord:
    """Read a record from JSON text; RecordError naming the field for anything malformed (never a crash).
    The record is checked against its variant when it is replayed."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{source}: too large for a game record ({len(text):,} characters)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source}: not a game record (invalid JSON at line {exc.lineno}: {exc.msg})") from None
    except (ValueError, RecursionError) as exc:  # an integer of 5,000 digits, lists nested 100,000 deep
        raise RecordError(f"{source}: not a game record ({str(exc)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{source}: not a game record (expected \"format\": \"{FORMAT}\")")
    missing = [k for k in ("variant", "setups", "moves") if k not in data]
    if missing:
        raise RecordError(f"{source}: record is missing {', '.join(missing)}")
    problems: list[str] = []
    fields = {f.name for f in attrs.fields(GameRecord)}
    schema = Record(RECORD_FIELDS.fields, RECORD_FIELDS.key_what,
                                          extra=tuple(fields - set(RECORD_FIELDS.fields)))
    schema.check(data, (), lambda path, message: problems.append(f"{format_path(path)}: {message}"))
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise RecordError(f"{source}: {problems[0]}{more}")
    if len(data["moves"]) > MAX_MOVES:
        raise RecordError(f"{source}: moves: more than {MAX_MOVES:,} moves")
    return GameRecord(**{k: v for k, v in data.items() if k in fields})


def load_record(path: str | Path) -> GameRecord:
    """Read a record file (not yet replayed: call ``replay``); RecordError for anything unreadable."""
    text = read_text(path, lambda problem: RecordError(str(problem)), MAX_RECORD_BYTES)
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
