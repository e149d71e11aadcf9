"""YAML reading that remembers the line of every key, so data errors can name file, key path and line.

Variant files are written by third parties, so the reader is bounded by construction, not by pattern checks
on the text: a :class:`BoundedLoader` (PyYAML's safe loader) counts depth, aliases and open anchors while it
composes the node graph, and the builder that turns nodes into plain data counts every node it makes (aliases
expanded) and refuses duplicate keys, non-scalar keys and every tag but the plain scalar, list and mapping
ones. Every refusal is a VariantError (or the caller's error class) naming the file, the key path and the line.

Limits (:data:`LIMITS`): the file's size, nesting depth, number of aliases and number of values after alias
expansion. The shipped variants use a few per cent of each.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor

from .errors import Problem, VariantError, quote

MAX_BYTES = 128_000  # 15 times the largest shipped variant; PyYAML reads about 100 kB a second
MAX_DEPTH = 40  # nesting of lists and mappings, counted through aliases too
MAX_ALIASES = 256  # alias uses (``*name``) in one file
MAX_NODES = 20_000  # values (scalars, lists, mappings) after every alias is expanded
LIMITS = {"bytes": MAX_BYTES, "depth": MAX_DEPTH, "aliases": MAX_ALIASES, "values": MAX_NODES}

_TAG = "tag:yaml.org,2002:"
SCALAR_TAGS = {_TAG + "str", _TAG + "int", _TAG + "float", _TAG + "bool", _TAG + "null"}
_SEQ, _MAP, _MERGE = _TAG + "seq", _TAG + "map", _TAG + "merge"


class _Refused(Exception):
    """Raised inside the loader; turned into the caller's error with the file name."""

    def __init__(self, path: tuple, line: int | None, message: str):
        super().__init__(message)
        self.path, self.line, self.message = path, line, message


def _line(node_or_event) -> int | None:
    mark = getattr(node_or_event, "start_mark", None)
    return mark.line + 1 if mark is not None else None


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, composing with limits: nesting depth, alias count, no alias to a node that is
    still being composed (a recursive alias), at most MAX_NODES values, and only plain tags. Dates stay text (no implicit
    timestamps), and ``=`` is text."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in (_TAG + "timestamp", _TAG + "value")]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def __init__(self, stream):
        super().__init__(stream)
        self.depth = 0
        self.nodes = 0
        self.aliases = 0
        self.open_anchors: set[str] = set()
        self.path: list = []

    def fetch_flow_collection_start(self, TokenClass):  # noqa: N803 - PyYAML's name
        """``[`` or ``{``: refused past the depth limit while scanning, before the scanner's look-ahead over
        thousands of open brackets (which costs time quadratic in their number)."""
        if self.flow_level >= MAX_DEPTH:
            raise _Refused((), self.line + 1, f"brackets nested more than {MAX_DEPTH} levels deep")
        super().fetch_flow_collection_start(TokenClass)

    def _refuse(self, event, message: str):
        raise _Refused(tuple(p for p in self.path if p is not None), _line(event), message)

    def compose_node(self, parent, index):
        self.path.append(_component(parent, index))
        try:
            return self._compose(parent, index)
        finally:
            self.path.pop()

    def _compose(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                self._refuse(event, f"more than {MAX_ALIASES} aliases (*name) in one file")
            if event.anchor in self.open_anchors:
                self._refuse(event, f"alias *{event.anchor[:40]} refers to a value that contains it")
            return super().compose_node(parent, index)
        tag = getattr(event, "tag", None)
        if tag not in (None, "!") and tag not in SCALAR_TAGS | {_SEQ, _MAP}:
            self._refuse(event, f"tag {_tag(tag)} is not allowed (only plain text, numbers, true/false, "
                                "lists and mappings)")
        self.depth += 1
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self._refuse(event, f"more than {MAX_NODES:,} values")
        if self.depth > MAX_DEPTH:
            self._refuse(event, f"nested more than {MAX_DEPTH} levels deep")
        anchor = event.anchor
        if anchor is not None:
            self.open_anchors.add(anchor)
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1
            self.open_anchors.discard(anchor)


def _tag(tag: str) -> str:
    return quote("!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag)


def _component(parent, index):
    if isinstance(index, int):
        return index
    if isinstance(index, yaml.ScalarNode):
        return index.value[:60]
    return "<key>" if isinstance(parent, yaml.MappingNode) else None


class _Builder:
    """Turns a composed node graph into plain data and a key-path -> line table, counting every value made."""

    def __init__(self):
        self.constructor = SafeConstructor()
        self.lines: dict[tuple, int] = {}
        self.count = 0

    def build(self, node, path: tuple, depth: int = 1):
        self.count += 1
        if self.count > MAX_NODES:
            raise _Refused(path, _line(node), f"more than {MAX_NODES:,} values once aliases are expanded")
        if depth > MAX_DEPTH:
            raise _Refused(path, _line(node), f"nested more than {MAX_DEPTH} levels deep (through aliases)")
        self.lines.setdefault(path, _line(node))
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        return self.scalar(node, path)

    def _mapping(self, node, path: tuple, depth: int) -> dict:
        out: dict = {}
        first_line: dict = {}
        for key_node, value_node in node.value:
            line = _line(key_node)
            if key_node.tag == _MERGE:
                raise _Refused(path, line, "merge keys (<<) are not supported: write the keys out, or use extends")
            if not isinstance(key_node, yaml.ScalarNode):
                kind = "mapping" if isinstance(key_node, yaml.MappingNode) else "list"
                raise _Refused(path, line, f"a key must be a plain word or number, not a {kind}")
            key = self.scalar(key_node, path)
            if key in out:
                raise _Refused(path + (key,), line, f"duplicate key {quote(key)} (first given on line {first_line[key]})")
            first_line[key] = line
            self.lines[path + (key,)] = line
            out[key] = self.build(value_node, path + (key,), depth + 1)
        return out

    def scalar(self, node, path: tuple):
        if node.tag not in SCALAR_TAGS:
            raise _Refused(path, _line(node), f"tag {_tag(node.tag)} is not allowed")
        try:
            return self.constructor.construct_object(node, deep=True)
        except (ValueError, OverflowError, yaml.YAMLError):  # e.g. an integer of 5,000 digits
            raise _Refused(path, _line(node), f"cannot read the value {quote(node.value)}") from None


class YamlDoc:
    """Plain Python data read from YAML plus the 1-based line of every key path in it."""

    def __init__(self, data, lines: dict[tuple, int], file: str):
        self.data = data
        self.lines = lines
        self.file = file

    def line(self, path: tuple) -> int | None:
        """The line of ``path`` or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), None)

    def problem(self, path: tuple, message: str) -> Problem:
        """A Problem located at ``path`` in this document."""
        return Problem(self.file, format_path(path), self.line(path), message)


def format_path(path: tuple) -> str:
    """``("pieces", 3, "count")`` -> ``pieces[3].count`` (long keys and deep paths cut short)."""
    parts = list(path)
    if len(parts) > 12:
        parts = parts[:4] + ["…"] + parts[-6:]
    out = ""
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            text = str(part)
            out += ("." if out else "") + (text if len(text) <= 60 else text[:60] + "…")
    return out


def _variant_error(problem: Problem) -> Exception:
    return VariantError(problem)


def parse_yaml(text: str, file: str = "<string>", error: Callable[[Problem], Exception] = _variant_error) -> YamlDoc:
    """Parse YAML text within the limits; a syntax error or a refused shape becomes ``error(Problem)``
    (a VariantError unless the caller reads another kind of file) with the file, key path and line."""
    if len(text) > MAX_BYTES:
        raise error(Problem(file, "", None, f"the file is too large ({len(text):,} characters; at most {MAX_BYTES:,})"))
    loader = None
    try:
        loader = BoundedLoader(text)  # the reader refuses control characters here already
        node = loader.get_single_node()
        data = _Builder()
        if node is None:
            return YamlDoc(None, {}, file)
        value = data.build(node, ())
    except _Refused as exc:
        raise error(Problem(file, format_path(exc.path), exc.line, exc.message)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        what = getattr(exc, "problem", None) or str(exc)
        raise error(Problem(file, "", line, f"not valid YAML: {str(what)[:200]}")) from None
    except RecursionError:  # not reached within the depth limit; kept so no input can escape as a crash
        raise error(Problem(file, "", None, "nested too deeply")) from None
    finally:
        if loader is not None:
            loader.dispose()
    return YamlDoc(value, data.lines, file)


def read_text(path: str | Path, error: Callable[[Problem], Exception] = _variant_error,
              limit: int = MAX_BYTES) -> str:
    """A text file's contents, refused before reading when it is larger than ``limit`` bytes."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > limit:
            raise error(Problem(str(path), "", None, f"the file is too large ({size:,} bytes; at most {limit:,})"))
        with path.open(encoding="utf-8") as handle:
            return handle.read(limit + 1)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise error(Problem(str(path), "", None, f"cannot read file: {reason}")) from None


def read_yaml(path: str | Path, error: Callable[[Problem], Exception] = _variant_error) -> YamlDoc:
    """Read a YAML file with line numbers; a missing, unreadable, too large or refused file becomes
    ``error(Problem)`` (a VariantError by default)."""
    return parse_yaml(read_text(path, error), str(Path(path)), error)
