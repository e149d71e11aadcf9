"""YAML reading that remembers the line of every key, so data errors can name file, key path and line."""

from __future__ import annotations

from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor

from .errors import Problem, VariantError


class _Constructor(SafeConstructor):
    """Builds scalars the safe way; mappings and sequences are built by ``_build``."""


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
    """``("pieces", 3, "count")`` -> ``pieces[3].count``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _build(node, path: tuple, lines: dict, constructor: _Constructor):
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            key = constructor.construct_object(key_node, deep=True)
            if isinstance(key, list):
                key = tuple(key)
            lines[path + (key,)] = key_node.start_mark.line + 1
            out[key] = _build(value_node, path + (key,), lines, constructor)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(child, path + (i,), lines, constructor) for i, child in enumerate(node.value)]
    return constructor.construct_object(node, deep=True)


def parse_yaml(text: str, file: str = "<string>") -> YamlDoc:
    """Parse YAML text; a syntax error becomes a VariantError with the file and line."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        what = getattr(exc, "problem", None) or str(exc)
        raise VariantError(Problem(file, "", line, f"not valid YAML: {what}")) from None
    lines: dict[tuple, int] = {}
    if node is None:
        return YamlDoc(None, lines, file)
    data = _build(node, (), lines, _Constructor())
    return YamlDoc(data, lines, file)


def read_yaml(path: str | Path) -> YamlDoc:
    """Read a YAML file with line numbers; missing or unreadable files become a VariantError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantError(Problem(str(path), "", None, f"cannot read file: {exc}")) from None
    return parse_yaml(text, str(path))
