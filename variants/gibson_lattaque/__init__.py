"""L'Attaque as a Gibson variant plugin, written the way any outside author would write one: a YAML file
and a ``gibson_register_variants`` hook, nothing else from the core.

Every rule is data in ``lattaque.yaml``: lakes are impassable terrain, the Scout slides, Mines and the Flag
never move, ordered attacker/defender combat rules settle the Sapper, the Mine, the Flag and the Spy, and
piece values settle every other fight. Losing the Flag loses the game.
"""

from pathlib import Path

from gibson_core.hookspecs import hookimpl
from gibson_core.variant import VariantSpec

HERE = Path(__file__).parent


@hookimpl
def gibson_register_variants():
    return [VariantSpec("lattaque", HERE / "lattaque.yaml", None,
                        "The 1908 original: 36 ranked pieces, Mines, Sappers, a Spy and a Flag on a 9x10 board")]
