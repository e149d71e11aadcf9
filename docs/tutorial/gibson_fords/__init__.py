"""Fords and Fords Lite: the tutorial's variant package (docs/writing-a-variant.md)."""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec

from . import hooks

HERE = Path(__file__).parent


@hookimpl
def gibson_register_variants():
    """Fords with its hook; Fords Lite inherits the hook from Fords through ``extends``."""
    return [
        VariantSpec("fords", HERE / "fords.yaml", hooks, "A river, two fords and fourteen hidden pieces"),
        VariantSpec("fords-lite", HERE / "fords-lite.yaml", None, "Fords for a quick game"),
    ]
