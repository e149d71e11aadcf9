"""Gibson: an engine for H.P. Gibson's hidden-rank war games.

The public API in one import::

    from gibson_core import load_variant, GameState, Move, observe

``observe`` here is the function (``observe(state, player)``); the module is ``gibson_core.observe``.
"""

from .errors import (
    GibsonError,
    IllegalMoveError,
    NotationError,
    NothingToUndoError,
    NotYourTurnError,
    OptionError,
    PluginError,
    RecordError,
    SetupError,
    UnknownPieceError,
    UnknownPlayerError,
    VariantError,
)
from .moves import Move
from .observe import Observation, observe
from .plugins import load_variant, variant_names
from .state import GameState, Result
from .variant import Variant, VariantSpec

__all__ = [
    "GameState", "GibsonError", "IllegalMoveError", "Move", "NotYourTurnError", "NotationError", "NothingToUndoError",
    "Observation", "OptionError", "PluginError", "RecordError", "Result", "SetupError", "UnknownPieceError",
    "UnknownPlayerError", "Variant", "VariantError", "VariantSpec", "load_variant", "observe", "variant_names",
]
__version__ = "0.1.0"
