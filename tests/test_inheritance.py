"""Variant inheritance (gibson_core.inherit): merge rules, renames, locations of problems, hooks."""

from pathlib import Path
from textwrap import dedent

import pytest

from gibson_core import VariantError, load_variant
from gibson_core import plugins as plugins_module
from gibson_core.hookspecs import hookimpl
from gibson_core.inherit import inherited_hooks
from gibson_core.variant import VariantSpec, load_variant_file

PARENT_FILE = Path(load_variant("tri-tactics").source)
OLD_NAMES = ("Reconnaissance Plane", "Two-Seat Fighter", "Flying Boat", "Battleship", "Aircraft Carrier")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(dedent(text), encoding="utf-8")
    return path


def child(tmp_path: Path, body: str) -> Path:
    return write(tmp_path, "child.yaml", "extends: tri-tactics\nname: child\n" + dedent(body))


def problems_of(path: Path) -> list:
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    return info.value.problems


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


# -- the first edition ------------------------------------------------------------------------------

def test_classic_has_its_own_ids_and_names():
    v = load_variant("tri-tactics-classic")
    ids = [t.id for t in v.types]
    assert ids[8:17] == ["Sc", "Bmr", "BP", "SP", "SM", "Dst", "Cru", "Dn", "FS"]
    assert {t.id: t.name for t in v.types if t.id in ("Sc", "BP", "SP", "Dn", "FS")} == {
        "Sc": "Scout", "BP": "Battle Plane", "SP": "Sea Plane", "Dn": "Dreadnought", "FS": "Flagship"}
    assert not {"RP", "TSF", "FB", "BS", "Car"} & set(ids)
    assert v.piece_count == 56 and v.grid.files == 12


def test_classic_keeps_services_tags_and_counts():
    old, new = load_variant("tri-tactics"), load_variant("tri-tactics-classic")
    for a, b in zip(old.types, new.types, strict=True):
        assert (a.count, a.service, a.number, a.element) == (b.count, b.service, b.number, b.element)
    assert "Ship" in new.type_of("Dn").tags and "Ship" not in new.type_of("SP").tags


def test_classic_table_cells_and_rule_texts_use_the_new_ids_and_names():
    v = load_variant("tri-tactics-classic")
    rows = v.data["combat"]["table"]["rows"]
    assert rows["SM"][v.data["combat"]["table"]["columns"].index("SP")] == "SP"
    texts = {rule.reason for row in v.combat_cells for rules, _ in row for rule in rules}
    texts |= {base.reason for row in v.combat_cells for _, base in row}
    texts |= {rule["name"] for rule in v.data["combat"]["rules"]}
    assert not [t for t in texts if any(name in t for name in OLD_NAMES)]
    assert "Sea Plane wins over the sea" in texts


def test_classic_rules_text_shows_no_revised_edition_name():
    from gibson_core.rulestext import rules_text

    text = rules_text(load_variant("tri-tactics-classic"))
    assert "Dreadnought" in text and not any(name in text for name in OLD_NAMES)


# -- merge rules ------------------------------------------------------------------------------------

def test_pieces_merge_by_id_and_options_by_name(tmp_path):
    v = load_variant_file(child(tmp_path, """\
        pieces:
          - {id: Bn, name: Battalion, count: 6}
        setup: {zone: setup, exclude: [hq, lake]}
        options:
          ply-limit: {default: 500}
        """))
    assert v.type_of("Bn").count == 6 and v.type_of("Bn").service == "Infantry"
    assert v.piece_count == 57 and v.ply_limit == 500
    assert v.option_specs["ply-limit"]["extension"] is True


def test_removing_a_piece_drops_its_table_row_and_column(tmp_path):
    v = load_variant_file(child(tmp_path, """\
        pieces:
          - {id: Army, remove: true}
        """))
    table = v.data["combat"]["table"]
    assert "Army" not in v.type_index and "Army" not in table["columns"] and "Army" not in table["rows"]
    assert all(len(row) == len(table["columns"]) for row in table["rows"].values())


def test_table_rows_merge_row_by_row_and_are_still_checked(tmp_path):
    path = child(tmp_path, """\
        combat:
          table:
            rows:
              Bn:   [X,  2,  3,  4,  5,  1,  FA, HA, .,  2,  .,  "&", ., .,  .,  .,  .,  1]
        """)
    (problem,) = problems_of(path)
    assert problem.file == str(path) and problem.path == "combat.table.rows.Bn"
    assert problem.line == line_of(path, "Bn:") and "asymmetric" in problem.message


def test_board_cells_merge_by_terrain(tmp_path):
    v = load_variant_file(child(tmp_path, """\
        board:
          cells:
            lake: [i2, i11, l6]
        """))
    assert v.kind_of(v.grid.square("l6")).name == "Lake" and v.kind_of(v.grid.square("f12")).name == "H.Q."


def test_extends_a_file_by_relative_path(tmp_path):
    write(tmp_path, "base.yaml", PARENT_FILE.read_text())
    v = load_variant_file(write(tmp_path, "c.yaml", "extends: base.yaml\nname: by-path\ntitle: By path\n"))
    assert (v.name, v.title, v.piece_count) == ("by-path", "By path", 56)


def test_grandchild_inherits_through_two_levels(tmp_path):
    write(tmp_path, "mid.yaml", "extends: tri-tactics\nname: mid\nrename: {Car: FS}\n"
                                "pieces: [{id: FS, name: Flagship}]\n")
    v = load_variant_file(write(tmp_path, "low.yaml", "extends: mid.yaml\nname: low\n"
                                                      "pieces: [{id: FS, count: 2}]\n"))
    assert (v.type_of("FS").name, v.type_of("FS").count) == ("Flagship", 2)


# -- problems name the file, key path and line where the key comes from -----------------------------

def test_a_problem_in_a_child_key_names_the_child(tmp_path):
    path = child(tmp_path, """\
        pieces:
          - {id: Bn, count: -1}
        colour: blue
        """)
    found = {p.path: p for p in problems_of(path)}
    assert found["pieces[0].count"].file == str(path)
    assert found["pieces[0].count"].line == line_of(path, "count: -1")
    assert found["colour"].line == line_of(path, "colour") and "unknown top-level key" in found["colour"].message


def test_a_problem_in_an_inherited_key_names_the_parent(tmp_path):
    path = child(tmp_path, """\
        pieces:
          - {id: SL, remove: true}
        """)
    problems = problems_of(path)
    assert problems and all(p.file == str(PARENT_FILE) for p in problems)
    assert any(p.path.startswith("combat.rules[0].attacker") and "'SL'" in p.message for p in problems)


def test_rename_of_an_unknown_piece_or_to_a_taken_id(tmp_path):
    path = child(tmp_path, "rename: {XX: YY, RP: Bn}\n")
    found = {p.path: p.message for p in problems_of(path)}
    assert "no piece 'XX'" in found["rename.XX"] and "already taken" in found["rename.RP"]


def test_unknown_parent_and_cycles(tmp_path):
    path = write(tmp_path, "orphan.yaml", "name: orphan\nextends: no-such-game\n")
    (problem,) = problems_of(path)
    assert (problem.path, problem.line) == ("extends", 2) and "no-such-game" in problem.message
    write(tmp_path, "a.yaml", "extends: b.yaml\nname: a\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\nname: b\n")
    assert "cycle" in problems_of(tmp_path / "a.yaml")[0].message


# -- hooks ------------------------------------------------------------------------------------------

class ParentHooks:
    @hookimpl
    def gibson_game_result(self, state):
        return None

    @hookimpl
    def gibson_resolve_combat(self, state, attacker, defender):
        return None


class ChildHooks:
    @hookimpl
    def gibson_resolve_combat(self, state, attacker, defender):
        return None


def test_inherited_hooks_drop_what_the_child_overrides():
    parent, own = ParentHooks(), ChildHooks()
    combined = inherited_hooks(parent, own)
    assert combined[-1] is own
    (kept,) = combined[:-1]
    assert hasattr(kept, "gibson_game_result") and not hasattr(kept, "gibson_resolve_combat")
    assert inherited_hooks(parent, None) == [parent]
    assert inherited_hooks(None, None) is None


@pytest.fixture
def registry(monkeypatch):
    """Register plugins for one test, and forget them afterwards."""
    added = []
    monkeypatch.setattr(plugins_module, "_SPECS", plugins_module._SPECS)

    def register(plugin, name):
        plugins_module.register_plugin(plugin, name)
        added.append(plugin)

    yield register
    for plugin in added:
        plugins_module.plugin_manager().unregister(plugin)


def test_a_child_variant_runs_its_parents_hooks_unless_it_overrides_them(tmp_path, registry):
    parent_hooks, child_hooks = ParentHooks(), ChildHooks()
    parent_yaml = write(tmp_path, "p.yaml", PARENT_FILE.read_text().replace("name: tri-tactics", "name: hooked-parent"))
    child_yaml = write(tmp_path, "c.yaml", "extends: hooked-parent\nname: hooked-child\n")

    class Registration:
        @hookimpl
        def gibson_register_variants(self):
            return [VariantSpec("hooked-parent", parent_yaml, parent_hooks),
                    VariantSpec("hooked-child", child_yaml, child_hooks)]

    registry(Registration(), "test-inheritance-hooks")
    pm = load_variant("hooked-child").plugin_manager
    owners = {name: [impl.function.__qualname__ for impl in getattr(pm.hook, name).get_hookimpls()]
              for name in ("gibson_game_result", "gibson_resolve_combat")}
    assert owners == {"gibson_game_result": ["ParentHooks.gibson_game_result"],
                      "gibson_resolve_combat": ["ChildHooks.gibson_resolve_combat"]}
