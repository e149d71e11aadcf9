"""The learning aids of the core: the Value Table legend (shared by ``gibson rules`` and the window) and
the lessons beside each variant (validated like variant files, every one played through the engine)."""

import pytest

from gibson_core import load_variant, variant_names
from gibson_core.rulestext import rules_text
from gibson_core.valuetable import marks_legend, table_rows


@pytest.mark.parametrize("name", variant_names())
def test_every_symbol_of_the_value_table_has_words(name):
    variant = load_variant(name)
    legend = dict(marks_legend(variant))
    ids = {t.id for t in variant.types}
    for _tid, cells in table_rows(variant):
        for cell in cells or ():
            assert cell in legend or (cell in ids and "id" in legend), f"{name}: no words for {cell!r}"
    text = rules_text(variant)
    for _sym, words in marks_legend(variant):
        assert words in text  # the terminal prints the same legend


def test_marks_are_explained_in_the_words_of_the_data():
    variant = load_variant("tri-tactics")
    legend = dict(marks_legend(variant))
    for mark, words in variant.data["combat"]["marks"].items():
        assert legend[mark].startswith(words)
    assert "Bn, RP, Dst" in legend["1"]  # a number names the pieces that carry it


# -- lessons -----------------------------------------------------------------------------------------------
from gibson_core.errors import VariantError  # noqa: E402
from gibson_core.lessons import check_lesson, deciding_rule, load_lessons, read_lessons, reasons  # noqa: E402

SHIPPED = ["aviation", "dover-patrol", "lattaque", "tri-tactics", "tri-tactics-classic"]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_variant_has_a_course_of_lessons(name):
    lessons = load_lessons(name)
    assert len(lessons) >= 8
    assert len({lesson.title for lesson in lessons}) == len(lessons)


@pytest.mark.parametrize("name", variant_names())
def test_every_lesson_is_played_through_the_engine(name):
    for lesson in load_lessons(name):
        assert check_lesson(lesson) == ""


def test_a_wrong_move_is_not_played_and_the_right_one_says_why():
    lesson = load_lessons("tri-tactics")[0]
    state = lesson.start()
    wrong = next(m for m in state.legal_moves() if not lesson.is_answer(m))
    before = state.position()
    assert lesson.attempt(state, wrong) == (False, ())
    assert state.position() == before and not state.history
    ok, events = lesson.attempt(state, lesson.answers[0])
    assert ok and reasons(events) == ["Brigade beats Battalion"]  # the engine's words, not the lesson's
    assert deciding_rule(state, events) == "the Value Table"


def test_the_rule_that_decided_a_fight_is_named_by_its_number():
    lesson = next(x for x in load_lessons("tri-tactics") if x.title == "Out of its element")
    state = lesson.start()
    events = state.play(lesson.answers[0])
    assert deciding_rule(state, events) == "combat rule 2: out-of-element forfeiture (Ship on land)"
    lake = next(x for x in load_lessons("tri-tactics") if x.before)
    state = lake.start()
    assert deciding_rule(state, state.play(lake.answers[0])) == ""  # no fight: the win says why


def _broken(tmp_path, text):
    path = tmp_path / "lessons.yaml"
    path.write_text(text)
    with pytest.raises(VariantError) as info:
        read_lessons(path, "lattaque")
    return info.value


GOOD = """variant: lattaque
lessons:
  - title: Capture the Flag
    prompt: Attack the Flag.
    position: {d5: blue Sgt, d7: red Flag, b1: blue Sgt, i10: red Sgt}
    to_move: blue
    moves: [d5-d6xd7]
    hint: From d6.
"""


@pytest.mark.parametrize("old, new, path, line", [
    ("moves: [d5-d6xd7]", "moves: [d5-d7xd8]", "lessons[0].moves[0]", 7),  # not legal there
    ("moves: [d5-d6xd7]", "moves: [d5=d6]", "lessons[0].moves[0]", 7),  # not notation
    ("    hint: From d6.\n", "", "lessons[0]", 3),  # a required key missing
    ("variant: lattaque", "variant: aviation", "variant", 1),  # another variant's file
    ("d7: red Flag", "d7: red Queen", "lessons[0].position", 5),  # no such piece
    ("    to_move: blue\n", "    to_move: blue\n    flavour: 3\n", "lessons[0].flavour", 7),  # unknown key
    ("variant: lattaque", "variant: [a, b]", "variant", 1),  # not a name
    ("    to_move: blue\n", "    to_move: blue\n    options: 3\n", "lessons[0].options", 7),  # not a mapping
])
def test_a_broken_lessons_file_names_file_key_path_and_line(tmp_path, old, new, path, line):
    assert old in GOOD
    error = _broken(tmp_path, GOOD.replace(old, new, 1))
    assert error.file.endswith("lessons.yaml") and error.path == path and error.line == line, str(error)


def test_a_good_lessons_file_reads(tmp_path):
    path = tmp_path / "lessons.yaml"
    path.write_text(GOOD)
    (lesson,) = read_lessons(path, "lattaque")
    assert check_lesson(lesson) == ""
