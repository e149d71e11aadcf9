"""Gibson: an engine for H.P. Gibson's hidden-rank war games.

The public API in one import::

    from gibson_core import load_variant, GameState, Move, observe
"""

from .errors import (
    GibsonError,
    IllegalMoveError,
    NotationError,
    OptionError,
    PluginError,
    RecordError,
    SetupError,
    VariantError,
)
from .moves import Move
from .plugins import load_variant, variant_names
from .state import GameState, Result
from .variant import Variant, VariantSpec

__all__ = [
    "GameState", "GibsonError", "IllegalMoveError", "Move", "NotationError", "OptionError", "PluginError", "RecordError",
    "Result", "SetupError", "Variant", "VariantError", "VariantSpec", "load_variant", "variant_names",
]
__version__ = "0.1.0"
