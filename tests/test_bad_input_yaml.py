"""Hostile and wrong-typed variant files: each ends in one VariantError naming file, key path and line, in
bounded memory (the loader counts depth, aliases and values instead of trusting the text)."""

import tracemalloc
from pathlib import Path

import pytest
from conftest import broken_copy, refused

from gibson_core.errors import VariantError
from gibson_core.plugins import variant_specs
from gibson_core.validate_cmd import validate_files
from gibson_core.variant import load_variant_file
from gibson_core.yamlfile import MAX_BYTES, MAX_DEPTH, parse_yaml

TRI = variant_specs()["tri-tactics"].path
DOVER = variant_specs()["dover-patrol"].path
AVIATION = variant_specs()["aviation"].path

LAUGHS = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(9))

HOSTILE = {
    "billion laughs": (LAUGHS, "values once aliases are expanded"),
    "recursive alias": ("a: &a [1, *a]\n", "refers to a value that contains it"),
    "recursive mapping alias": ("a: &a {b: *a}\n", "refers to a value that contains it"),
    "5,000 brackets": ("[" * 5000 + "]" * 5000, f"nested more than {MAX_DEPTH} levels"),
    "5,000 braces": ("{a: " * 5000 + "1" + "}" * 5000, "nested more than"),
    "python tag": ("a: !!python/object/apply:os.system ['true']\n", "'!!python/object/apply:os.system' is not allowed"),
    "unknown tag": ("a: !foo 1\n", "'!foo' is not allowed"),
    "binary tag": ("a: !!binary aGVsbG8=\n", "is not allowed"),
    "mapping as key": ("? {a: 1}\n: 2\n", "not a mapping"),
    "list as key": ("? [a]\n: 2\n", "not a list"),
    "duplicate key": ("a: 1\nb: 2\na: 3\n", r"duplicate key 'a' \(first given on line 1\)"),
    "6 MB file": ("a: '" + "x" * 6_000_000 + "'\n", "too large"),
    "5,000-digit number": ("a: " + "9" * 5000 + "\n", "cannot read the value"),
    "merge key": ("x: &x {a: 1}\ny: {<<: *x, b: 2}\n", "merge keys"),
    "two documents": ("a: 1\n---\nb: 2\n", "not valid YAML"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_yaml_is_refused_in_bounded_memory(name):
    text, words = HOSTILE[name]
    tracemalloc.start()
    try:
        with pytest.raises(VariantError, match=words) as err:
            parse_yaml(text, "hostile.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64_000_000
    assert str(err.value).startswith("hostile.yaml") and len(str(err.value)) < 300


def test_a_refused_key_names_its_path_and_line():
    with pytest.raises(VariantError) as err:
        parse_yaml("board:\n  files: 8\n  cells:\n    land: [a1]\n    land: [a2]\n", "v.yaml")
    assert (err.value.path, err.value.line) == ("board.cells.land", 5)


def test_dates_and_equals_signs_stay_text():
    assert parse_yaml("a: 2026-11-30\nb: =\n").data == {"a": "2026-11-30", "b": "="}


def test_a_too_large_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * (MAX_BYTES + 10))
    with pytest.raises(VariantError, match="too large"):
        load_variant_file(path)


# One-line wrong-type edits of the shipped files (the ones seen to crash, and their neighbours).
EDITS = [
    (TRI, "    sea: [a4-f4, a5-h8, a9-f9]", "    sea: true", "board.cells.sea"),
    (TRI, "  cells:\n", "  cells: true\n  x_cells:\n", "board.cells"),
    (TRI, "  Naval: {color: \"#1f3b73\", tags: [Naval], emblem: ship}", "  Naval: 5", "services.Naval"),
    (TRI, "services:\n", "services: 7\nx_services:\n", "services"),
    (TRI, "options:\n", "options: [a, b]\nx_options:\n", "options"),
    (TRI, "overrides: {draw_when_none_left: [Infantry, Ship]}", "overrides: [1, 2]", "options.no-win-draw.overrides"),
    (TRI, "  marks: {", "  marks: [a]\n  x_marks: {", "combat.marks"),
    (TRI, "  table:\n", "  table:\n    rows: [1]\n", "combat.table.rows"),
    (DOVER, "overlays:\n", "overlays: {type: zone, zone: harbour}\nx_overlays:\n", "overlays"),
    (TRI, "move: {kind: slide,", "move: {kind: [slide],", "pieces[17].move.kind"),
    (AVIATION, "value: 10, count: 1", "value: ten, count: 1", "pieces[0].value"),
    (TRI, "name: Division, number: 3, count: 3", "name: Division, number: 3, count: [3]", "pieces[2].count"),
]


@pytest.mark.parametrize(("source", "old", "new", "path"), EDITS, ids=[e[3] for e in EDITS])
def test_wrong_types_are_variant_errors_with_a_key_path(tmp_path, source, old, new, path):
    error, _text = refused(tmp_path, source, old, new)
    assert path in {p.path for p in error.problems}
    assert all(p.line is not None for p in error.problems)


def test_a_jump_distance_must_be_a_positive_number(tmp_path):
    for bad in ("two", "0", "-1"):
        text = TRI.read_text().replace("move: {kind: slide,", f"move: {{kind: jump, distance: {bad},", 1)
        path = tmp_path / "jump.yaml"
        path.write_text(text)
        with pytest.raises(VariantError, match="distance"):
            load_variant_file(path)


@pytest.mark.parametrize("reason", ["{attacker:>400000000}", "{attacker.__class__}", "{attacker!r}", "{0}",
                                    "{attacker[0]}", "{nobody}", "{attacker"])
def test_reason_templates_take_only_their_fields(tmp_path, reason):
    path, _ = broken_copy(tmp_path, TRI, 'reason: "Heavy Artillery sinks the {second} on the river"',
                          f'reason: "{reason}"')
    with pytest.raises(VariantError, match="may use only") as err:
        load_variant_file(path)
    assert err.value.path.endswith(".reason")


def test_negative_ply_limit_default_is_refused(tmp_path):
    refused(tmp_path, TRI, "    default: 2000", "    default: -5")


def test_overlapping_setup_zones_are_refused(tmp_path):
    error, _ = refused(tmp_path, TRI, "setup: {blue: a1-l5, red: a8-l12}", "setup: {blue: a1-l8, red: a8-l12}")
    assert any("overlap" in p.message for p in error.problems)


def test_validate_goes_on_after_a_broken_file(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: &a [1, *a]\n")
    other = tmp_path / "other.yaml"
    other.write_text("board: true\n")
    lines, bad = validate_files([str(broken), str(other), str(Path(TRI))])
    assert bad == 2
    assert lines[-1].endswith(lines[-1].split(": ok: ")[-1]) and ": ok: " in lines[-1]
