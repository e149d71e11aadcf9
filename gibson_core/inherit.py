"""Variant inheritance: a variant file that says ``extends: PARENT`` is the parent's data with the
child's changes merged in, then validated and compiled like any other variant.

Merge rules (the child always wins):

* ``rename: {OLD: NEW, ...}`` renames piece ids of the parent everywhere an id can appear: piece ids and
  tags, the selectors of pieces' ``effects`` and ``actions``, service tags, terrain ``element`` tag keys,
  value-table columns, row keys and cells, combat rule selectors, win ``pieces``, ``counts`` keys,
  ``flags`` selectors, ``lose_when_removed`` / ``lose_when_only_left`` / ``draw_when_none_left``, and the
  same keys inside options' ``overrides``.
* ``pieces`` merge by ``id``: a child entry with a parent's id changes only the keys it gives; a new id is
  appended; ``{id: X, remove: true}`` drops the piece together with its value-table row and column.
* When the child gives a piece a new name, the parent's rule names, reasons, marks and win reasons that
  spell the old name are reworded with the new one, so players only ever see the child's names.
* Every other mapping merges key by key (so ``combat.table.rows`` merges row by row, ``board.cells`` by
  terrain, ``options`` by option name); lists and scalars are replaced whole.
* The parent's rule hooks apply to the child, except the hooks the child implements itself.

``PARENT`` is a registered variant name, or a path to a YAML file relative to the child's file (a registered
variant's file brings its hooks too). Every key
keeps the file and line it came from, so a problem in a child's key names the child's file and line.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs

from .errors import Problem, VariantError, quote
from .yamlfile import YamlDoc, format_path, read_yaml

EXTENDS = "extends"
RENAME = "rename"
INHERITANCE_KEYS = (EXTENDS, RENAME)
REMOVE = "remove"

# Where a piece id may appear, outside the pieces list and the value table.
_SELECTOR_LISTS = ("lose_when_removed", "lose_when_only_left", "draw_when_none_left")
_RULE_SELECTORS = ("pair", "attacker", "defender")
_EFFECT_SELECTORS = ("targets", "spare", "backfire")  # in pieces' effects and actions
_FLAG_SELECTORS = ("cannot_carry", "mined_pickup")


@attrs.define(eq=False)
class _Node:
    """A YAML value with the file and line it came from; containers hold nodes."""

    value: Any  # dict[key, _Node] | list[_Node] | scalar
    file: str
    line: int | None
    path: tuple = ()  # its key path in its own file


class MergedDoc(YamlDoc):
    """A YamlDoc whose keys come from several files: each problem names the file, the key path in that
    file and the line its key came from."""

    def __init__(self, data: Any, origins: dict[tuple, tuple[str, int | None, tuple]], file: str):
        super().__init__(data, {path: line for path, (_f, line, _p) in origins.items() if line is not None}, file)
        self.origins = origins

    def problem(self, path: tuple, message: str) -> Problem:
        """A Problem naming where ``path`` (or its nearest ancestor) was written."""
        path = tuple(path)
        here = path
        while here and here not in self.origins:
            here = here[:-1]
        file, line, source = self.origins.get(here, (self.file, None, here))
        return Problem(file, format_path(source + path[len(here):]), line, message)


def resolve(doc: YamlDoc, spec: Any = None, _chain: tuple = ()) -> tuple[YamlDoc, Any]:
    """The document with its ``extends`` chain merged in, and ``spec`` with the inherited hooks.

    A document without ``extends`` is returned unchanged. Raises VariantError for an unknown parent, a
    cycle, or a ``rename`` that names no parent piece."""
    from .variant_schema import check_shape  # every file of the chain is typed before it is merged

    problems = check_shape(doc)
    if problems:
        raise VariantError(problems)
    data = doc.data
    if not isinstance(data, dict) or EXTENDS not in data:
        return doc, spec
    parent_name = data[EXTENDS]
    if not isinstance(parent_name, str):
        raise VariantError(doc.problem((EXTENDS,), f"expected a variant name or a YAML path, got {quote(parent_name)}"))
    if doc.file in _chain:
        raise VariantError(doc.problem((EXTENDS,), f"variants extend each other in a cycle: {' -> '.join(_chain)}"))
    parent_doc, parent_spec = _find_parent(doc, parent_name)
    parent_doc, parent_spec = resolve(parent_doc, parent_spec, _chain + (doc.file,))
    merged = merge_docs(parent_doc, doc)
    if spec is not None and parent_spec is not None:
        spec = attrs.evolve(spec, hooks=inherited_hooks(parent_spec.hooks, spec.hooks))
    return merged, spec


def _find_parent(doc: YamlDoc, name: str) -> tuple[YamlDoc, Any]:
    """The parent's document and, when it is a registered variant (by name or by file), its spec."""
    from .plugins import variant_specs  # plugins imports the variant loader, which imports this module

    specs = variant_specs()
    if name.endswith((".yaml", ".yml")):
        path = Path(doc.file).parent / name
        spec = next((s for s in specs.values() if Path(s.path).resolve() == path.resolve()), None)
        return read_yaml(path), spec
    if name not in specs:
        known = ", ".join(sorted(specs)) or "none installed"
        raise VariantError(doc.problem((EXTENDS,), f"unknown parent variant {quote(name)} (variants: {known})"))
    return read_yaml(specs[name].path), specs[name]


# ---------------------------------------------------------------------------------------------------
# Merging documents
# ---------------------------------------------------------------------------------------------------

def merge_docs(parent: YamlDoc, child: YamlDoc) -> MergedDoc:
    """The child's data merged over the parent's (see the module docstring), locations kept."""
    base = _wrap(parent, parent.data, ())
    over = _wrap(child, child.data, ())
    problems: list[Problem] = []
    renames = _renames(child, over, base, problems)
    if problems:
        raise VariantError(problems)
    if renames:
        _rename_ids(base, renames)
    _reword_names(base, over)
    merged = _merge_top(base, over)
    origins: dict[tuple, tuple[str, int | None, tuple]] = {}
    return MergedDoc(_unwrap(merged, (), origins), origins, child.file)


def _wrap(doc: YamlDoc, value: Any, path: tuple) -> _Node:
    line = doc.line(path)
    if isinstance(value, dict):
        value = {k: _wrap(doc, v, path + (k,)) for k, v in value.items()}
    elif isinstance(value, list):
        value = [_wrap(doc, v, path + (i,)) for i, v in enumerate(value)]
    return _Node(value, doc.file, line, path)


def _unwrap(node: _Node, path: tuple, origins: dict) -> Any:
    origins[path] = (node.file, node.line, node.path)
    if isinstance(node.value, dict):
        return {k: _unwrap(v, path + (k,), origins) for k, v in node.value.items()}
    if isinstance(node.value, list):
        return [_unwrap(v, path + (i,), origins) for i, v in enumerate(node.value)]
    return node.value


def _merge(base: _Node, over: _Node) -> _Node:
    """Mappings merge key by key; anything else is replaced by ``over``."""
    if isinstance(base.value, dict) and isinstance(over.value, dict):
        out = dict(base.value)
        for key, value in over.value.items():
            out[key] = _merge(base.value[key], value) if key in base.value else value
        return _Node(out, over.file, over.line, over.path)
    return over


def _merge_top(base: _Node, over: _Node) -> _Node:
    child = {k: v for k, v in over.value.items() if k not in INHERITANCE_KEYS}
    pieces = child.pop("pieces", None)
    merged = _merge(base, _Node(child, over.file, over.line, over.path))
    if pieces is not None:
        merged.value["pieces"] = _merge_pieces(base.value.get("pieces"), pieces, merged)
    return merged


def _piece_id(node: _Node) -> Any:
    return node.value["id"].value if isinstance(node.value, dict) and "id" in node.value else None


def _merge_pieces(base: _Node | None, over: _Node, merged: _Node) -> _Node:
    if base is None or not isinstance(base.value, list) or not isinstance(over.value, list):
        return over
    out = list(base.value)
    for entry in over.value:
        pid = _piece_id(entry)
        at = next((i for i, p in enumerate(out) if pid is not None and _piece_id(p) == pid), None)
        if isinstance(entry.value, dict) and entry.value.get(REMOVE, _Node(False, "", None)).value is True:
            if at is not None:
                del out[at]
                _drop_from_table(merged, pid)
            continue
        if at is None:
            out.append(entry)
        else:
            out[at] = _merge(out[at], entry)
    return _Node(out, over.file, over.line, over.path)


def _drop_from_table(merged: _Node, pid: str) -> None:
    table = _get(merged, "combat", "table")
    if table is None or not isinstance(table.value, dict):
        return
    columns = table.value.get("columns")
    rows = table.value.get("rows")
    if rows is not None and isinstance(rows.value, dict):
        rows.value.pop(pid, None)
    if columns is None or not isinstance(columns.value, list):
        return
    idx = [i for i, c in enumerate(columns.value) if c.value == pid]
    if not idx:
        return
    columns.value = [c for c in columns.value if c.value != pid]
    for row in (rows.value.values() if rows is not None and isinstance(rows.value, dict) else ()):
        if isinstance(row.value, list):
            row.value = [c for i, c in enumerate(row.value) if i not in idx]


def _get(node: _Node | None, *keys: str) -> _Node | None:
    for key in keys:
        if node is None or not isinstance(node.value, dict):
            return None
        node = node.value.get(key)
    return node


# ---------------------------------------------------------------------------------------------------
# Renaming ids and rewording names
# ---------------------------------------------------------------------------------------------------

def _renames(child: YamlDoc, over: _Node, base: _Node, problems: list) -> dict[str, str]:
    spec = over.value.get(RENAME)
    if spec is None:
        return {}
    if not isinstance(spec.value, dict):
        problems.append(child.problem((RENAME,), "expected a mapping of parent piece ids to new ids"))
        return {}
    pieces = _get(base, "pieces")
    ids = {_piece_id(p) for p in pieces.value} if pieces is not None and isinstance(pieces.value, list) else set()
    out = {}
    for old, new in spec.value.items():
        path = (RENAME, old)
        if old not in ids:
            problems.append(child.problem(path, f"the parent has no piece {quote(old)} to rename "
                                                f"(pieces: {', '.join(sorted(map(str, ids)))})"))
        elif not isinstance(new.value, str) or not new.value:
            problems.append(child.problem(path, f"expected the new piece id, got {quote(new.value)}"))
        else:
            out[old] = new.value
    targets = list(out.values())
    for old, new in out.items():
        if targets.count(new) > 1 or (new in ids and new not in out):
            problems.append(child.problem((RENAME, old), f"new id {quote(new)} is already taken"))
    return out


def _rename_ids(base: _Node, renames: dict[str, str]) -> None:
    """Rename piece ids everywhere the parent's data can name one (in place)."""

    def leaf(node: _Node | None) -> None:
        if node is None:
            return
        if isinstance(node.value, list):
            for item in node.value:
                leaf(item)
        elif isinstance(node.value, str) and node.value in renames:
            node.value = renames[node.value]

    def keys(node: _Node | None) -> None:
        if node is not None and isinstance(node.value, dict):
            node.value = {renames.get(k, k) if isinstance(k, str) else k: v for k, v in node.value.items()}

    def document(doc: _Node) -> None:
        for piece in _items(_get(doc, "pieces")):
            leaf(_get(piece, "id"))
            leaf(_get(piece, "tags"))
            for rule in _items(_get(piece, "effects")) + _items(_get(piece, "actions")):
                for key in _EFFECT_SELECTORS:
                    leaf(_get(rule, key))
        for service in _values(_get(doc, "services")):
            leaf(_get(service, "tags"))
        for kind in _values(_get(doc, "terrain")):
            keys(_get(kind, "element"))
        table = _get(doc, "combat", "table")
        leaf(_get(table, "columns"))
        keys(_get(table, "rows"))
        for row in _values(_get(table, "rows")):
            leaf(row)
        for rule in _items(_get(doc, "combat", "rules")):
            for key in _RULE_SELECTORS:
                leaf(_get(rule, key))
        for win in _items(_get(doc, "win")):
            leaf(_get(win, "pieces"))
        for key in _SELECTOR_LISTS:
            leaf(_get(doc, key))
        keys(_get(doc, "counts"))
        for key in _FLAG_SELECTORS:
            leaf(_get(doc, "flags", key))
        for option in _values(_get(doc, "options")):
            overrides = _get(option, "overrides")
            if overrides is not None and isinstance(overrides.value, dict):
                document(overrides)

    document(base)


def _reword_names(base: _Node, over: _Node) -> None:
    """Where the child renames a piece, reword the parent's texts that spell the piece's old name."""
    old_names = {_piece_id(p): _get(p, "name").value for p in _items(_get(base, "pieces")) if _get(p, "name")}
    new_names = {}
    for entry in _items(_get(over, "pieces")):
        name = _get(entry, "name")
        pid = _piece_id(entry)
        if name is not None and isinstance(name.value, str) and isinstance(old_names.get(pid), str):
            new_names[old_names[pid]] = name.value
    if not any(old != new for old, new in new_names.items()):
        return
    # Every parent name is an alternative (longest first), so "Army Corps" is not reworded as "Army".
    every = sorted({n for n in old_names.values() if isinstance(n, str)}, key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in every) + r")\b")

    def reword(node: _Node | None) -> None:
        if node is not None and isinstance(node.value, str):
            node.value = pattern.sub(lambda m: new_names.get(m.group(1), m.group(1)), node.value)

    for rule in _items(_get(base, "combat", "rules")):
        reword(_get(rule, "name"))
        reword(_get(rule, "reason"))
    for mark in _values(_get(base, "combat", "marks")):
        reword(mark)
    for win in _items(_get(base, "win")):
        reword(_get(win, "reason"))


def _items(node: _Node | None) -> list[_Node]:
    return list(node.value) if node is not None and isinstance(node.value, list) else []


def _values(node: _Node | None) -> list[_Node]:
    return list(node.value.values()) if node is not None and isinstance(node.value, dict) else []


# ---------------------------------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------------------------------

def _plugins(hooks: Any) -> list:
    if hooks is None:
        return []
    rules = getattr(hooks, "RULES", hooks)
    return list(rules) if isinstance(rules, list | tuple) else [rules]


def _implemented(plugin: Any) -> set[str]:
    return {name for name in dir(plugin)
            if name.startswith("gibson_") and hasattr(getattr(plugin, name, None), "gibson_impl")}


def inherited_hooks(parent_hooks: Any, own_hooks: Any) -> list | None:
    """The rule plugins of a child variant: the parent's, minus every hook the child implements itself,
    then the child's own (so a child's hook replaces the parent's hook of the same name)."""
    own = _plugins(own_hooks)
    overridden = set().union(*(_implemented(p) for p in own)) - {"gibson_register_variants"}
    kept = []
    for plugin in _plugins(parent_hooks):
        names = _implemented(plugin)
        if not names & overridden:
            kept.append(plugin)
        elif names - overridden:
            kept.append(SimpleNamespace(**{n: getattr(plugin, n) for n in names - overridden}))
    return (kept + own) or None
