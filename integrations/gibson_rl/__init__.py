"""Gibson games as reinforcement-learning environments (the ``gibson[rl]`` extra).

- :mod:`gibson_rl.actions`: a fixed numbered action space per variant, ``action_to_move``/``move_to_action``;
- :mod:`gibson_rl.encode`: observation tensors of one player's view;
- :mod:`gibson_rl.pettingzoo`: PettingZoo AEC environments, ``env("lattaque", **options)``;
- :mod:`gibson_rl.gym`: Gymnasium single-agent environments ``gibson/<variant>-v0`` (registered on import);
- :mod:`gibson_rl.openspiel`: the OpenSpiel game ``python_gibson`` and an IS-MCTS agent for ``gibson arena``.

See ``docs/rl.md``.
"""

from __future__ import annotations

from .actions import ActionError, ActionSpace, Placement, action_space, action_to_move, move_to_action
from .core import Episode
from .encode import Encoder

__all__ = ["ActionError", "ActionSpace", "Encoder", "Episode", "Placement", "action_space", "action_to_move",
           "move_to_action"]

try:  # Gymnasium ids exist as soon as gibson_rl is imported
    from .gym import register_envs

    register_envs()
except ImportError:  # pragma: no cover - gymnasium is part of the extra
    pass
