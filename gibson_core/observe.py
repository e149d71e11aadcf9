"""Observations: everything one player may know, and nothing more. Front ends, AIs, player records and
network messages read only these.

A player sees every square's occupant (owner and stable handle), the type of their own pieces and of enemy
pieces that have been revealed, which pieces have moved, the public move list, tokens (Flags, visible to
both), the redacted events of every move, and — on their turn — their legal moves, which the rules make a
function of this view alone.
"""

from __future__ import annotations

from collections import Counter

import attrs

from .errors import UnknownPlayerError, quote
from .events import REVEAL_ALL, Removed, redact
from .pieces import Piece


@attrs.frozen
class Observation:
    """One player's view of a game at one moment."""

    variant: str
    options: tuple  # ((name, value), ...)
    player: str  # a player name, or REVEAL_ALL for the full reveal
    to_move: str
    ply: int
    pieces: tuple  # Piece on the board, type None where hidden from this player
    removed: tuple  # Piece taken off the board (square = where it last stood), type None where never seen
    tokens: tuple  # ((name, value), ...) visible to both players
    moves: tuple  # every move so far, in notation
    events: tuple  # per ply: tuple of events as this player may see them
    legal_moves: tuple  # this player's legal moves when it is their turn, else ()
    result: tuple | None  # (winner or None for a draw, reason), or None while the game goes on

    def piece_at(self, square: str) -> Piece | None:
        """The piece on a square as this player sees it."""
        for piece in self.pieces:
            if piece.square == square:
                return piece
        return None

    def own(self) -> tuple:
        """This player's pieces on the board."""
        return tuple(p for p in self.pieces if p.owner == self.player)

    def enemy(self) -> tuple:
        """The opponent's pieces on the board."""
        return tuple(p for p in self.pieces if p.owner != self.player)

    def unaccounted(self, variant) -> dict[str, int]:
        """For each enemy piece type, how many are not yet identified (on the board unrevealed): the
        rulebook's advice to keep count of what the enemy still has."""
        counts = Counter({t.id: t.count for t in variant.types})
        for piece in self.removed + self.pieces:
            if piece.owner != self.player and piece.type is not None:
                counts[piece.type] -= 1
        return {k: v for k, v in counts.items() if v > 0}

    @property
    def my_turn(self) -> bool:
        """True when this player is to move and the game goes on."""
        return self.result is None and self.to_move == self.player


def observe(state, player) -> Observation:
    """The Observation of ``player`` in ``state``: hidden enemy types never appear in it.

    ``player`` is a player name, or :data:`REVEAL_ALL` for the full reveal (every type, no legal moves),
    which front ends show once a game is over and tools use on their own games."""
    variant = state.variant
    everything = player is REVEAL_ALL
    p = -1 if everything else variant.player_index(player)
    pieces = _pieces(state, p, everything)
    log = _player_log(state, player)
    removed = [Piece(e.handle, e.owner, e.square, e.type, e.public, True)
               for _entry, events in log for e in events if isinstance(e, Removed)]
    result = state.outcome()
    legal = tuple(state.legal_moves()) if state.to_move == p and result is None else ()
    result = (result.winner, result.reason) if result else None
    return Observation(
        variant=variant.name,
        options=tuple(sorted(variant.options.items())),
        player=player,
        to_move=variant.players[state.to_move],
        ply=state.ply,
        pieces=tuple(sorted(pieces, key=lambda x: x.handle)),
        removed=tuple(removed),
        tokens=tuple(sorted(public_tokens(state).items())),
        moves=tuple(str(m) for m, _ in state.history),
        events=tuple(events for _entry, events in log),
        legal_moves=legal,
        result=result,
    )


def _pieces(state, p: int, everything: bool = False) -> list:
    """The pieces on the board as player ``p`` sees them (every type with ``everything``), in handle order.
    A piece's view depends only on (handle, square, type if known, revealed, moved), so each such view is
    built once per game and reused: a server sending views after every move spends its time on what
    changed."""
    cache = state.__dict__.setdefault("_observed_pieces", {})
    owner, square, revealed, moved, ptype = state.owner, state.square, state.revealed, state.moved, state.ptype
    out = []
    for pid in range(1, len(owner)):
        sq = square[pid]
        if sq < 0:
            continue
        known = everything or owner[pid] == p or revealed[pid]
        key = (pid, sq, ptype[pid] if known else -1, revealed[pid], moved[pid])
        piece = cache.get(key)
        if piece is None:
            piece = cache[key] = state.piece(pid, known)
        out.append(piece)
    return out


#: The word for the full reveal on command lines (``--as all``); variants may not name a player so.
ALL_WORD = "all"


def viewer_from_text(variant, text: str):
    """A viewer named on a command line: a player name exactly as the variant writes it, or ``all`` for
    :data:`REVEAL_ALL`. Anything else is an :class:`UnknownPlayerError` that lists the choices."""
    if text == ALL_WORD:
        return REVEAL_ALL
    if text in variant.players:
        return text
    raise UnknownPlayerError(f"{quote(text, 40)} is not a viewer of {variant.name}: "
                             f"choose {', '.join(variant.players)} or {ALL_WORD}")


def public_tokens(state) -> dict:
    """Tokens as both players see them (every token is public: Flags are visible to both)."""
    return {k: v for k, v in state.tokens.items() if not str(k).startswith("_")}


def _player_log(state, player: str) -> list:
    """The history's events as ``player`` sees them, kept in step with the history incrementally."""
    cache = state.__dict__.setdefault("_player_logs", {}).setdefault(player, [])
    history = state.history
    keep = 0
    while keep < len(cache) and keep < len(history) and cache[keep][0] is history[keep]:
        keep += 1
    del cache[keep:]
    for entry in history[keep:]:
        cache.append((entry, tuple(redact(e, player) for e in entry[1])))
    return cache
