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
