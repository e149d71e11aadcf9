"""Variant options: command-line text and dicts checked by one public module (names, kinds, ranges)."""

import pytest

from gibson_core import OptionError, load_variant
from gibson_core.cli import main
from gibson_core.options import OptionText, check_options, decode_text, parse_option_args


def test_parse_gives_names_and_text():
    assert parse_option_args(["first-capture", "ply-limit=300"]) == {"first-capture": True, "ply-limit": "300"}
    assert isinstance(parse_option_args(["ply-limit=300"])["ply-limit"], OptionText)
    assert parse_option_args(None) == {}


@pytest.mark.parametrize(("pairs", "words"), [
    (["=5"], "has no name"),
    (["ply-limit="], "empty value"),
    (["ply-limit=1", "ply-limit=2"], "given twice"),
    (["x" * 500], "too long"),
    (["a"] * 100, "too many options"),
])
def test_parse_refuses_malformed_text(pairs, words):
    with pytest.raises(OptionError, match=words):
        parse_option_args(pairs)


@pytest.mark.parametrize(("word", "value"), [("true", True), ("ON", True), ("yes", True), ("1", True),
                                             ("false", False), ("off", False), ("No", False), ("0", False)])
def test_on_off_words_from_the_command_line(word, value):
    chosen = parse_option_args([f"first-capture={word}"])
    assert check_options("dover-patrol", chosen) == {"first-capture": value}


def test_counts_from_text_and_from_dicts():
    assert check_options("dover-patrol", parse_option_args(["ply-limit=300"])) == {"ply-limit": 300}
    assert check_options("dover-patrol", {"ply-limit": 0, "first-capture": True}) == {"ply-limit": 0,
                                                                                      "first-capture": True}
    assert load_variant("dover-patrol", parse_option_args(["ply-limit=300"])).ply_limit == 300


@pytest.mark.parametrize(("options", "words"), [
    ({"first-capture": OptionText("maybe")}, "on or off.*got 'maybe'"),
    ({"first-capture": "yes"}, "on or off"),  # a plain string in a dict is not command-line text
    ({"first-capture": 1}, "on or off"),
    ({"ply-limit": OptionText("[1]")}, "whole number, got '\\[1\\]'"),
    ({"ply-limit": [1]}, "whole number, got a list"),
    ({"ply-limit": True}, "whole number"),
    ({"ply-limit": 2.5}, "whole number"),
    ({"ply-limit": -5}, "from 0 to"),
    ({"ply-limit": OptionText("-5")}, "from 0 to"),
    ({"ply-limit": 10**5000}, "from 0 to .*bit number"),
    ({"First-Capture": True}, "did you mean 'first-capture'"),
    ({"frist-capture": True}, "did you mean 'first-capture'"),
    ({"no-such": True}, "unknown option 'no-such' for dover-patrol"),
    ({("a",): True}, "unknown option"),
])
def test_wrong_names_kinds_and_ranges_are_refused(options, words):
    with pytest.raises(OptionError, match=words):
        check_options("dover-patrol", options)
    with pytest.raises(OptionError):
        load_variant("dover-patrol", options)


def test_messages_quote_a_short_prefix_only():
    with pytest.raises(OptionError) as err:
        check_options("dover-patrol", {"x" * 1_000_000: True})
    assert len(str(err.value)) < 300


def test_checked_against_a_variant_object_too():
    variant = load_variant("tri-tactics")
    assert check_options(variant, {"no-win-draw": False}) == {"no-win-draw": False}
    assert check_options(variant.spec, {"no-win-draw": False}) == {"no-win-draw": False}
    with pytest.raises(OptionError):
        check_options(42, {})


def test_decode_text_for_free_form_settings():
    assert decode_text(OptionText("200")) == 200
    assert decode_text(OptionText("hard")) == "hard"
    assert decode_text(5) == 5


@pytest.mark.parametrize("option", ["first-capture=maybe", "ply-limit=[1]", "ply-limit=-5", "frist-capture"])
def test_the_command_line_refuses_bad_options_in_one_line(capsys, option):
    assert main(["rules", "dover-patrol", "--option", option]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gibson: ") and err.count("\n") == 1
