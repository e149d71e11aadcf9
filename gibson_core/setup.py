"""Set-ups: validate a player's placement (counts, zone), make a seeded random one, save and load them as
small YAML files."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

import yaml

from .errors import NotationError, RecordError, SetupError, quote
from .schema import MapOf, Record, Text
from .variant import Variant
from .yamlfile import parse_yaml, read_text


def validate_setup(variant: Variant, player: str, setup: Mapping[str, str]) -> None:
    """Raise SetupError naming the first problem: unknown piece, square outside the zone, wrong counts."""
    if not isinstance(player, str) or player not in variant.players:
        raise SetupError(f"{quote(player, 30)} is not a player of {variant.name} (players: {', '.join(variant.players)})")
    if not isinstance(setup, Mapping):
        raise SetupError(f"{player}'s set-up is a mapping of squares to piece ids, got {type(setup).__name__}")
    allowed = set(variant.setup_squares[player])
    seen: dict[int, str] = {}
    for square, type_id in setup.items():
        if not isinstance(square, str) or not isinstance(type_id, str):
            raise SetupError(f"{player}'s set-up: expected square: piece id as text, got {quote(square, 20)}: "
                             f"{quote(type_id, 20)}")
        try:
            sq = variant.grid.square(square)
        except NotationError as exc:
            raise SetupError(f"{player}'s set-up: {exc}") from None
        if type_id not in variant.type_index:
            raise SetupError(f"{player}'s set-up: unknown piece {quote(type_id, 30)} on {square}")
        if sq in seen:
            raise SetupError(f"{player}'s set-up: {seen[sq]} and {square} are the same square")
        seen[sq] = square
        if sq not in allowed:
            raise SetupError(f"{player}'s set-up: {square} is outside {player}'s set-up zone (or may not be used)")
    counts = Counter(setup.values())
    wrong = [f"{t.id} {counts.get(t.id, 0)} of {t.count}" for t in variant.types if counts.get(t.id, 0) != t.count]
    if wrong:
        raise SetupError(f"{player}'s set-up has the wrong number of pieces: " + ", ".join(wrong))


def setup_problems(variant: Variant, player: str, setup: Mapping[str, str]) -> list[str]:
    """Every problem of a (possibly partial) set-up, for a front end to show; empty when it is valid."""
    try:
        validate_setup(variant, player, setup)
    except SetupError as exc:
        return [str(exc)]
    return []


def random_setup(variant: Variant, player: str, rng: random.Random | int | None = None) -> dict[str, str]:
    """A uniformly random legal set-up for ``player`` (seeded by an int or a Random)."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    squares = list(variant.setup_squares[player])
    rng.shuffle(squares)
    pieces = [t.id for t in variant.types for _ in range(t.count)]
    names = variant.grid.names
    return {names[sq]: pid for sq, pid in zip(squares, pieces, strict=False)}


def save_setup(path: str | Path, variant: Variant, player: str, setup: Mapping[str, str]) -> None:
    """Write a set-up as YAML: variant, player and the pieces by square."""
    validate_setup(variant, player, setup)
    data = {"variant": variant.name, "player": player, "pieces": dict(sorted(setup.items()))}
    Path(path).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


MAX_SETUP_BYTES = 64_000  # a set-up file is a few hundred bytes

SETUP_FIELDS = Record({
    "variant": Text(max_len=60, what="a variant name"),
    "player": Text(max_len=30, what="a player name"),
    "pieces": MapOf(Text(max_len=30, what="a piece id"), "a mapping of squares to piece ids", key_len=10),
}, "set-up key")


def load_setup(path: str | Path, variant: Variant, player: str | None = None) -> tuple[str, dict[str, str]]:
    """Read and validate a set-up file; returns (player, setup). RecordError/SetupError name the problem in
    one line (the file, the key and what was wrong)."""

    def error(problem) -> RecordError:
        return RecordError(f"cannot read set-up: {problem}")

    doc = parse_yaml(read_text(path, error, MAX_SETUP_BYTES), str(path), error)
    data = doc.data
    if not isinstance(data, dict) or "pieces" not in data:
        raise RecordError(f"{path}: a set-up file has 'variant', 'player' and 'pieces' (square: piece id)")
    problems: list = []
    SETUP_FIELDS.check(data, (), lambda where, message: problems.append(doc.problem(where, message)))
    if problems:
        raise RecordError(f"set-up {problems[0]}")
    if data.get("variant") not in (None, variant.name):
        raise RecordError(f"{path}: this set-up is for {quote(data.get('variant'))}, not {variant.name}")
    named = data.get("player")
    if named is not None and named not in variant.players:
        raise RecordError(f"{path}: {variant.name} has no player {quote(named, 30)} (players: {', '.join(variant.players)})")
    owner = player or named
    if owner not in variant.players:
        raise RecordError(f"{path}: unknown player {quote(owner, 30)}")
    setup = {k.lower(): v for k, v in data["pieces"].items()}
    if player and named not in (None, player):
        setup = mirror_setup(variant, setup)
    validate_setup(variant, owner, setup)
    return owner, setup


def mirror_setup(variant: Variant, setup: Mapping[str, str]) -> dict[str, str]:
    """A set-up carried over to the other side of the board, so a blue set-up can be used by red and the
    other way round: flipped top to bottom where that maps one set-up zone onto the other (Tri-Tactics),
    else turned half a circle (Dover Patrol's harbours in opposite corners)."""
    grid = variant.grid
    flips = (
        lambda f, r: (grid.ranks - 1 - r) * grid.files + f,
        lambda f, r: (grid.ranks - 1 - r) * grid.files + (grid.files - 1 - f),
    )
    zones = [set(variant.setup_squares[p]) for p in variant.players]
    flip = next((fl for fl in flips if {fl(*grid.coords(sq)) for sq in zones[0]} == zones[1]), flips[1])
    return {grid.name(flip(*grid.coords(grid.square(square)))): pid for square, pid in setup.items()}
