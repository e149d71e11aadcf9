"""The docs stay true: the reference documents every YAML key the loader accepts and every hook, and the
tutorial's files (docs/tutorial/) validate, pass their vectors and play."""

import inspect
import re
from pathlib import Path

import pytest
from conftest import registered

from gibson_core import hookspecs, load_variant
from gibson_core.ai import make_agent
from gibson_core.check import run_file
from gibson_core.match import play_match
from gibson_core.movegen import RULE_HOOKS
from gibson_core.variant import OPTION_KEYS, PIECE_KEYS, TOP_LEVEL_KEYS, load_variant_file

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TUTORIAL = DOCS / "tutorial"
PACKAGE = TUTORIAL / "gibson_fords"
REFERENCE = (DOCS / "reference.md").read_text(encoding="utf-8")
GUIDE = (DOCS / "writing-a-variant.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The text under a markdown heading, up to the next heading of the same or a higher level."""
    match = re.search(rf"^(#+) {re.escape(heading)}\s*$", text, re.MULTILINE)
    assert match, f"reference.md has no heading {heading!r}"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE).search(text, match.end())
    return text[match.end():end.start() if end else len(text)]


def undocumented(keys, text: str) -> list[str]:
    return [key for key in keys if f"`{key}`" not in text]


# -- reference ---------------------------------------------------------------------------------------

def test_every_hook_is_documented_with_all_its_arguments():
    hooks = [name for name in dir(hookspecs) if name.startswith("gibson_")]
    assert len(hooks) >= 10
    table = section(REFERENCE, "Hooks")
    signatures = [f"`{h}({', '.join(inspect.signature(getattr(hookspecs, h)).parameters)})`" for h in hooks]
    assert [s for s in signatures if s not in table] == []


def test_every_hook_has_a_return_shape():
    from gibson_core.hookcheck import SHAPES
    from gibson_core.movegen import RULE_HOOKS

    assert sorted(SHAPES) == sorted(RULE_HOOKS)


def test_every_top_level_key_is_documented():
    assert undocumented(TOP_LEVEL_KEYS, section(REFERENCE, "Top-level keys")) == []


def test_every_piece_key_is_documented():
    assert undocumented(PIECE_KEYS, section(REFERENCE, "Piece keys")) == []


def test_every_option_key_is_documented():
    assert undocumented(sorted(OPTION_KEYS), section(REFERENCE, "options")) == []


def test_the_loader_rejects_keys_it_does_not_list(tmp_path):
    """The lists above are the loader's own: a key outside them is reported, so none can go undocumented."""
    text = (PACKAGE / "fords.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("players:", "colour: red\nplayers:", 1).replace("{id: Cpt,", "{id: Cpt, speed: 2,"))
    with pytest.raises(Exception) as info:
        load_variant_file(bad)
    messages = [p.message for p in info.value.problems]
    assert any("top-level key 'colour'" in m for m in messages) and any("piece key 'speed'" in m for m in messages)


# -- tutorial ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fords():
    """The tutorial's package, registered like an installed plugin for this module's tests."""
    with registered(TUTORIAL, "gibson_fords") as module:
        yield module


@pytest.fixture(scope="module")
def forty():
    """Part two's data-only package, registered likewise."""
    with registered(TUTORIAL, "gibson_forty") as module:
        yield module


def test_tutorial_files_validate():
    assert load_variant_file(PACKAGE / "fords.yaml").piece_count == 14
    lite = load_variant_file(PACKAGE / "fords-lite.yaml")
    assert lite.piece_count == 12 and "Rn" in lite.type_index and "Sc" not in lite.type_index


def test_tutorial_vectors_pass(fords):
    results = run_file(TUTORIAL / "tests" / "vectors" / "fords.yaml")
    assert len(results) >= 10
    assert [f"{r.name}: {r.problem}" for r in results if not r.passed] == []
    assert f"{len(results)} passed, 0 failed" in GUIDE


def test_forty_vectors_pass(forty):
    results = run_file(TUTORIAL / "tests" / "vectors" / "forty.yaml")
    assert len(results) >= 15
    assert [f"{r.name}: {r.problem}" for r in results if not r.passed] == []
    assert f"{len(results)} passed, 0 failed" in GUIDE


def test_forty_needs_no_python_hook(forty):
    """Every rule of the classic game is data: no rule hook is registered for it, the package implements no
    hook but the registration, and it has no other Python module."""
    variant = load_variant("forty")
    hooks = variant.plugin_manager.hook
    assert [name for name in RULE_HOOKS if getattr(hooks, name).get_hookimpls()] == []
    assert variant.spec.hooks is None
    assert [name for name in dir(forty) if name.startswith("gibson_")] == ["gibson_register_variants"]
    assert sorted(p.name for p in (TUTORIAL / "gibson_forty").glob("*.py")) == ["__init__.py"]
    counts = sorted((t.value or 0, t.count) for t in variant.types)
    assert variant.piece_count == 40 and [c for v, c in counts if v] == [1, 8, 5, 4, 4, 4, 3, 2, 1, 1]


def test_forty_lessons_play(forty):
    from gibson_core.lessons import check_lesson, load_lessons

    lessons = load_lessons("forty")
    assert len(lessons) == 3 and [check_lesson(lesson) for lesson in lessons] == ["", "", ""]


def test_fords_lite_inherits_the_hook_and_rewords_names(fords):
    from gibson_core.state import GameState

    lite = load_variant("fords-lite")
    state = GameState.from_position(lite, {"c5": "blue Sol", "e4": "blue Sol", "a1": "blue Sol", "g9": "red Sol"})
    state.play("e4-e5")
    assert state.outcome().reason == "blue holds both fords"
    reasons = {rule.reason for row in lite.combat_cells for rules, _ in row for rule in rules}
    assert "the Runner lifts the Mine" in reasons


def test_a_random_game_of_fords_ends(fords):
    variant = load_variant("fords")
    _record, state = play_match(variant, [make_agent("random"), make_agent("random")], seed=3)
    assert state.outcome() is not None


def test_tutorial_code_blocks_are_the_files():
    """Every yaml and python block the tutorial shows is copied from a file in docs/tutorial/."""
    sources = "\n".join(p.read_text() for p in TUTORIAL.rglob("*") if p.suffix in (".yaml", ".py"))
    blocks = re.findall(r"```(yaml|python)\n(.*?)```", GUIDE, re.DOTALL)
    assert len(blocks) >= 8
    assert [body for _lang, body in blocks if body.strip() not in sources] == []


def test_docs_link_to_files_that_exist():
    for text, base in ((GUIDE, DOCS), (REFERENCE, DOCS)):
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            assert (base / target).exists(), target


@pytest.mark.parametrize("name", ["tri-tactics", "tri-tactics-classic", "lattaque"])
def test_rules_pages(name):
    page = DOCS / "rules" / f"{name}.md"
    assert page.exists() and load_variant(name).title.split(" (")[0] in page.read_text()


def test_the_tutorials_lesson_plays(fords):
    from gibson_core.lessons import check_lesson, load_lessons

    (lesson,) = load_lessons("fords")
    assert check_lesson(lesson) == ""
