"""Tri-Tactics, first edition, as a Gibson variant plugin.

The whole game is ``tri-tactics-classic.yaml``: it extends the revised edition (``extends: tri-tactics``)
and renames its Air Force and Naval pieces. It has no rule hooks; any the revised edition gains apply here.
"""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec

HERE = Path(__file__).parent


@hookimpl
def gibson_register_variants():
    return [VariantSpec("tri-tactics-classic", HERE / "tri-tactics-classic.yaml", None,
                        "Tri-Tactics, first edition: Scouts, Battle Planes, Sea Planes, Dreadnoughts, Flagships")]
