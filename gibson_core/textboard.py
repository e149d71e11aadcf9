"""A plain-text board for terminals: what one player sees (or everything, for ``REVEAL_ALL``)."""

from __future__ import annotations

from .events import REVEAL_ALL


def render_text(state, viewer=REVEAL_ALL) -> str:
    """The board as text, rank 1 at the bottom. Own and revealed pieces show their id (lower case for the
    second player); hidden enemy pieces show ``?``; terrain shows as its first letter in lower case dots."""
    variant, grid = state.variant, state.grid
    width = max(4, max(len(t.id) for t in variant.types) + 1)
    lines = []
    for rank in range(grid.ranks - 1, -1, -1):
        cells = []
        for f in range(grid.files):
            sq = rank * grid.files + f
            pid = state.board[sq]
            if pid:
                owner = variant.players[state.owner[pid]]
                visible = viewer is REVEAL_ALL or viewer == owner or state.revealed[pid]
                text = variant.types[state.ptype[pid]].id if visible else "?"
                text = text.upper() if state.owner[pid] == 0 else text.lower()
            else:
                text = "." if variant.cell_kind[sq] == variant.data["board"]["default"] else variant.cell_kind[sq][0] * 1
            cells.append(f"{text:>{width}}")
        lines.append(f"{rank + 1:>3} " + "".join(cells))
    lines.append("    " + "".join(f"{chr(97 + f):>{width}}" for f in range(grid.files)))
    lines.append(f"{variant.players[0]}: upper case, {variant.players[1]}: lower case; ? = hidden")
    return "\n".join(lines)
