"""Dover Patrol (Naval Tactics) as a Gibson variant plugin, with its four shorter games as options.

The rules are data in ``dover-patrol.yaml``: the board, harbours and Harbour Walls (wall edges with an
entrance gap), the 40 pieces, the Flying Boat's jump, blasts from Mines and Mine Layers (piece ``effects``),
every combat rule, and the Flags (the top-level ``flags`` section). Blasts are the core's
:mod:`gibson_core.effects` rule hooks and Flags its :mod:`gibson_core.tokens` hooks, both registered because
the data declares them. The shorter games
(``first-capture``, ``flagship-hunt``, ``pitched-battle``, ``capturing-the-base``) are option ``overrides``.
"""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec

HERE = Path(__file__).parent


@hookimpl
def gibson_register_variants():
    return [VariantSpec("dover-patrol", HERE / "dover-patrol.yaml", None,
                        "Naval tactics on an 8x12 sea: bring the enemy Flag home to your own Base")]
