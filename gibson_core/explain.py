"""Why a move is illegal, in words a player understands (used by ``GameState.play``)."""

from __future__ import annotations

from .errors import NotationError
from .moves import MOVE, Move
from .pieces import DIAGONAL, IMMOBILE, IN_LINE, JUMP, ONTO, SLIDE


def explain_illegal(state, move: Move) -> str:
    """The first reason, in rule order, why ``move`` is not among the legal moves of ``state``."""
    grid, variant = state.grid, state.variant
    try:
        o = grid.square(move.origin)
        d = grid.square(move.dest) if move.dest else None
        t = grid.square(move.target) if move.target else None
    except NotationError as exc:
        return str(exc)
    pid = state.board[o]
    if not pid:
        return f"there is no piece on {move.origin}"
    if state.owner[pid] != state.to_move:
        return f"the piece on {move.origin} is {variant.players[state.owner[pid]]}'s and it is {state.player}'s turn"
    ptype = state.type_of(pid)
    name = ptype.name
    if move.kind != MOVE:
        why = _rule_sections_explain(state, move)
        if why:
            return why
        kinds = {a.get("kind") if isinstance(a, dict) else a for a in ptype.actions}
        verb = {"handover": "hand over a Flag"}.get(move.kind, move.kind)
        if move.kind not in kinds:
            return f"a {name} cannot {verb}"
        return f"the {name} on {move.origin} cannot {verb} here"
    kind = ptype.movement.kind
    if kind == IMMOBILE:
        return f"a {name} never moves"
    if t is not None and (move.is_onto or ptype.attack_mode == ONTO):
        why = _explain_onto(state, move, ptype, t)
        if why:
            return why
    if d == o:
        return "a piece must move to another square"
    df, dr = abs(o % grid.files - d % grid.files), abs(o // grid.files - d // grid.files)
    if kind == DIAGONAL and not (df == 1 and dr == 1):
        return f"a {name} moves one square diagonally only"
    if kind != DIAGONAL and df and dr:
        return f"a {name} cannot move diagonally"
    distance = df + dr
    if kind == JUMP and distance != ptype.movement.distance:
        return f"a {name} always moves exactly {ptype.movement.distance} squares in a straight line"
    if kind not in (SLIDE, JUMP) and distance > 1 and kind != DIAGONAL:
        return f"a {name} moves one square at a time"
    if state.board[d] and not move.is_onto:
        return f"{move.dest} is occupied"
    kind_d = variant.kind_of(d)
    if not kind_d.passable:
        return f"no piece may enter the {kind_d.name} on {move.dest}"
    if ptype.confined_to and d not in variant.zone(ptype.confined_to, state.player):
        return f"a {name} may not leave its {ptype.confined_to.replace('-', ' ')}"
    if kind == SLIDE and distance > 1:
        step = 1 if (d - o) > 0 else -1
        stride = 1 if dr == 0 else grid.files
        sq = o
        while sq != d:
            nxt = sq + step * stride
            if grid.wall_between(sq, nxt):
                return f"a wall blocks the way from {grid.name(sq)} to {grid.name(nxt)}"
            if nxt != d and state.board[nxt]:
                return f"the way to {move.dest} is blocked at {grid.name(nxt)}"
            if not variant.kind_of(nxt).passable:
                return f"the way to {move.dest} crosses the {variant.kind_of(nxt).name} at {grid.name(nxt)}"
            sq = nxt
        if ptype.movement.long_needs_attack and t is None:
            return f"a {name} may move more than one square only when it then attacks"
    if (kind in (DIAGONAL,) or distance == 1) and grid.wall_between(o, d):
        return f"a wall blocks the way from {move.origin} to {move.dest}"
    if t is not None and not move.is_onto:
        why = _explain_target(state, move, ptype, t)
        if why:
            return why
        around = grid.diag[d] if ptype.attack == "diagonal" else grid.orth[d]
        if t not in around:
            pattern = "diagonally" if ptype.attack == "diagonal" else "orthogonally"
            return f"{move.target} is not {pattern} adjacent to {move.dest}" + (
                " across no wall" if grid.walls else "")
        if kind == SLIDE and ptype.slide_attack == IN_LINE and t != _next_in_line(grid, o, d):
            return f"a {name} attacks only straight ahead, in the line of its run"
        if kind == SLIDE and ptype.slide_attack == "none" and distance > 1:
            return f"a {name} attacks only after a move of one square"
        wins = variant.win_arrive[state.to_move].get(d)
        if wins and state._arrival_wins(pid, o, d, wins):
            return f"moving to {move.dest} wins the game, and a winning move cannot carry an attack"
    elif variant.compulsory_attack:
        return f"attacking is compulsory: the {name} must attack from {move.dest}"
    limit = variant.repetition.two_square
    shuttle = state.shuttle[state.to_move]
    if limit and t is None and shuttle[3] >= limit and shuttle[0] == pid and (shuttle[2], shuttle[1]) == (o, d):
        return (f"the {name} has moved between {move.dest} and {move.origin} {limit} times in a row "
                "(two-square rule)")
    why = _rule_sections_explain(state, move)
    if why:
        return why
    return f"{move} is not a legal move of the {name} in this position (a variant rule forbids it)"


def _next_in_line(grid, o: int, d: int) -> int | None:
    """The square after ``d`` on the straight line from ``o`` through ``d`` (None off the board)."""
    df = (d % grid.files > o % grid.files) - (d % grid.files < o % grid.files)
    dr = (d // grid.files > o // grid.files) - (d // grid.files < o // grid.files)
    return grid.offset(d, df, dr)


def _explain_target(state, move: Move, ptype, t: int) -> str | None:
    """Why the attacked square holds nothing this piece may attack (or None)."""
    if not ptype.can_attack:
        return f"a {ptype.name} never attacks"
    target = state.board[t]
    if not target:
        return f"there is no piece on {move.target} to attack"
    if state.owner[target] == state.to_move:
        return f"the piece on {move.target} is your own"
    return None


def _explain_onto(state, move: Move, ptype, t: int) -> str | None:
    """Why an attack written for the wrong attack mode, or onto a square the piece cannot reach, is refused."""
    name = ptype.name
    if ptype.attack_mode != ONTO:
        return f"a {name} attacks after moving, from its new square: write it like e4-e5xe6"
    if not move.is_onto:
        return f"a {name} attacks by moving onto the enemy's square: write it like e4xe5"
    why = _explain_target(state, move, ptype, t)
    if why:
        return why
    grid = state.grid
    o = grid.square(move.origin)
    if ptype.movement.kind == SLIDE and grid.manhattan(o, t) > 1:
        if ptype.slide_attack != IN_LINE:
            return f"a {name} attacks only a piece next to it"
        if (o % grid.files != t % grid.files) and (o // grid.files != t // grid.files):
            return f"a {name} attacks only in a straight line"
    return None


def _rule_sections_explain(state, move: Move) -> str | None:
    """The first reason a data-declared core rule section (effects, flags) gives for refusing ``move``."""
    for section in state.variant.rules.values():
        why = section.explain(state, move)
        if why:
            return why
    return None
