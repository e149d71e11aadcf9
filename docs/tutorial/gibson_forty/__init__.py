"""Forty: the classic 10x10 game of the 1940s rules, written as data only (docs/writing-a-variant.md)."""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec

HERE = Path(__file__).parent


@hookimpl
def gibson_register_variants():
    """Forty, with no rule hooks: its YAML says every rule."""
    return [VariantSpec("forty", HERE / "forty.yaml", None, "The classic 10x10 game of the 1940s rules")]
