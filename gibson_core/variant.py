"""Variants: read a game's YAML, validate every key (errors name file, key path and line), and compile it
into immutable rule tables the engine uses directly (neighbours, elements, combat cells, win squares).

A plugin registers a :class:`VariantSpec`; :func:`load_variant` turns it, with options, into a
:class:`Variant`.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import attrs

from . import combat
from .errors import NotationError, Problem, UnknownPlayerError, VariantError, quote
from .grid import Grid
from .options import check_option_values
from .pieces import (
    AFTER_MOVE,
    ANY_SIDE,
    ATTACK_MODES,
    ATTACK_PATTERNS,
    EMBLEMS,
    IN_LINE,
    MOVE_KINDS,
    ONTO,
    SLIDE,
    SLIDE_ATTACKS,
    Movement,
    PieceType,
)
from .terrain import TerrainKind
from .variant_schema import OPTION, PIECE, VARIANT, record_keys
from .yamlfile import YamlDoc, format_path, read_yaml

# Every key the loader accepts, with its type, is declared in ``variant_schema`` (docs/reference.md documents
# each one; tests/test_docs.py checks it). A new key must be added there, or the loader reports it as unknown.
#: A player's name: it appears on command lines (``--as red``), in records and in messages.
PLAYER_NAME = re.compile(r"[a-z][a-z0-9-]{0,23}")
#: Words that mean something other than a player wherever a player is named (``--as all``, a drawn result).
RESERVED_NAMES = frozenset({"all", "draw", "none", "nobody", "both", "spectator"})

TOP_LEVEL_KEYS = record_keys(VARIANT)
PIECE_KEYS = record_keys(PIECE)
OPTION_KEYS = set(record_keys(OPTION))


@attrs.frozen
class VariantSpec:
    """What a plugin registers: the variant's name, its YAML file and the object holding its rule hooks."""

    name: str
    path: Path = attrs.field(converter=Path)
    hooks: Any = None
    description: str = ""


def deep_merge(base: Any, over: Any) -> Any:
    """Merge ``over`` into a copy of ``base``: mappings merge key by key, anything else is replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = deep_merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)


class _Checker:
    """Collects problems against one YAML document instead of stopping at the first."""

    def __init__(self, doc: YamlDoc):
        self.doc = doc
        self.problems: list[Problem] = []

    def add(self, path: tuple, message: str) -> None:
        self.problems.append(self.doc.problem(path, message))

    def unknown_keys(self, data: dict, path: tuple, known, what: str) -> None:
        """Record a problem for every key of ``data`` not in ``known`` (``what``: "piece key", ...)."""
        names = ", ".join(known if isinstance(known, tuple | list) else sorted(known))
        for key in data:
            if key not in known:
                self.add(path + (key,), f"unknown {what} {quote(key)} (known: {names})")

    def need(self, data: dict, key: str, path: tuple, kind: type | tuple, what: str) -> Any:
        """The value at ``key``; records a problem and returns None if it is missing or of a wrong type."""
        if not isinstance(data, dict):
            self.add(path, f"expected a mapping, got {type(data).__name__}")
            return None
        if key not in data:
            self.add(path, f"missing key '{key}' ({what})")
            return None
        return self.typed(data[key], path + (key,), kind, what)

    def typed(self, value: Any, path: tuple, kind: type | tuple, what: str) -> Any:
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = False if isinstance(value, bool) and bool not in kinds else isinstance(value, kinds)
        if not ok:
            names = " or ".join(k.__name__ for k in kinds)
            self.add(path, f"expected {names} ({what}), got {type(value).__name__} {quote(value)}")
            return None
        return value


# Options every variant may declare whose values the engine itself reads (docs/reference.md, "options"):
# whole numbers, 0 switching the rule off.
PLY_LIMIT = "ply-limit"
TWO_SQUARE = "two-square"
NO_FIGHT_DRAW = "no-fight-draw"
ENGINE_OPTIONS = (PLY_LIMIT, TWO_SQUARE, NO_FIGHT_DRAW)


@attrs.frozen
class Repetition:
    """Repetition rules, from the options ``two-square`` and ``no-fight-draw`` (0: off).

    ``two_square = N``: a piece may not move back and forth between the same two squares more than N times
    in a row. Its owner's moves are counted: a plain move (no attack) of a piece from A to B continues the
    run when that player's previous move was the same piece's move between A and B the other way (B to A)
    and starts a new run of 1 otherwise; a move that would make a run of N + 1 is illegal. Any other move of
    that player (another piece, other squares, an attack or an action) ends the run; the opponent's moves do
    not. ``no_fight = N``: the game is drawn once N plies in a row have passed without an attack.
    """

    two_square: int = 0
    no_fight: int = 0

    @property
    def active(self) -> bool:
        """True when either rule is on."""
        return bool(self.two_square or self.no_fight)


@attrs.frozen(eq=False)
class Variant:
    """A compiled variant: everything the engine needs, in flat tables, plus the data it came from."""

    name: str
    title: str
    description: str
    players: tuple
    grid: Grid
    kinds: dict  # terrain id -> TerrainKind
    cell_kind: tuple  # square -> terrain id
    zones: dict  # zone -> {player: frozenset(squares)}
    paths: dict  # path name -> {player: tuple(squares)}
    types: tuple  # PieceType, by type index
    type_index: dict  # id -> type index
    setup_squares: dict  # player -> tuple(squares)
    combat_cells: tuple  # [attacker type][defender type] -> (tuple(CompiledRule), Outcome)
    elements: tuple  # [type][square] -> element under that type
    win_arrive: tuple  # [player] -> {square: ((frozenset types, path tuple | None, reason), ...)}
    lose_when_removed: frozenset
    lose_when_only_left: frozenset
    draw_when_none_left: frozenset
    transit_squares: frozenset
    compulsory_attack: bool
    ply_limit: int
    options: dict  # resolved option values
    option_specs: dict  # option name -> its data
    data: dict  # the merged, validated data (render colours, overlays, services...)
    source: str
    plugin_manager: Any = None
    spec: VariantSpec | None = None
    rules: dict = attrs.field(factory=dict)  # core rule section -> its compiled tables ("effects", "flags")
    attack_mode: str = AFTER_MOVE  # the variant's default; each PieceType has its resolved attack_mode
    repetition: Repetition = Repetition()

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<Variant {self.name}: {self.grid.files}x{self.grid.ranks}, {len(self.types)} piece types; {opts}>"

    # -- convenience -------------------------------------------------------------------------------
    def type_of(self, type_id: str) -> PieceType:
        """The PieceType with this id (KeyError names the id)."""
        try:
            return self.types[self.type_index[type_id]]
        except KeyError:
            raise KeyError(f"{self.name} has no piece type {quote(type_id)}") from None

    def player_index(self, player: str) -> int:
        """0 or 1 for a player name; :class:`UnknownPlayerError` (a ValueError) for anything else."""
        try:
            return self.players.index(player)
        except ValueError:
            raise UnknownPlayerError(f"{quote(player, 40)} is not a player of {self.name} "
                                     f"(players: {', '.join(self.players)})") from None

    def kind_of(self, sq: int) -> TerrainKind:
        """The terrain kind of a square."""
        return self.kinds[self.cell_kind[sq]]

    def zone(self, name: str, player: str) -> frozenset:
        """The squares of a player's zone (empty when the variant has no such zone)."""
        return self.zones.get(name, {}).get(player, frozenset())

    @property
    def piece_count(self) -> int:
        """Pieces a side."""
        return sum(t.count for t in self.types)

    def summary(self) -> str:
        """One line: name, board, pieces and options."""
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return (f"{self.name}: {self.title}, {self.grid.files}x{self.grid.ranks} board, {len(self.types)} piece "
                f"types, {self.piece_count} pieces a side" + (f"; options: {opts}" if opts else ""))


# ---------------------------------------------------------------------------------------------------
# Compilation
# ---------------------------------------------------------------------------------------------------

# Colours of pieces that name neither a `color` nor a service with one, by position in the piece list, so
# that they tell apart on the board (docs/reference.md, "Piece keys").
PIECE_PALETTE = ("#8a6d3b", "#4f6d7a", "#7a4f6d", "#5b7a3a", "#a0522d", "#3a5b7a", "#7a6a3a", "#6d4f7a",
                 "#3a7a6a", "#7a3a3a", "#55606e", "#8a7a5b")

_VALUE_SELECTOR = re.compile(r"^value\s*(>=|<=|>|<|==)\s*(\d+(?:\.\d+)?)$")


def compile_variant(doc: YamlDoc, options: dict | None = None, spec: VariantSpec | None = None) -> Variant:
    """Validate a variant document and compile it; raises VariantError listing every problem."""
    from .inherit import resolve  # inheritance finds parents through the plugin registry

    doc, spec = resolve(doc, spec)
    chk = _Checker(doc)
    data = doc.data
    if not isinstance(data, dict):
        raise VariantError(doc.problem((), "a variant file is a mapping of keys (name, board, pieces, ...)"))
    data, values = _apply_options(chk, data, options or {})
    variant = _compile(chk, data, values)
    if chk.problems:
        raise VariantError(chk.problems)
    if spec is not None:
        variant = attrs.evolve(variant, spec=spec)
    return variant


def _apply_options(chk: _Checker, data: dict, chosen: dict) -> tuple[dict, dict]:
    specs = data.get("options") or {}
    if not isinstance(specs, dict):
        chk.add(("options",), "expected a mapping of option names")
        specs = {}
    values = {}
    for name, spec in specs.items():
        if not isinstance(spec, dict):
            chk.add(("options", name), "expected a mapping with description and default")
            continue
        if "default" not in spec:
            chk.add(("options", name), "missing key 'default'")
        values[name] = spec.get("default")
    values.update(check_option_values(specs, chosen, str(data.get("name"))[:60]))
    merged = data
    for name, value in values.items():
        over = specs[name].get("overrides") if isinstance(specs[name], dict) else None
        if value and over:
            merged = deep_merge(merged, over)
    return merged, values


def _compile(chk: _Checker, data: dict, option_values: dict) -> Variant:
    name = chk.need(data, "name", (), str, "the variant's registered name") or "?"
    title = data.get("title", name)
    description = data.get("description", "")
    players = chk.need(data, "players", (), list, "the two player names") or ["blue", "red"]
    if len(players) != 2 or not all(isinstance(p, str) for p in players):
        chk.add(("players",), f"expected two player names, got {quote(players)}"[:200])
        players = ["blue", "red"]
    for i, p in enumerate(players):
        if not PLAYER_NAME.fullmatch(p) or p in RESERVED_NAMES:
            chk.add(("players", i), f"player name {quote(p[:40])} is not allowed: a player name is lower case letters, "
                    f"digits and '-', starts with a letter, and is none of {', '.join(sorted(RESERVED_NAMES))}")
    if players[0] == players[1]:
        chk.add(("players",), "the two players need different names")
    players = tuple(players)

    grid, cell_kind, kinds = _compile_board(chk, data)
    zones = _compile_zones(chk, data, grid, players)
    paths = _compile_paths(chk, data, grid, players)
    types, type_index = _compile_pieces(chk, data, zones)
    _check_attack_modes(chk, data, types)
    selector = _Selector(chk, types, type_index)
    setup_squares = _compile_setup(chk, data, grid, zones, players, kinds, cell_kind, types)
    combat_cells = _compile_combat(chk, data, types, type_index, selector, kinds, zones)
    elements = tuple(
        tuple(kinds[cell_kind[sq]].element_under(t.tags) if cell_kind[sq] in kinds else None for sq in range(grid.size))
        for t in types
    )
    win_arrive = _compile_wins(chk, data, players, zones, paths, selector)
    rules = _compile_rule_sections(chk, data, grid, zones, players, selector)
    _check_overlays(chk, data, grid, zones, paths, players)
    lists = {}
    for key in ("lose_when_removed", "lose_when_only_left", "draw_when_none_left"):
        spec = data.get(key)
        lists[key] = selector.select(spec, (key,)) if spec else frozenset()
    transit = frozenset(sq for sq in range(grid.size) if kinds.get(cell_kind[sq]) and kinds[cell_kind[sq]].transit)
    if not data.get("transit_forfeit"):
        transit = frozenset()
    ply_limit, two_square, no_fight = (_whole_option(chk, option_values, name) for name in ENGINE_OPTIONS)
    return Variant(
        name=name, title=title, description=description, players=players, grid=grid, kinds=kinds,
        cell_kind=cell_kind, zones=zones, paths=paths, types=types, type_index=type_index,
        setup_squares=setup_squares, combat_cells=combat_cells, elements=elements, win_arrive=win_arrive,
        lose_when_removed=lists["lose_when_removed"], lose_when_only_left=lists["lose_when_only_left"],
        draw_when_none_left=lists["draw_when_none_left"], transit_squares=transit,
        compulsory_attack=bool(data.get("compulsory_attack", False)), ply_limit=ply_limit,
        options=dict(option_values), option_specs=dict(data.get("options") or {}), data=data, source=chk.doc.file,
        rules=rules, attack_mode=data.get("attack_mode", AFTER_MOVE) if data.get("attack_mode") in ATTACK_MODES
        else AFTER_MOVE, repetition=Repetition(two_square, no_fight),
    )


def _whole_option(chk: _Checker, values: dict, name: str) -> int:
    """The value of an engine option (``ply-limit``, ``two-square``, ``no-fight-draw``): a whole number, 0 when
    the variant does not declare it."""
    value = values.get(name) or 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        chk.add(("options", name), f"expected a whole number (0: off), got {quote(value)}")
        return 0
    return value


# overlay type -> its own keys (docs/reference.md, "overlays"); every overlay may also have these
OVERLAY_TYPES = {"river": ("path", "squares"), "zone": ("zone",), "line": ("between",), "walls": (),
                 "flags": ("colors",)}
OVERLAY_COMMON = ("type", "color", "width", "label")


def _check_overlays(chk: _Checker, data: dict, grid, zones: dict, paths: dict, players: tuple) -> None:
    """Overlays are drawing hints, but a misspelt one would silently draw nothing: beyond the types the schema
    checks, each type's own keys and the zone, path or ranks it names."""
    overlays = data.get("overlays")
    if overlays is None:
        return
    if not isinstance(overlays, list):
        chk.add(("overlays",), f"expected a list of overlays, got {type(overlays).__name__}")
        return
    for i, item in enumerate(overlays):
        path = ("overlays", i)
        if not isinstance(item, dict) or item.get("type") not in OVERLAY_TYPES:
            chk.add(path, f"an overlay is a mapping with a type ({', '.join(OVERLAY_TYPES)}), got {item!r:.60}")
            continue
        kind = item["type"]
        chk.unknown_keys(item, path, OVERLAY_COMMON + OVERLAY_TYPES[kind], f"key of a {kind} overlay")
        if kind == "river":
            if ("path" in item) == ("squares" in item):
                chk.add(path, "a river overlay has either 'path' or 'squares'")
            elif "path" in item and item["path"] not in paths:
                chk.add(path + ("path",), f"unknown path {item['path']!r:.40} (paths: {', '.join(paths) or 'none'})")
            elif "squares" in item:
                _squares(chk, grid, item["squares"], path + ("squares",))
        elif kind == "zone" and item.get("zone") not in zones:
            chk.add(path + ("zone",), f"unknown zone {item.get('zone')!r:.40} (zones: {', '.join(zones) or 'none'})")
        elif kind == "line":
            ranks = item.get("between")
            if not (isinstance(ranks, list) and len(ranks) == 2 and all(type(r) is int for r in ranks)
                    and abs(ranks[0] - ranks[1]) == 1 and grid is not None and 1 <= min(ranks) < grid.ranks):
                chk.add(path + ("between",), f"expected two neighbouring ranks like [6, 7], got {ranks!r:.40}")
        elif kind == "flags":
            colours = item.get("colors")
            if not (isinstance(colours, dict) and set(colours) <= set(players)):
                chk.add(path + ("colors",), f"expected a colour for each player {{PLAYER: \"#rrggbb\"}}, "
                        f"got {colours!r:.60}")


def _compile_rule_sections(chk, data, grid, zones, players, selector) -> dict:
    """Tables of the core's data-declared rule modules: per-piece effects and actions, carried Flags."""
    from .effects import compile_effects
    from .tokens import compile_flags

    out = {}
    effects = compile_effects(chk, data, grid, selector)
    if effects is not None:
        out["effects"] = effects
    flags = compile_flags(chk, data, grid, zones, players, selector)
    if flags is not None:
        out["flags"] = flags
    return out


def _squares(chk: _Checker, grid: Grid | None, spec: Any, path: tuple) -> list[int]:
    if grid is None:
        return []
    try:
        return grid.squares(spec)
    except NotationError as exc:
        chk.add(path, str(exc))
        return []


def _compile_board(chk: _Checker, data: dict):
    board = chk.need(data, "board", (), dict, "board size and cells") or {}
    files = chk.need(board, "files", ("board",), int, "number of files") or 8
    ranks = chk.need(board, "ranks", ("board",), int, "number of ranks") or 8
    try:
        plain = Grid(files, ranks)
    except ValueError as exc:
        chk.add(("board",), str(exc))
        plain = Grid(8, 8)
    walls = set()
    for i, edge in enumerate(board.get("walls") or []):
        path = ("board", "walls", i)
        if not (isinstance(edge, list) and len(edge) == 2):
            chk.add(path, f"a wall edge is a pair of adjacent squares, like [a3, b3], got {quote(edge)}")
            continue
        sqs = [s for e in edge for s in _squares(chk, plain, e, path)]
        if len(sqs) == 2:
            if plain.manhattan(*sqs) != 1:
                chk.add(path, f"wall edge {edge} does not separate orthogonally adjacent squares")
            walls.add(frozenset(sqs))
    grid = Grid(plain.files, plain.ranks, frozenset(walls)) if walls else plain

    terrain = chk.need(data, "terrain", (), dict, "terrain kinds with element and colours") or {}
    kinds: dict[str, TerrainKind] = {}
    for kid, spec in terrain.items():
        path = ("terrain", kid)
        if not isinstance(spec, dict):
            chk.add(path, "expected a mapping (name, element, color)")
            continue
        element = spec.get("element")
        by_tag: tuple = ()
        if isinstance(element, dict):
            by_tag = tuple((k, v) for k, v in element.items() if k != "else")
            if "else" in element:
                by_tag += (("else", element["else"]),)
            element = None
        elif element is not None and not isinstance(element, str):
            chk.add(path + ("element",), f"expected an element name or a mapping tag -> element, got {quote(element)}")
        kinds[kid] = TerrainKind(
            id=kid, name=str(spec.get("name", kid)), element=element, element_by_tag=by_tag,
            transit=bool(spec.get("transit", False)), passable=bool(spec.get("passable", True)),
            color=str(spec.get("color", "#777777")), stroke=str(spec.get("stroke", "#555555")),
        )
    default = board.get("default")
    if default is None:
        chk.add(("board",), "missing key 'default' (the terrain of squares not listed in cells)")
    elif default not in kinds:
        chk.add(("board", "default"), f"unknown terrain {quote(default)} (terrain: {', '.join(kinds)})")
    cell_kind = [default] * grid.size
    for kid, spec in (board.get("cells") or {}).items():
        if kid not in kinds:
            chk.add(("board", "cells", kid), f"unknown terrain {quote(kid)} (terrain: {', '.join(kinds)})")
        for sq in _squares(chk, grid, spec, ("board", "cells", kid)):
            cell_kind[sq] = kid
    return grid, tuple(cell_kind), kinds


def _player_squares(chk, grid, spec, path, players) -> dict:
    if not isinstance(spec, dict):
        chk.add(path, f"expected a mapping of players to squares ({', '.join(players)})")
        return {}
    out = {}
    for player, squares in spec.items():
        if player not in players:
            chk.add(path + (player,), f"unknown player {quote(player)} (players: {', '.join(players)})")
            continue
        out[player] = frozenset(_squares(chk, grid, squares, path + (player,)))
    return out


def _compile_zones(chk, data, grid, players) -> dict:
    zones = data.get("zones") or {}
    if not isinstance(zones, dict):
        chk.add(("zones",), "expected a mapping of zone names")
        return {}
    return {z: _player_squares(chk, grid, spec, ("zones", z), players) for z, spec in zones.items()}


def _compile_paths(chk, data, grid, players) -> dict:
    out = {}
    for name, spec in (data.get("paths") or {}).items():
        per = {}
        if not isinstance(spec, dict):
            chk.add(("paths", name), "expected a mapping of players to square lists")
            continue
        for player, squares in spec.items():
            if player not in players:
                chk.add(("paths", name, player), f"unknown player {quote(player)} (players: {', '.join(players)})")
                continue
            sqs = tuple(_squares(chk, grid, squares, ("paths", name, player)))
            if len(sqs) < 2:
                chk.add(("paths", name, player), "a path is a list of at least two squares")
                continue
            for a, b in zip(sqs, sqs[1:], strict=False):
                if grid.manhattan(a, b) != 1:
                    chk.add(("paths", name, player), f"path steps {grid.name(a)} -> {grid.name(b)} are not adjacent")
            per[player] = sqs
        out[name] = per
    return out


def _compile_pieces(chk: _Checker, data: dict, zones: dict):
    services = data.get("services") or {}
    pieces = chk.need(data, "pieces", (), list, "the piece types") or []
    types: list[PieceType] = []
    index: dict[str, int] = {}
    for i, spec in enumerate(pieces):
        path = ("pieces", i)
        if not isinstance(spec, dict):
            chk.add(path, "expected a mapping with id, name and count")
            continue
        if "remove" in spec:
            chk.add(path + ("remove",), "'remove' drops a parent's piece: it needs 'extends' at the top")
        pid = chk.need(spec, "id", path, str, "the piece's short id")
        pname = chk.need(spec, "name", path, str, "the piece's name")
        count = chk.need(spec, "count", path, int, "pieces of this type a side")
        if pid is None or pname is None or count is None:
            continue
        count = _count_override(chk, data, pid, count)
        if count < 0:
            chk.add(path + ("count",), f"a count cannot be negative: {count}")
        if pid in index:
            chk.add(path + ("id",), f"duplicate piece id {quote(pid)}")
            continue
        service = spec.get("service", "")
        if service and service not in services:
            chk.add(path + ("service",), f"unknown service {quote(service)} (services: {', '.join(services) or 'none'})")
        sdata = services.get(service) or {}
        tags = {pid, *(sdata.get("tags") or [])}
        if service:
            tags.add(service)
        tags.update(spec.get("tags") or [])
        move = spec.get("move", "step")
        if isinstance(move, str):
            move = {"kind": move}
        if not isinstance(move, dict) or move.get("kind") not in MOVE_KINDS:
            chk.add(path + ("move",), f"unknown movement {quote(move)} (kinds: {', '.join(MOVE_KINDS)})")
            move = {"kind": "step"}
        movement = Movement(kind=move["kind"], distance=int(move.get("distance", 2)),
                            long_needs_attack=bool(move.get("long_needs_attack", False)))
        attack = spec.get("attack", "orthogonal")
        if attack not in ATTACK_PATTERNS:
            chk.add(path + ("attack",), f"unknown attack pattern {quote(attack)} (patterns: {', '.join(ATTACK_PATTERNS)})")
            attack = "orthogonal"
        attack_mode, slide_attack = _attack_mode(chk, data, spec, path, movement)
        confined = spec.get("confined_to")
        if confined is not None and confined not in zones:
            chk.add(path + ("confined_to",), f"unknown zone {quote(confined)} (zones: {', '.join(zones)})")
        value = spec.get("value")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            chk.add(path + ("value",), f"expected a number, got {quote(value)}")
            value = None
        emblem = spec.get("emblem", sdata.get("emblem", ""))  # its value was checked by the schema
        if emblem not in EMBLEMS:
            emblem = ""
        index[pid] = len(types)
        types.append(PieceType(
            id=pid, name=pname, count=count, service=service, element=spec.get("element"),
            tags=frozenset(tags), value=value, number=spec.get("number"), movement=movement, attack=attack,
            attack_mode=attack_mode, slide_attack=slide_attack, confined_to=confined,
            effects=tuple(spec.get("effects") or ()), actions=tuple(spec.get("actions") or ()),
            color=str(spec.get("color") or sdata.get("color") or PIECE_PALETTE[len(types) % len(PIECE_PALETTE)]),
            description=str(spec.get("description", "")), emblem=emblem,
        ))
    if not types and pieces is not None:
        chk.add(("pieces",), "a variant needs at least one piece type")
    counts = data.get("counts")
    if counts is not None and not isinstance(counts, dict):
        chk.add(("counts",), f"expected a mapping of piece ids to counts, got {quote(counts)}")
    for pid in counts if isinstance(counts, dict) else ():
        if pid not in index:
            chk.add(("counts", pid), f"unknown piece id {quote(pid)} (pieces: {', '.join(index)})")
    return tuple(types), index


def _attack_mode(chk: _Checker, data: dict, spec: dict, path: tuple, movement: Movement) -> tuple[str, str]:
    """A piece's ``attack_mode`` (its own, else the variant's) and ``slide_attack`` (its own, else
    ``any-side`` after moving and ``in-line`` onto)."""
    default = data.get("attack_mode", AFTER_MOVE)
    mode = spec.get("attack_mode", default if default in ATTACK_MODES else AFTER_MOVE)
    if mode not in ATTACK_MODES:
        chk.add(path + ("attack_mode",), f"unknown attack mode {mode!r} (modes: {', '.join(ATTACK_MODES)})")
        mode = AFTER_MOVE
    slide = spec.get("slide_attack", IN_LINE if mode == ONTO else ANY_SIDE)
    if slide not in SLIDE_ATTACKS:
        chk.add(path + ("slide_attack",), f"unknown slide attack {slide!r} (settings: {', '.join(SLIDE_ATTACKS)})")
        slide = ANY_SIDE
    if "slide_attack" in spec and movement.kind != SLIDE:
        chk.add(path + ("slide_attack",), "only a sliding piece (move: slide) has a slide_attack setting")
    if mode == ONTO and slide == ANY_SIDE:
        chk.add(path + ("slide_attack",), "a piece attacking onto the enemy's square attacks in-line or none "
                "after a run, not any-side")
        slide = IN_LINE
    return mode, slide


def _check_attack_modes(chk: _Checker, data: dict, types: tuple) -> None:
    """The variant-wide ``attack_mode``, and combinations the engine cannot honour (a long slide that must
    attack needs somewhere to attack)."""
    mode = data.get("attack_mode", AFTER_MOVE)
    if mode not in ATTACK_MODES:
        chk.add(("attack_mode",), f"unknown attack mode {mode!r} (modes: {', '.join(ATTACK_MODES)})")
    for i, t in enumerate(types):
        if t.movement.long_needs_attack and t.slide_attack == "none":
            chk.add(("pieces", i, "slide_attack"), "long_needs_attack with slide_attack none leaves no long slide")


def _count_override(chk: _Checker, data: dict, pid: str, count: int) -> int:
    """A piece count from the top-level ``counts`` mapping (``{id: count}``, used by options that change
    the piece set), else the piece entry's own count."""
    counts = data.get("counts")
    if not isinstance(counts, dict) or pid not in counts:
        return count
    value = counts[pid]
    if isinstance(value, bool) or not isinstance(value, int):
        chk.add(("counts", pid), f"expected a whole number of pieces, got {quote(value)}")
        return count
    return value


class _Selector:
    """Resolves piece selectors (ids, tags, ``any``, ``value>=N``) to sets of type indices."""

    def __init__(self, chk: _Checker, types: tuple, index: dict):
        self.chk, self.types, self.index = chk, types, index

    def select(self, spec: Any, path: tuple) -> frozenset:
        items = spec if isinstance(spec, list) else [spec]
        out: set[int] = set()
        for j, item in enumerate(items):
            if isinstance(item, list):
                out |= self.select(item, path + (j,))
                continue
            if not isinstance(item, str):
                self.chk.add(path, f"a piece selector is an id, a tag, 'any' or 'value>=N', got {quote(item)}")
                continue
            if item == "any":
                out |= set(range(len(self.types)))
                continue
            m = _VALUE_SELECTOR.match(item)
            if m:
                op, num = m.group(1), float(m.group(2))
                test = {">=": float.__ge__, "<=": float.__le__, ">": float.__gt__, "<": float.__lt__,
                        "==": float.__eq__}[op]
                out |= {i for i, t in enumerate(self.types) if t.value is not None and test(float(t.value), num)}
                continue
            found = {i for i, t in enumerate(self.types) if item in t.tags}
            if not found:
                self.chk.add(path, f"unknown piece id or tag {quote(item)}")
            out |= found
        return frozenset(out)


def _compile_setup(chk, data, grid, zones, players, kinds, cell_kind, types) -> dict:
    spec = data.get("setup") or {}
    zone = spec.get("zone", "setup")
    if zone not in zones:
        chk.add(("setup", "zone"), f"unknown zone {quote(zone)} for set-up (zones: {', '.join(zones) or 'none'})")
        return {p: () for p in players}
    excluded = set()
    for i, ex in enumerate(spec.get("exclude") or []):
        if ex not in zones:
            chk.add(("setup", "exclude", i), f"unknown zone {quote(ex)}")
            continue
        for sqs in zones[ex].values():
            excluded |= sqs
    total = sum(t.count for t in types)
    out = {}
    for p in players:
        sqs = tuple(sorted(sq for sq in zones[zone].get(p, ()) if sq not in excluded
                           and kinds.get(cell_kind[sq], TerrainKind("?", "?")).passable))
        if total > len(sqs):
            chk.add(("pieces",), f"{total} pieces do not fit {p}'s set-up zone of {len(sqs)} squares")
        out[p] = sqs
    shared = set(out[players[0]]) & set(out[players[1]]) if len(players) == 2 else set()
    if shared:
        names = ", ".join(grid.name(sq) for sq in sorted(shared)[:5]) + (", ..." if len(shared) > 5 else "")
        chk.add(("zones", zone), f"the two players' set-up zones overlap on {len(shared)} squares ({names})")
    return out


def _compile_combat(chk, data, types, index, selector: _Selector, kinds, zones) -> tuple:
    spec = data.get("combat") or {}
    if not isinstance(spec, dict):
        chk.add(("combat",), "expected a mapping (rules, table or values)")
        spec = {}
    n = len(types)
    base = [[combat.Outcome(reason="nothing happens", rule="default") for _ in range(n)] for _ in range(n)]
    if spec.get("values"):
        for a, ta in enumerate(types):
            for d, td in enumerate(types):
                if ta.value is None or td.value is None:
                    continue
                if ta.value > td.value:
                    base[a][d] = combat.Outcome(("defender",), None, f"{ta.name} outranks {td.name}", "values")
                elif ta.value < td.value:
                    base[a][d] = combat.Outcome(("attacker",), None, f"{td.name} outranks {ta.name}", "values")
                else:
                    base[a][d] = combat.Outcome(("attacker", "defender"), None,
                                                f"equal values: {ta.name} and {td.name} both removed", "values")
    if "table" in spec:
        _compile_table(chk, spec, types, index, base)
    rules = [[[] for _ in range(n)] for _ in range(n)]
    for i, rule in enumerate(spec.get("rules") or []):
        _compile_rule(chk, ("combat", "rules", i), rule, selector, rules, kinds, zones)
    return tuple(tuple((tuple(rules[a][d]), base[a][d]) for d in range(n)) for a in range(n))


def _compile_table(chk, spec, types, index, base) -> None:
    table = spec["table"]
    path = ("combat", "table")
    if not isinstance(table, dict):
        chk.add(path, "expected a mapping with columns and rows")
        return
    columns = table.get("columns") or []
    rows = table.get("rows") or {}
    marks = set((spec.get("marks") or {}).keys())
    for j, col in enumerate(columns):
        if col not in index:
            chk.add(path + ("columns", j), f"unknown piece id {quote(col)} in the value table's columns")
    cells: dict[tuple[str, str], str] = {}
    for row_id, row in rows.items():
        rpath = path + ("rows", row_id)
        if row_id not in index:
            chk.add(rpath, f"unknown piece id {quote(row_id)} in the value table")
            continue
        if not isinstance(row, list) or len(row) != len(columns):
            chk.add(rpath, f"expected {len(columns)} cells, got {quote(len(row) if isinstance(row, list) else row)}")
            continue
        for col, cell in zip(columns, row, strict=True):
            if col in index:
                cells[(row_id, col)] = str(cell)
    missing = [t.id for t in types if t.id not in rows]
    if missing:
        chk.add(path + ("rows",), f"the value table has no row for {', '.join(missing)}")
    if not table.get("asymmetric", spec.get("asymmetric", False)):
        for (a, d), cell in cells.items():
            other = cells.get((d, a))
            if other is not None and other != cell and a < d:
                chk.add(path + ("rows", a), f"asymmetric cell: {a} vs {d} is {quote(cell)} but {d} vs {a} is {quote(other)} "
                        "(declare 'asymmetric: true' if the variant means it)")
    for (a, d), cell in cells.items():
        ta, td = types[index[a]], types[index[d]]
        outcome = _table_outcome(cell, ta, td, marks)
        if outcome is None:
            chk.add(path + ("rows", a), f"cell {a} vs {d} = {quote(cell)} names neither piece (nor X, '.', or a mark)")
            continue
        base[index[a]][index[d]] = outcome


def _table_outcome(cell: str, ta: PieceType, td: PieceType, marks: set) -> combat.Outcome | None:
    if cell == "X":
        return combat.Outcome(("attacker", "defender"), None, f"{ta.name} and {td.name} remove each other", "table")
    if cell in (".", "") or cell in marks:
        return combat.Outcome((), None, f"{ta.name} and {td.name} do not interact", "table")
    a_has = cell == ta.id or (cell.isdigit() and ta.number == int(cell))
    d_has = cell == td.id or (cell.isdigit() and td.number == int(cell))
    if a_has == d_has:
        return None
    if a_has:
        return combat.Outcome(("defender",), None, f"{ta.name} beats {td.name}", "table")
    return combat.Outcome(("attacker",), None, f"{td.name} beats {ta.name}", "table")


_RESULTS = ("attacker", "defender", "first", "second", "both", "none", "retreat-attacker", "retreat-defender",
            "retreat-first", "retreat-second")


def _compile_rule(chk, path, rule, selector: _Selector, rules, kinds, zones) -> None:
    if not isinstance(rule, dict):
        chk.add(path, "expected a mapping (pair or attacker/defender, when, result)")
        return
    name = str(rule.get("name", format_path(path)))
    result = rule.get("result")
    if result not in _RESULTS:
        chk.add(path + ("result",), f"unknown result {quote(result)} (results: {', '.join(_RESULTS)})")
        return
    conds = []
    for j, text in enumerate(rule.get("when") or []):
        cond = combat.parse_condition(text) if isinstance(text, str) else None
        if cond is None:
            chk.add(path + ("when", j), f"unknown condition {quote(text)}")
            continue
        if cond[0] == "on" and cond[3] not in kinds and cond[3] not in zones:
            chk.add(path + ("when", j), f"condition {quote(text)} names no terrain or zone {quote(cond[3])}")
        conds.append(cond)
    reason = str(rule.get("reason", name))
    if "pair" in rule:
        pair = rule["pair"]
        if not (isinstance(pair, list) and len(pair) == 2):
            chk.add(path + ("pair",), "a pair is two selectors: [first, second]")
            return
        firsts = selector.select(pair[0], path + ("pair", 0))
        seconds = selector.select(pair[1], path + ("pair", 1))
        orientations = [(firsts, seconds, "attacker"), (seconds, firsts, "defender")]
    else:
        if "attacker" not in rule or "defender" not in rule:
            chk.add(path, "a rule needs 'pair' or both 'attacker' and 'defender'")
            return
        attackers = selector.select(rule["attacker"], path + ("attacker",))
        defenders = selector.select(rule["defender"], path + ("defender",))
        orientations = [(attackers, defenders, "attacker")]
    seen = set()
    for atk, dfn, first in orientations:
        for a in atk:
            for d in dfn:
                if (a, d) in seen:
                    continue
                seen.add((a, d))
                ta, td = selector.types[a], selector.types[d]
                names = {"attacker": ta.name, "defender": td.name,
                         "first": ta.name if first == "attacker" else td.name,
                         "second": td.name if first == "attacker" else ta.name}
                try:
                    text = reason.format(**names)
                except (KeyError, IndexError, ValueError):
                    chk.add(path + ("reason",), f"reason {quote(reason)} may use only {{attacker}} {{defender}} {{first}} {{second}}")
                    text = reason
                rules[a][d].append(combat.CompiledRule(name, tuple(conds), result, text, first,
                                                       combat.outcome_for(result, first, text, name)))


def _compile_wins(chk, data, players, zones, paths, selector: _Selector) -> tuple:
    out = [{} for _ in players]
    for i, spec in enumerate(data.get("win") or []):
        path = ("win", i)
        if not isinstance(spec, dict) or "arrive" not in spec:
            chk.add(path, "a win condition is {arrive: ZONE, pieces: [...]} (other endings have their own keys)")
            continue
        zone = spec["arrive"]
        if zone not in zones:
            chk.add(path + ("arrive",), f"unknown zone {quote(zone)} (zones: {', '.join(zones)})")
            continue
        owner = spec.get("owner", "enemy")
        types = selector.select(spec.get("pieces", "any"), path + ("pieces",))
        via = spec.get("via")
        if via is not None and via not in paths:
            chk.add(path + ("via",), f"unknown path {quote(via)} (paths: {', '.join(paths) or 'none'})")
            continue
        reason = str(spec.get("reason", "{piece} reaches the goal"))
        for p, player in enumerate(players):
            other = players[1 - p]
            zone_owner = other if owner == "enemy" else player
            path_sqs = paths[via].get(zone_owner) if via else None
            for sq in zones[zone].get(zone_owner, ()):
                out[p].setdefault(sq, []).append((types, path_sqs, reason))
    return tuple({sq: tuple(v) for sq, v in d.items()} for d in out)


def load_variant_file(path: str | Path, options: dict | None = None, spec: VariantSpec | None = None) -> Variant:
    """Read, validate and compile a variant YAML file."""
    return compile_variant(read_yaml(path), options, spec)
