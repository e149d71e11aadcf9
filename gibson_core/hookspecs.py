"""Every hook Gibson calls, documented. All hook names start with ``gibson_``.

Two kinds of plugin manager use these:

* the **global** one (:func:`gibson_core.plugins.plugin_manager`) asks each installed variant package for
  its variants with :func:`gibson_register_variants`;
* each **game** gets its own manager holding only that variant's rule hooks and the option plugins chosen
  for it, so a plugin never sees another game's calls. The engine calls a rule hook only when some plugin
  implements it, and never per square: once per move, per fight or per move generation.

A rule hook receives the live :class:`~gibson_core.state.GameState`; it may read everything (by names:
``owner_of``, ``pieces_of``, ``type_of``, ``square_of``, ``pid_at``, ``option``) and change the position
only through the state's own methods (``move_piece``, ``remove``, ``reveal``, ``fight``, ``drive_back``) and
its ``tokens`` mapping (public, immutable values), so that ``pop`` restores it exactly. Answers are checked
against ``gibson_core.hookcheck.SHAPES`` where they enter the engine; a wrong shape is a PluginError naming the plugin and the hook.
docs/reference.md ("Hooks") says for each hook when it is called and what ``state.to_move`` is then.
"""

from __future__ import annotations

import pluggy

PROJECT = "gibson"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- global -----------------------------------------------------------------------------------------
@hookspec
def gibson_register_variants():
    """Return a list of :class:`~gibson_core.variant.VariantSpec` this plugin provides."""


# -- per game ---------------------------------------------------------------------------------------
@hookspec
def gibson_init_state(state):
    """A new game or position was built: set up ``state.tokens`` (for example Flags on their Bases)."""


@hookspec
def gibson_extra_moves(state, player):
    """Return extra legal moves or actions (a list of Move) for ``player`` (0 or 1, the side to move),
    computed only from what that player can see. Called once per move generation; every implementation's
    moves are appended to the core's, before the two-square rule and ``gibson_filter_moves``."""


@hookspec(firstresult=True)
def gibson_filter_moves(state, player, moves):
    """Return the list of legal moves after removing those a variant rule forbids (visible facts only).
    ``moves`` holds the core's moves, the extra moves and the two-square rule's cut; the first answer that
    is not None replaces it (a second filtering plugin is not asked)."""


@hookspec(firstresult=True)
def gibson_arrival_wins(state, pid, square):
    """Piece ``pid`` has just moved to ``square``: return True when this arrival wins the game by a variant
    rule that the end of the move will confirm (Dover Patrol's Flags). The game then ends before any automatic
    effect or attack: a winning move ends the game first. Return None otherwise."""


@hookspec
def gibson_on_arrival(state, pid, square, events):
    """Automatic effects when piece ``pid`` ends its move on ``square`` (an index), before any attack (blasts,
    an anti-aircraft zone, spotting); an ``onto`` attacker arrives after winning its fight. May remove the
    piece; then its attack does not take place. ``state.to_move`` is the mover."""


@hookspec(firstresult=True)
def gibson_apply_action(state, move, events):
    """Carry out an action that replaces a move (``d5@``, ``c4*f6``, ``c4>c5``). Return True when handled."""


@hookspec
def gibson_after_move(state, move, events):
    """End-of-move effects after the attack and the transit forfeits (pick up Flags, run aground...)."""


@hookspec
def gibson_on_removed(state, pid, square, events, cause):
    """Piece ``pid`` was just removed from ``square`` (drop what it carried); ``cause`` is a short word such as
    ``combat``, ``blast`` or ``shot down`` (an effect's data names its own)."""


@hookspec(firstresult=True)
def gibson_resolve_combat(state, attacker, defender):
    """Return an :class:`~gibson_core.combat.Outcome` to override the data-driven resolver, or None."""


@hookspec(firstresult=True)
def gibson_game_result(state):
    """After a move: return ``(winner, reason)`` when a variant rule ends the game, else None.
    ``winner`` is a player name, or None for a draw."""


@hookspec(firstresult=True)
def gibson_no_legal_moves(state, player):
    """The side to move (``player``, 0 or 1) has no legal move: return ``(winner, reason)`` to replace the
    family rule that such a player loses."""


@hookspec(firstresult=True)
def gibson_vector_setup(state, key, value):
    """A conformance vector's case has a variant-specific key beside ``position`` (Dover Patrol's
    ``flags``): apply it to the fresh state and return True, or return None if the key is not yours."""


@hookspec(firstresult=True)
def gibson_vector_expect(state, key):
    """Return the actual value of a variant-specific ``expect`` key (for example ``flags``) in the shape
    the vector writes it, or None if the key is not yours."""
