"""Variant options: parse them from command-line text and check them against a variant's declared options.

One public function per step, shared by the CLI, the arena, the window and the server::

    chosen = parse_option_args(["first-capture", "ply-limit=300"])   # text, not yet typed
    options = check_options("dover-patrol", chosen)                  # {"first-capture": True, "ply-limit": 300}

An option's kind follows its declared ``default``: a ``true``/``false`` default makes an on/off option, a whole
number makes a count (``ply-limit``: a whole number from 0 up). From the command line an on/off option takes
``true/false/on/off/yes/no/1/0`` (a bare ``NAME`` means on); from a dict (a record, the window, the network) it
takes only ``True`` or ``False``. Every refusal is an :class:`~gibson_core.errors.OptionError` with one line of
words that quotes at most a short prefix of what was given.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from .errors import JSON_ERRORS, OptionError, quote

# The largest whole-number option value accepted (a ply limit of a billion is "no practical limit").
MAX_COUNT = 1_000_000_000
# At most this many --option arguments and this many characters in one (more is a typo or an attack).
MAX_ARGS = 64
MAX_ARG_LENGTH = 200

_ON = ("true", "on", "yes", "1")
_OFF = ("false", "off", "no", "0")


class OptionText(str):
    """An option value as typed on a command line: converted by :func:`check_options` to the option's kind
    (a plain ``str`` from a dict is not converted, so ``{"first-capture": "yes"}`` is refused)."""

    __slots__ = ()


def parse_option_args(pairs: list[str] | None) -> dict:
    """``["first-capture", "ply-limit=300"]`` -> ``{"first-capture": True, "ply-limit": OptionText("300")}``.

    Only the syntax is checked here (a name, an optional ``=VALUE``, no repeats); :func:`check_options`
    checks names, kinds and ranges against a variant."""
    pairs = list(pairs or [])
    if len(pairs) > MAX_ARGS:
        raise OptionError(f"too many options ({len(pairs)}; at most {MAX_ARGS})")
    out: dict[str, Any] = {}
    for text in pairs:
        if not isinstance(text, str):
            raise OptionError(f"an option is text NAME or NAME=VALUE, got {type(text).__name__}")
        if len(text) > MAX_ARG_LENGTH:
            raise OptionError(f"option {quote(text)} is too long (at most {MAX_ARG_LENGTH} characters)")
        name, eq, value = text.partition("=")
        name = name.strip()
        if not name:
            raise OptionError(f"option {quote(text)} has no name (write NAME or NAME=VALUE)")
        if eq and not value.strip():
            raise OptionError(f"option {quote(name)} has an empty value (write {name} or {name}=VALUE)")
        if name in out:
            raise OptionError(f"option {quote(name)} is given twice")
        out[name] = OptionText(value.strip()) if eq else True
    return out


def decode_text(value: Any) -> Any:
    """An :class:`OptionText` read as JSON when it is JSON (``200`` -> 200, ``true`` -> True), else as text;
    anything else unchanged. For free-form settings such as agent parameters (``search:iterations=200``)."""
    if not isinstance(value, OptionText):
        return value
    try:
        return json.loads(value)
    except JSON_ERRORS:
        return str(value)


def check_options(variant: Any, options: dict | None) -> dict:
    """Check ``options`` against a variant (a registered name, a ``VariantSpec`` or a compiled ``Variant``) and
    return them typed: on/off options as ``bool``, counts as ``int``. Raises OptionError (unknown name with a
    "did you mean", wrong kind, out of range) or VariantError/PluginError if the variant itself cannot load."""
    specs, name = _option_specs(variant)
    return check_option_values(specs, options, name)


def check_option_values(specs: dict, options: dict | None, variant_name: str) -> dict:
    """:func:`check_options` against a mapping of declared options (option name -> its data, with ``default``)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise OptionError(f"options are a mapping of option names to values, got {type(options).__name__}")
    out = {}
    for name, value in options.items():
        if not isinstance(name, str) or name not in specs:
            raise OptionError(_unknown(name, specs, variant_name))
        declared = specs[name]
        default = declared.get("default") if isinstance(declared, dict) else None
        out[name] = _typed(name, value, default)
    return out


def option_kind(default: Any) -> str:
    """What an option with this default takes: ``"on/off"``, ``"count"`` or ``"text"``."""
    if isinstance(default, bool):
        return "on/off"
    if isinstance(default, int):
        return "count"
    return "text"


def _typed(name: str, value: Any, default: Any):
    kind = option_kind(default)
    if kind == "on/off":
        if isinstance(value, bool):
            return value
        if isinstance(value, OptionText):
            word = value.lower()
            if word in _ON:
                return True
            if word in _OFF:
                return False
        raise OptionError(f"option {quote(name)} is on or off (true/false, on/off, yes/no, 1/0), "
                          f"got {_shown(value)}")
    if kind == "count":
        number = value
        if isinstance(value, OptionText):
            text = value.strip()
            number = int(text) if text.lstrip("-").isdigit() and len(text) <= 12 else None
        if isinstance(number, bool) or not isinstance(number, int):
            raise OptionError(f"option {quote(name)} is a whole number, got {_shown(value)}")
        if not 0 <= number <= MAX_COUNT:
            raise OptionError(f"option {quote(name)} must be from 0 to {MAX_COUNT:,}, got {_shown(number)}")
        return number
    if isinstance(value, str):
        if len(value) > MAX_ARG_LENGTH:
            raise OptionError(f"option {quote(name)} is too long (at most {MAX_ARG_LENGTH} characters)")
        return str(value)
    raise OptionError(f"option {quote(name)} is text, got {_shown(value)}")


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return quote(value)
    if isinstance(value, bool | int | float) or value is None:
        return repr(value)
    return f"a {type(value).__name__}"


def _unknown(name: Any, specs: dict, variant_name: str) -> str:
    known = ", ".join(sorted(specs)) or "none"
    text = f"unknown option {quote(str(name))} for {variant_name} (options: {known})"
    if isinstance(name, str):
        match = did_you_mean(name, specs)
        if match:
            text += f"; did you mean {match!r}?"
    return text


def did_you_mean(word: str, choices) -> str | None:
    """The choice closest to ``word`` ignoring case (a case-only difference always matches), or None."""
    lowered = {c.lower(): c for c in sorted(choices)}
    key = word[:MAX_ARG_LENGTH].lower()
    if key in lowered:
        return lowered[key]
    close = difflib.get_close_matches(key, list(lowered), n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


def _option_specs(variant: Any) -> tuple[dict, str]:
    from .plugins import load_variant
    from .variant import Variant, VariantSpec, load_variant_file

    if isinstance(variant, str):
        variant = load_variant(variant)
    elif isinstance(variant, VariantSpec):
        variant = load_variant_file(variant.path, None, variant)
    if not isinstance(variant, Variant):
        raise OptionError(f"options are checked against a variant name or a variant, got {type(variant).__name__}")
    return variant.option_specs, variant.name
