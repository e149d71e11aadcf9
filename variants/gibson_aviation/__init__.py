"""Aviation (The Aerial Tactics Game of Attack and Defence) as a Gibson variant plugin.

The rules are data in ``aviation.yaml``: the 8x12 board and Aerodromes, the 42 pieces, the Troop Carrier's
diagonal move and attack, the combat rules in order, the anti-aircraft zone and Balloon spotting (piece
``effects``), Illuminate and Fire (piece ``actions``), and the ways the game ends. The automatic effects and
actions are the core's :mod:`gibson_core.effects` rule hooks, registered because the data declares
them; the game has no hook of its own.
"""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec

HERE = Path(__file__).parent


@hookimpl
def gibson_register_variants():
    return [VariantSpec("aviation", HERE / "aviation.yaml", None,
                        "Aircraft, guns, searchlights and balloons on an 8x12 sky; land a Troop Carrier to win")]
