"""Events in words, for the combat reveal and the move log (only what the viewer's events say)."""

from __future__ import annotations

import attrs

from gibson_core import events as ev


@attrs.frozen
class Clash:
    """An attack as the viewer saw it: both pieces (owner, type id) and what came of it."""

    attacker: tuple[str, str]
    defender: tuple[str, str]
    origin: str
    target: str


def _name(variant, type_id: str | None) -> str:
    if type_id is None:
        return "hidden piece"
    try:
        return variant.type_of(type_id).name
    except KeyError:
        return type_id


def describe(event, variant) -> str | None:
    """One line for an event worth telling (None for a plain move)."""
    if isinstance(event, ev.Attacked):
        other = variant.players[1 - variant.players.index(event.player)]
        return (f"{event.player} {_name(variant, event.attacker)} ({event.origin}) attacks "
                f"{other} {_name(variant, event.defender)} ({event.target})")
    if isinstance(event, ev.Removed):
        return f"{event.owner} {_name(variant, event.type)} on {event.square} removed: {event.reason}"
    if isinstance(event, ev.Retreated):
        return f"piece on {event.origin} driven back to {event.dest}" + (f": {event.reason}" if event.reason else "")
    if isinstance(event, ev.Acted):
        return f"{event.player} {event.kind}: {event.notation}"
    if isinstance(event, ev.TokenMoved):
        return f"{event.token}: {event.reason or 'moved'} ({event.square})"
    if isinstance(event, ev.Revealed) and event.reason not in ("combat",):
        return f"{event.owner} {_name(variant, event.type)} on {event.square} revealed" + (
            f" ({event.reason})" if event.reason else "")
    if isinstance(event, ev.GameOver):
        return result_text(event.winner, event.reason)
    return None


def result_text(winner: str | None, reason: str) -> str:
    """The end of a game in words (``winner`` None for a draw)."""
    return f"Drawn: {reason}" if winner is None else f"{winner} wins: {reason}"


def sound_for(events) -> str:
    """The sound effect of a ply: ``win`` when it ended the game, ``fight`` for an attack, ``blast`` for
    something destroyed without one (a Mine, a gun), else ``move``."""
    if any(isinstance(e, ev.GameOver) for e in events):
        return "win"
    if any(isinstance(e, ev.Attacked) for e in events):
        return "fight"
    if any(isinstance(e, ev.Removed) for e in events):
        return "blast"
    return "move"


def notable(events) -> bool:
    """True when a ply's events deserve a reveal banner (an attack, a removal, an action, a token, the end)."""
    return any(isinstance(e, ev.Attacked | ev.Removed | ev.Acted | ev.TokenMoved | ev.GameOver) for e in events)


def quiet_fights(events, players: tuple) -> list[Clash]:
    """The attacks of a ply after which both pieces stayed where they were (nothing removed or driven back
    from either square)."""
    touched = {e.square for e in events if isinstance(e, ev.Removed)} | \
              {e.origin for e in events if isinstance(e, ev.Retreated)}
    return [c for c in clashes(events, players) if c.origin not in touched and c.target not in touched]


def nothing_happens(variant, clash: Clash) -> str:
    """Why a fight changed nothing, in the rules' words: both pieces are known once they fought, so the
    reason is worked out from that public knowledge alone (the two pieces where they stood)."""
    from gibson_core import GameState, GibsonError

    (attacker, a_type), (defender, d_type) = clash.attacker, clash.defender
    try:
        state = GameState.from_position(variant, {clash.origin: f"{attacker} {a_type}",
                                                  clash.target: f"{defender} {d_type}"}, attacker)
        index = variant.grid.index
        reason = state.resolve(state.board[index[clash.origin]], state.board[index[clash.target]]).reason
    except (GibsonError, KeyError, ValueError):
        reason = ""
    return f"nothing happens: {reason}" if reason else "nothing happens: neither piece is harmed"


def clashes(events, players: tuple) -> list[Clash]:
    """The attacks among a ply's events."""
    out = []
    for e in events:
        if isinstance(e, ev.Attacked):
            other = players[1 - players.index(e.player)]
            out.append(Clash((e.player, e.attacker), (other, e.defender), e.origin, e.target))
    return out


def error_line(exc: BaseException, path=None, name: str | None = None, limit: int = 90) -> str:
    """One short line for an error shown in the window: the file's ``path`` replaced by its ``name``, a
    damaged file (a YAML or JSON parser's error underneath) said in those words, at most ``limit``
    characters (a parser's multi-line message is never shown cut off)."""
    import json

    import yaml

    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, yaml.YAMLError | json.JSONDecodeError | UnicodeDecodeError):
        text = f"{name or 'the file'} is damaged and cannot be read"
    else:
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if path is not None:
            text = text.replace(str(path), name or "the file")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
