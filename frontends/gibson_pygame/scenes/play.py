"""The play screen: click a piece, its legal destinations light up; choose one, then an enemy to attack
or "No attack"; actions (illuminate, fire, hand-over) are chosen the same way. Attacks are shown as a short
reveal of both pieces with the result in words. The computer thinks in the background; in a hot-seat
game a hand-over screen hides the board between turns.
"""

from __future__ import annotations

import pygame

from gibson_core import GibsonError
from gibson_core.moves import ILLUMINATE, MOVE

from .. import storage, theme
from ..board import draw_piece
from ..hints import hint_worker
from ..narrate import clashes, describe, notable
from ..rules import RulesDialog
from ..valuetable import ValueTableDialog
from ..widgets import Button, NameDialog, PickDialog
from .handover import HandoverScene
from .position import PositionScene

BANNER_SECONDS = 2.5


class Banner:
    """A short reveal of what a ply did: the clashing pieces and the reasons in words."""

    def __init__(self, lines: list[str], fights: list, seconds: float = BANNER_SECONDS):
        self.lines, self.fights, self.left = lines, fights, seconds
        self.icons: list[tuple[pygame.Rect, str | None]] = []  # where the last draw put each piece

    def draw(self, surface: pygame.Surface, variant, area: pygame.Rect) -> None:
        """Draw over the middle of ``area``."""
        h = 60 + 90 * len(self.fights[:2]) + 24 * len(self.lines)
        box = pygame.Rect(0, 0, min(area.width - 20, 640), h)
        box.center = area.center
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=12)
        pygame.draw.rect(surface, theme.ACCENT, box, 2, border_radius=12)
        y = box.top + 16
        self.icons = []
        for fight in self.fights[:2]:
            for k, (owner, tid) in enumerate((fight.attacker, fight.defender)):
                r = pygame.Rect(0, 0, 72, 72)
                r.center = (box.centerx + (-90 if k == 0 else 90), y + 38)
                piece_owner = owner if owner in variant.players else variant.players[0]
                draw_piece(surface, variant, r, None, piece_owner, type_id=tid)  # its back when unknown
                self.icons.append((r, tid))
            theme.blit_text(surface, "vs", (box.centerx, y + 38), 30, theme.ACCENT, True, anchor="center")
            y += 90
        for line in self.lines:
            theme.blit_fit(surface, line, (box.centerx, y + 10), 20, box.width - 24)
            y += 24
        theme.blit_text(surface, "click to continue", (box.centerx, box.bottom - 14), 16, theme.TEXT_DIM,
                        anchor="center")


class PlayScene(PositionScene):
    """Playing a session from one human's seat."""

    @classmethod
    def begin(cls, app, session) -> None:
        """Open the play screen for a session (after a hand-over in a hot-seat game)."""
        previous = getattr(app, "session", None)
        if previous is not None and previous is not session:
            previous.close()
        app.session = session
        humans = session.humans
        viewer = session.to_move if session.to_move in humans else humans[0]
        scene = cls(app, session, viewer)
        if len(humans) > 1:
            app.switch(HandoverScene(app, viewer, session.players, lambda: app.switch(scene)))
        else:
            app.switch(scene)

    def __init__(self, app, session, viewer: str):
        super().__init__(app, session, viewer)
        self.seen = {p: session.ply for p in session.players}
        self.banner: Banner | None = None
        self.pending_handover = False
        self.origin: str | None = None
        self.dest: str | None = None
        self.message = ""
        self.thinking_time = 0.0
        self.press: str | None = None  # where the mouse went down on a movable piece
        self.hint = None  # the last Hint asked for (key H), shown while it is for the current position
        self.hints = None  # its worker, made on first use
        self.commands_bottom = 78 + 2 * 40  # below the command buttons (set by resize)
        self.note = ""  # a rule explained where a click did nothing (attack after moving)

    # -- selection ---------------------------------------------------------------------------------
    @property
    def my_turn(self) -> bool:
        """True when the viewer may move now."""
        return bool(self.obs.legal_moves) and self.obs.to_move == self.viewer and self.banner is None \
            and not self.pending_handover

    def moves_from(self, origin: str) -> list:
        """Legal moves and actions of the piece on ``origin``."""
        return [m for m in self.obs.legal_moves if m.origin == origin]

    def choices(self) -> dict[str, set[str]]:
        """Highlighted squares by role: ``dest`` (moves), ``attack`` (enemies to move onto, or after choosing
        a destination the enemies to attack from there), ``action`` (fire or hand-over targets)."""
        out = {"dest": set(), "attack": set(), "action": set()}
        if self.origin is None:
            return out
        for m in self.moves_from(self.origin):
            if self.dest is None:
                if m.is_onto:
                    out["attack"].add(m.target)
                elif m.kind == MOVE:
                    out["dest"].add(m.dest)
                elif m.target:
                    out["action"].add(m.target)
            elif m.kind == MOVE and m.dest == self.dest and m.target:
                out["attack"].add(m.target)
        return out

    def select(self, origin: str | None, dest: str | None = None) -> None:
        """Set the selection and the buttons that go with it."""
        self.origin, self.dest = origin, dest
        self.resize(self.size)

    def click_square(self, square: str) -> None:
        """The whole click logic of the board."""
        if not self.my_turn:
            return
        self.message = self.note = ""
        ch = self.choices()
        if self.dest is not None:
            if square in ch["attack"]:
                self.play_first(lambda m: m.kind == MOVE and m.dest == self.dest and m.target == square)
            elif square == self.dest:
                self.no_attack()
            else:
                self.select(None)
                self.click_square(square)
            return
        if self.origin is not None:
            if square in ch["attack"]:  # an attack onto the enemy's square: one click on the enemy
                self.play_first(lambda m: m.is_onto and m.target == square)
                return
            if square in ch["dest"]:
                self.choose_dest(square)
                return
            if square in ch["action"]:
                self.play_first(lambda m: m.kind != MOVE and m.target == square)
                return
        if square != self.origin and self.moves_from(square):
            self.select(square)
        else:
            self.note = self.attack_rule_note(square)
            self.select(None)

    def attack_rule_note(self, square: str) -> str:
        """Why clicking ``square`` does nothing when it holds an enemy piece next to one of ours, or next to
        the selected piece: in this family a piece attacks after moving, from its new square."""
        piece = self.obs.piece_at(square)
        if piece is None or piece.owner == self.viewer:
            return ""
        grid = self.variant.grid
        sq = grid.index[square]
        near = {grid.names[n] for n in (*grid.orth[sq], *grid.diag[sq])}
        if self.origin is not None and self.origin in near:
            mine = self.obs.piece_at(self.origin)
            name = self.variant.type_of(mine.type).name if mine and mine.type else "piece"
            return (f"The {name} cannot attack from where it stands: move it first, then attack from its new "
                    "square.")
        if any((p := self.obs.piece_at(s)) is not None and p.owner == self.viewer for s in near):
            return ("A piece attacks after moving: click your piece, choose a square next to the enemy, then "
                    "attack from there.")
        return ""

    def choose_dest(self, square: str) -> None:
        """A destination chosen: move at once, or offer the attacks from there."""
        options = [m for m in self.moves_from(self.origin) if m.kind == MOVE and m.dest == square]
        if all(m.target is None for m in options):
            self.play(options[0])
        else:
            self.select(self.origin, square)

    def no_attack(self) -> None:
        """Move to the chosen destination without attacking."""
        self.play_first(lambda m: m.kind == MOVE and m.dest == self.dest and m.target is None)

    def act(self, kind: str) -> None:
        """Play the action of ``kind`` that needs no target (illuminate)."""
        self.play_first(lambda m: m.kind == kind and m.target is None)

    def play_first(self, test) -> None:
        """Play the first legal move of the selected piece that passes ``test``."""
        for m in self.moves_from(self.origin):
            if test(m):
                self.play(m)
                return

    def play(self, move) -> None:
        """Make a move for the viewer."""
        try:
            self.session.play(move)
        except (GibsonError, ValueError) as exc:
            self.message = str(exc)
            return
        self.message = ""
        self.select(None)
        self.after_move(human=True)

    def after_move(self, human: bool) -> None:
        """Refresh the view, show what happened and hand over in a hot-seat game."""
        self.refresh()
        self.show_news()
        if human and len(self.session.humans) > 1 and self.session.result() is None:
            self.pending_handover = True

    def show_news(self) -> None:
        """Open a reveal banner for the plies the viewer has not seen yet, when something happened."""
        start = self.seen.get(self.viewer, 0)
        fresh = self.obs.events[start:]
        self.seen[self.viewer] = len(self.obs.events)
        if not any(notable(evs) for evs in fresh):
            return
        fights = [clash for evs in fresh for clash in clashes(evs, self.variant.players)]
        lines = [text for evs in fresh for e in evs if (text := describe(e, self.variant))]
        self.banner = Banner(lines[-6:], fights)

    # -- commands ----------------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back (to the human's last turn against the computer)."""
        if not self.session.undo():
            self.message = "nothing to undo"
            return
        self.banner = None
        self.pending_handover = False
        self.select(None)
        self.seen = {p: self.session.ply for p in self.session.players}
        if len(self.session.humans) > 1 and self.session.to_move != self.viewer:
            self.handover()
        else:
            self.refresh()

    def save(self) -> None:
        """Save the game record under a name."""
        def done(name: str) -> None:
            try:
                self.session.save(storage.game_path(name))
                self.message = f"game saved as {name}"
            except (GibsonError, OSError) as exc:
                self.message = str(exc)
        self.open_modal(NameDialog("Save game as", f"{self.variant.name}-{self.session.ply}", done))

    def load(self) -> None:
        """Load a saved game (it continues with the same opponent)."""
        from ..session import Session

        def pick(name: str) -> None:
            try:
                session = Session.load(storage.game_path(name), self.session.config, self.app.sync_ai,
                                       self.app.ai_process)
            except (GibsonError, OSError) as exc:
                self.message = str(exc)
                return
            PlayScene.begin(self.app, session)
        self.open_modal(PickDialog("Load a game", storage.game_names(), pick))

    def resign(self) -> None:
        """Give up the game."""
        self.session.resign(self.viewer)
        self.game_over()

    def show_table(self) -> None:
        """The value table overlay."""
        self.open_modal(ValueTableDialog(self.variant))

    def show_rules(self) -> None:
        """The rules of the variant (F1)."""
        self.open_modal(RulesDialog(self.variant))

    def ask_hint(self) -> None:
        """Ask the computer for the viewer's best move and its beliefs (H), from the viewer's view only."""
        if not self.my_turn:
            self.message = "a hint is for your own turn"
            return
        if self.hints is None:
            self.hints = hint_worker(self.app.sync_ai)
        self.hint = None
        self.message = "thinking of a hint..."
        self.hints.start(self.session.observation(self.viewer))

    def on_exit(self) -> None:
        """Stop the hint worker's thread (it starts again on the next H)."""
        if self.hints is not None:
            self.hints.close()

    def current_hint(self):
        """The hint for the position on screen, else None."""
        h = self.hint
        return h if h is not None and h.player == self.viewer and h.ply == self.obs.ply and self.my_turn else None

    def hint_text(self) -> str:
        """The hint in words: the best move first, then the runners-up."""
        h = self.current_hint()
        if h is None or not h.moves:
            return ""
        best, *rest = [str(m) for m, _score in h.moves]
        return f"Hint: {best}" + (f"  (else {', '.join(rest)})" if rest else "")

    def menu(self) -> None:
        """Back to the launcher."""
        from .launcher import LauncherScene

        if self.session.worker is not None:
            self.session.worker.cancel()
        self.app.switch(LauncherScene(self.app, self.session.config))

    def handover(self) -> None:
        """Hide the board and pass the screen to the side to move."""
        self.pending_handover = False
        nxt = self.session.to_move

        def ready() -> None:
            self.set_viewer(nxt)
            self.app.switch(self)
            self.show_news()
        self.app.switch(HandoverScene(self.app, nxt, self.session.players, ready))

    def game_over(self) -> None:
        """The full reveal."""
        from .gameover import GameOverScene

        self.app.switch(GameOverScene(self.app, self.session, self.viewer))

    # -- frame -------------------------------------------------------------------------------------
    def resize(self, size) -> None:
        super().resize(size)
        p = self.panel
        bw = (p.width - 36) // 3
        specs = self.commands()
        self.buttons = []
        for i, (label, action, key) in enumerate(specs):
            b = Button(label, action, key=key)
            b.rect = pygame.Rect(p.left + 12 + (i % 3) * (bw + 6), 78 + (i // 3) * 40, bw, 34)
            self.buttons.append(b)
        self.commands_bottom = 78 + (len(specs) + 2) // 3 * 40
        y = self.commands_bottom + 44  # room for two lines of status
        extra = []
        if self.dest is not None and any(m.kind == MOVE and m.dest == self.dest and m.target is None
                                         for m in self.moves_from(self.origin)):
            extra.append(Button("No attack", self.no_attack, key=pygame.K_n))
        if self.origin is not None and self.dest is None:
            for kind in sorted({m.kind for m in self.moves_from(self.origin) if m.kind == ILLUMINATE}):
                extra.append(Button(kind.capitalize(), lambda k=kind: self.act(k)))
        if self.origin is not None:
            extra.append(Button("Cancel", lambda: self.select(None), key=pygame.K_ESCAPE))
        for i, b in enumerate(extra):
            b.rect = pygame.Rect(p.left + 12 + i * (bw + 6), y, bw, 34)
            self.buttons.append(b)
        self.buttons_bottom = y + 44

    def commands(self) -> list:
        """The panel's command buttons: (label, action, key)."""
        return [("Undo", self.undo, pygame.K_u), ("Save", self.save, None), ("Load", self.load, None),
                ("Table (T)", self.show_table, pygame.K_t), ("Rules (F1)", self.show_rules, pygame.K_F1),
                ("Hint (H)", self.ask_hint, pygame.K_h), ("Resign", self.resign, None), ("Menu", self.menu, None)]

    def handle_event(self, event) -> None:
        super().handle_event(event)
        if self.banner is not None:
            if event.type == pygame.MOUSEBUTTONUP or (event.type == pygame.KEYDOWN and event.key in
                                                      (pygame.K_SPACE, pygame.K_RETURN)):
                self.banner.left = 0
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            square = self._square_name(event.pos)
            movable = self.my_turn and self.dest is None and square and self.moves_from(square)
            self.press = square if movable else None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            square = self._square_name(event.pos)
            press, self.press = self.press, None
            if press is not None and square is not None and square != press:  # a piece dragged and dropped
                if self.origin != press:
                    self.select(press)
                self.click_square(square)
            elif square is not None:
                self.click_square(square)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 3:
            self.select(None)

    def _square_name(self, pos) -> str | None:
        sq = self.view.square_at(pos)
        return None if sq is None else self.variant.grid.names[sq]

    def dragging(self) -> str | None:
        """The square of a piece being dragged (held and moved off its square), else None."""
        if self.press is None or not pygame.mouse.get_pressed()[0]:
            return None
        return self.press if self._square_name(pygame.mouse.get_pos()) != self.press else None

    def update(self, dt: float) -> None:
        if self.hints is not None and self.hints.asked:
            try:
                answer = self.hints.poll()
            except Exception as exc:  # a hint only: say so, never break the game
                answer, self.message = None, f"no hint ({type(exc).__name__}: {exc})"
            if answer is not None:
                self.hint = answer
                self.message = ""
        if self.session.computer_to_move():
            self.thinking_time += dt
            self.session.start_thinking()  # it thinks while a banner is still shown
        if self.banner is not None:
            self.banner.left -= dt
            if self.banner.left > 0:
                return
            self.banner = None
        if self.session.result() is not None:
            self.game_over()
            return
        if self.pending_handover:
            self.handover()
            return
        if self.session.computer_to_move():
            try:
                move = self.session.computer_move()
            except Exception as exc:  # the agent failed: say so, play on with a random legal move
                self.message = f"the computer failed ({type(exc).__name__}: {exc}); it played a random move"
                move = self.session.fallback_move()
            if move is not None:
                self.session.play(move)
                self.thinking_time = 0.0
                self.after_move(human=False)

    def draw(self, surface: pygame.Surface) -> None:
        v, view = self.variant, self.view
        dragged = self.dragging()
        self.draw_position(surface, skip=(dragged,) if dragged else ())
        ch = self.choices()
        idx = v.grid.index
        if self.origin is not None:
            view.ring(surface, [idx[self.origin]], theme.HIGHLIGHT_SELECT)
        if self.dest is not None:
            view.ring(surface, [idx[self.dest]], theme.HIGHLIGHT_SELECT)
        view.dots(surface, [idx[s] for s in ch["dest"]], theme.HIGHLIGHT_MOVE)
        view.shade(surface, [idx[s] for s in ch["attack"]], theme.HIGHLIGHT_ATTACK)
        view.shade(surface, [idx[s] for s in ch["action"]], theme.HIGHLIGHT_ACTION)
        self.draw_hint(surface)
        self._draw_panel_top(surface)
        self.draw_panel(surface, self.buttons_bottom)
        if dragged:
            rect = pygame.Rect(0, 0, view.cell, view.cell)
            rect.center = pygame.mouse.get_pos()
            draw_piece(surface, v, rect, self.obs.piece_at(dragged), self.viewer)
        if self.banner is not None:
            self.banner.draw(surface, v, view.rect)
        elif self.modal is None and not dragged:
            self.draw_hover(surface)

    def _draw_panel_top(self, surface: pygame.Surface) -> None:
        p = self.panel
        pygame.draw.rect(surface, theme.PANEL, p)
        pygame.draw.line(surface, theme.PANEL_EDGE, p.topleft, p.bottomleft, 2)
        x = p.left + 12
        theme.blit_text(surface, self.variant.title, (x, 12), 26, theme.TEXT, True)
        mover = self.obs.to_move
        col = theme.player_color(self.variant.players, mover)
        if self.my_turn:
            status = f"Your move, {mover}"
        elif self.session.computer_to_move():
            dots = "." * (1 + int(self.thinking_time * 3) % 3)
            status = f"{mover} is thinking{dots}"
        else:
            status = f"{mover} to move"
        pygame.draw.circle(surface, col, (x + 8, 52), 8)
        theme.blit_text(surface, f"{status}   (ply {self.obs.ply})", (x + 22, 52), 20, anchor="midleft")
        y = self.commands_bottom + 4
        prompt = self.message or self.note or self.hint_text() or self._prompt()
        colour = theme.BAD if self.message else (theme.ACCENT if self.note or self.current_hint() else theme.TEXT_DIM)
        theme.blit_wrapped(surface, prompt, pygame.Rect(x, y, p.width - 24, 40), 17, colour)

    def draw_hint(self, surface: pygame.Surface) -> None:
        """The hinted move (origin ringed, destination and target shaded) and the computer's likeliest guess
        on every hidden enemy piece."""
        h = self.current_hint()
        if h is None:
            return
        view, idx = self.view, self.variant.grid.index
        if h.moves:
            move = h.moves[0][0]
            view.ring(surface, [idx[move.origin]], theme.HIGHLIGHT_HINT)
            view.shade(surface, [idx[s] for s in (move.dest, move.target) if s], theme.HIGHLIGHT_HINT_AREA)
        for piece in self.obs.pieces:
            guess = h.best_guess(piece.handle) if piece.type is None and piece.owner != self.viewer else None
            if guess:
                r = view.square_rect(idx[piece.square])
                theme.blit_fit(surface, f"{guess[0]}?", (r.centerx, r.bottom - 2), max(10, r.height // 3),
                               r.width - 4, theme.HIGHLIGHT_HINT, True, anchor="midbottom")

    def _prompt(self) -> str:
        if not self.my_turn:
            return ""
        if self.dest is not None:
            return "Attack a red square, or No attack"
        if self.origin is not None:
            return "Choose a destination (dot) or a target"
        return "Click one of your pieces"
