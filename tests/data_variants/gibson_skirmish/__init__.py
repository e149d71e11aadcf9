"""Skirmish, a test-only variant exercising every attack mode and slider-attack setting (no hooks)."""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec


@hookimpl
def gibson_register_variants():
    """Skirmish, data only."""
    return [VariantSpec("skirmish", Path(__file__).parent / "skirmish.yaml", None, "attack modes under test")]
