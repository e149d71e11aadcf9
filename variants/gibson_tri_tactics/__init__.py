"""Tri-Tactics (revised edition) as a Gibson variant plugin.

Every rule is data in ``tri-tactics.yaml``: the board, the 18 piece types, the combat rules in their
order of precedence, the Value Table, the H.Q./Lake transit forfeit and both ways of winning. The game
needs no rule hook of its own.
"""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec

HERE = Path(__file__).parent


@hookimpl
def gibson_register_variants():
    return [VariantSpec("tri-tactics", HERE / "tri-tactics.yaml", None,
                        "Land, sea and air on one 12x12 board (revised edition)")]
