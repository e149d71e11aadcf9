"""What the play and game-over screens share: the board seen from one side (or fully revealed) with the
side panel's move log, captured pieces and the count of enemy pieces still unaccounted for.

Everything is drawn from an :class:`Observation` (``session.observation(viewer)``), or from the full
reveal when ``viewer`` is ``REVEAL_ALL``.
"""

from __future__ import annotations

import pygame

from gibson_core import Move, NotationError
from gibson_core.events import REVEAL_ALL

from .. import theme
from ..board import BoardView, draw_piece, home_at_top
from ..widgets import ScrollList, tooltip
from .base import Scene

PANEL_WIDTH = 340
ALL = REVEAL_ALL


class PositionScene(Scene):
    """A board and a side panel for one viewer of a session."""

    def __init__(self, app, session, viewer: str):
        super().__init__(app)
        self.session = session
        self.variant = session.variant
        self.viewer = viewer
        self.view = BoardView(self.variant, flipped=home_at_top(self.variant, viewer))
        self.log = ScrollList(18)
        self.obs = None
        self.panel = pygame.Rect(0, 0, 0, 0)
        self.buttons_bottom = 0
        self.message = ""  # one line for the player under the buttons
        self.message_bad = True
        self.refresh()

    def say(self, text: str, bad: bool = True) -> None:
        """A message under the buttons (red when something went wrong)."""
        self.message, self.message_bad = text, bad

    def set_viewer(self, viewer: str) -> None:
        """Show the game as ``viewer`` sees it (hot seat)."""
        self.viewer = viewer
        self.view = BoardView(self.variant, flipped=home_at_top(self.variant, viewer))
        self.view.fit(self.board_area())
        self.refresh()

    def refresh(self) -> None:
        """Read the viewer's Observation again (after any change of the game)."""
        self.obs = self.session.full_view() if self.viewer == ALL else self.session.observation(self.viewer)
        lines = []
        players = self.variant.players
        for ply, text in enumerate(self.obs.moves):
            mover = self._mover(ply)
            lines.append((f"{ply + 1:>4}. {mover:<6} {text}", theme.mix(theme.player_color(players, mover), theme.TEXT, 0.45)))
        self.log.set_lines(lines)

    def _mover(self, ply: int) -> str:
        """Who made the move of a ply: named by its events, else counted back from the side to move."""
        events = self.obs.events[ply] if ply < len(self.obs.events) else ()
        for e in events:
            player = getattr(e, "player", None)
            if player in self.variant.players:
                return player
        back = len(self.obs.moves) - ply
        now = self.variant.players.index(self.obs.to_move)
        return self.variant.players[(now + back) % 2]

    def board_area(self) -> pygame.Rect:
        """Where the board goes."""
        w, h = self.size
        return pygame.Rect(10, 10, max(100, w - PANEL_WIDTH - 20), max(100, h - 20))

    def resize(self, size) -> None:
        super().resize(size)
        w, h = size
        self.view.fit(self.board_area())
        self.panel = pygame.Rect(w - PANEL_WIDTH, 0, PANEL_WIDTH, h)

    # -- drawing -----------------------------------------------------------------------------------
    def last_move_squares(self) -> list[int]:
        """Origin and destination of the last move (public knowledge)."""
        if not self.obs.moves:
            return []
        try:
            move = Move.parse(self.obs.moves[-1])
        except NotationError:
            return []
        idx = self.variant.grid.index
        return [idx[s] for s in (move.origin, move.dest) if s in idx]

    def draw_position(self, surface: pygame.Surface, skip=()) -> None:
        """Board, last move, pieces and tokens."""
        view = self.view
        view.draw_board(surface)
        view.shade(surface, self.last_move_squares(), theme.HIGHLIGHT_LAST)
        viewer = None if self.viewer == ALL else self.viewer
        view.draw_pieces(surface, self.obs.pieces, viewer, skip)
        view.draw_zone_labels(surface, {self.variant.grid.index[p.square] for p in self.obs.pieces})
        view.draw_tokens(surface, self.obs.tokens, self.obs.pieces)

    def draw_panel(self, surface: pygame.Surface, top: int) -> None:
        """Move log, captured pieces and unaccounted enemy types below ``top``."""
        p = self.panel
        x = p.left + 12
        width = p.width - 24
        bottom_parts = 2 * (28 + 2 * (self.LOST_ICON + 4)) + (0 if self.viewer == ALL else 130)
        log_h = max(60, p.bottom - top - bottom_parts - 40)
        theme.blit_text(surface, "Moves", (x, top), 20, theme.ACCENT)
        self.log.rect = pygame.Rect(x, top + 22, width, log_h)
        self.log.draw(surface)
        y = self.log.rect.bottom + 10
        for player in self.variant.players:
            y = self._draw_captured(surface, player, x, y, width)
        if self.viewer != ALL:
            self._draw_unaccounted(surface, x, y + 4, width)

    LOST_ICON = 30

    def _draw_captured(self, surface, player: str, x: int, y: int, width: int) -> int:
        """The pieces ``player`` has lost, one icon per kind with how many (a hidden one as its back)."""
        lost = [piece for piece in self.obs.removed if piece.owner == player]
        col = theme.player_color(self.variant.players, player)
        theme.blit_text(surface, f"{player} lost {len(lost)}", (x, y), 18, theme.mix(col, theme.TEXT, 0.4))
        groups: dict = {}
        for piece in lost:
            groups.setdefault(piece.type, []).append(piece)
        size = self.LOST_ICON
        per_row = max(1, width // (size + 4))
        viewer = None if self.viewer == ALL else self.viewer
        for i, pieces in enumerate(list(groups.values())[: per_row * 2]):
            r = pygame.Rect(x + (i % per_row) * (size + 4), y + 20 + (i // per_row) * (size + 4), size, size)
            draw_piece(surface, self.variant, r, pieces[0], viewer)
            if len(pieces) > 1:
                badge = theme.text(str(len(pieces)), 16, (255, 255, 255), True)
                box = badge.get_rect(bottomright=(r.right + 3, r.bottom + 3)).inflate(4, 0)
                pygame.draw.rect(surface, theme.WALL, box, border_radius=4)
                surface.blit(badge, badge.get_rect(center=box.center))
        return y + 20 + 2 * (size + 4) + 4

    def _draw_unaccounted(self, surface, x: int, y: int, width: int) -> None:
        left = self.obs.unaccounted(self.variant)
        theme.blit_text(surface, "Enemy pieces not yet identified", (x, y), 18, theme.ACCENT)
        y += 20
        col_w = width // 4
        for i, t in enumerate(t for t in self.variant.types if left.get(t.id)):
            cx, cy = x + (i % 4) * col_w, y + (i // 4) * 20
            if cy + 18 > self.panel.bottom:
                break
            theme.blit_text(surface, f"{t.id} {left[t.id]}", (cx, cy), 18)

    def guesses(self) -> dict:
        """What each hidden enemy piece may be, from the viewer's Observation alone (the AI package's
        ``beliefs``, when it has one); worked out once per position, on first hover."""
        key = (self.viewer, self.obs.ply, len(self.obs.moves))
        if getattr(self, "_guess_key", None) != key:
            from gibson_core import ai

            infer = getattr(ai, "beliefs", None)
            try:
                self._guesses = infer(self.obs, self.variant) if infer and self.viewer != ALL else {}
            except Exception:  # a hint only: never break the screen over it
                self._guesses = {}
            self._guess_key = key
        return self._guesses

    def draw_hover(self, surface: pygame.Surface) -> None:
        """The name of the piece under the mouse, as far as the viewer knows it."""
        sq = self.view.square_at(pygame.mouse.get_pos())
        if sq is None:
            return
        name = self.variant.grid.names[sq]
        piece = self.obs.piece_at(name)
        terrain = self.variant.kind_of(sq).name
        if piece is None:
            tooltip(surface, f"{name}: {terrain}")
            return
        if piece.type is None:
            label = f"{piece.owner} piece, hidden" + (", has moved" if piece.moved else "")
            guesses = self.guesses().get(piece.handle) or {}
            top = sorted(guesses.items(), key=lambda kv: -kv[1])[:3]
            if top:
                label += ": maybe " + ", ".join(f"{tid} {p:.0%}" for tid, p in top)
        else:
            label = self.variant.type_of(piece.type).name
            if piece.revealed and piece.owner != self.viewer and self.viewer != ALL:
                label += " (revealed)"
        tooltip(surface, f"{name}: {label}")

    def handle_event(self, event) -> None:
        self.log.handle_event(event)
