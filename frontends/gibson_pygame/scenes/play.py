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
from ..animation import Animator
from ..board import draw_piece
from ..hints import hint_worker
from ..narrate import (
    clashes,
    describe,
    error_line,
    notable,
    nothing_happens,
    quiet_fights,
    result_text,
    sound_for,
)
from ..rules import RulesDialog
from ..valuetable import ValueTableDialog
from ..widgets import Button, ConfirmDialog, NameDialog, PickDialog
from .handover import HandoverScene
from .position import PositionScene

BANNER_SECONDS = 2.5


class Banner:
    """A short reveal of what a ply did: the clashing pieces and the reasons in words."""

    def __init__(self, lines: list[str], fights: list, seconds: float = BANNER_SECONDS, clash: float = 0.0):
        self.lines, self.fights, self.left = lines, fights, seconds
        self.icons: list[tuple[pygame.Rect, str | None]] = []  # where the last draw put each piece
        self.clash = clash  # seconds of the pieces' run at each other (0: drawn at rest at once)
        self.age = 0.0

    def draw(self, surface: pygame.Surface, variant, area: pygame.Rect) -> None:
        """Draw over the middle of ``area``."""
        h = 60 + 90 * len(self.fights[:2]) + 24 * len(self.lines)
        box = pygame.Rect(0, 0, min(area.width - 20, 640), h)
        box.center = area.center
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=12)
        pygame.draw.rect(surface, theme.ACCENT, box, 2, border_radius=12)
        y = box.top + 16
        self.icons = []
        run = 1.0 if self.clash <= 0 else min(1.0, self.age / self.clash)
        gap = 90 + int(70 * (1 - run) ** 2)  # the two pieces rush together, then stand apart
        shake = int(4 * (1 - run) * ((int(self.age * 60) % 2) * 2 - 1)) if run < 1 else 0
        for fight in self.fights[:2]:
            for k, (owner, tid) in enumerate((fight.attacker, fight.defender)):
                r = pygame.Rect(0, 0, 72, 72)
                r.center = (box.centerx + (-gap if k == 0 else gap), y + 38 + (shake if k else -shake))
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


def save_game_dialog(scene, default: str) -> None:
    """Ask for a name and save ``scene.session``; the outcome (or why it failed: an unwritable folder, a
    full disk) goes to ``scene.message``, next to the button that was clicked."""
    def done(name: str) -> None:
        try:
            scene.session.save(storage.game_path(name))
            scene.say(f"game saved as {name}", bad=False)
        except (GibsonError, OSError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            scene.say(f"could not save: {reason}"[:90])
    scene.open_modal(NameDialog("Save game as", default, done))


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
        self.thinking_time = 0.0
        self.press: str | None = None  # where the mouse went down on a movable piece
        self.hint = None  # the last Hint asked for (key H), shown while it is for the current position
        self.hints = None  # its worker, made on first use
        self.commands_bottom = 78 + 2 * 40  # below the command buttons (set by resize)
        self.note = ""  # a rule explained where a click did nothing (attack after moving)
        self.anim = Animator()

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
        """Why clicking ``square`` did nothing, when the family's attack rule is the reason: an enemy piece next
        to one of ours or to the selected piece (a piece attacks after moving, from its new square), or one
        of ours beside an enemy that has no move (so it cannot attack either)."""
        piece = self.obs.piece_at(square)
        if piece is None:
            return ""
        grid = self.variant.grid
        sq = grid.index[square]
        near = {grid.names[n] for n in (*grid.orth[sq], *grid.diag[sq])}
        if piece.owner == self.viewer:
            ptype = self.variant.type_of(piece.type)
            if not ptype.mobile:
                return f"A {ptype.name} never moves, so it never attacks."
            if any((p := self.obs.piece_at(s)) is not None and p.owner != self.viewer for s in near):
                return (f"The {ptype.name} cannot attack from where it stands: a piece attacks after moving, "
                        "and it has no square to move to.")
            return ""
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
            self.session.play(move, by=self.viewer)
        except (GibsonError, ValueError) as exc:
            self.say(str(exc))
            return
        self.message = ""
        self.select(None)
        self.after_move(human=True)

    @property
    def animation_factor(self) -> float:
        """The app's animation length factor (0 without an app: screenshots)."""
        return self.app.animation_factor if self.app is not None else 0.0

    def after_move(self, human: bool) -> None:
        """Refresh the view, animate and sound what happened, show it and hand over in a hot-seat game."""
        before = self.obs
        self.refresh()
        events = self.obs.events[-1] if self.obs.events else ()
        self.anim.start(before, self.obs, events, self.variant.grid, self.animation_factor)
        if self.app is not None:
            self.app.play_sound(sound_for(events))
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
        players = self.variant.players
        fights = [clash for evs in fresh for clash in clashes(evs, players)]
        lines = []
        for evs in fresh:
            lines += [text for e in evs if (text := describe(e, self.variant))]
            lines += [nothing_happens(self.variant, clash) for clash in quiet_fights(evs, players)]
        self.banner = Banner(list(dict.fromkeys(lines))[-6:], fights,  # the same text never twice
                             clash=0.3 * self.animation_factor)

    # -- commands ----------------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back to the viewer's previous turn: against the computer when no hidden piece of the computer
        was shown since (the button says why not); in a hot-seat game once the other player agrees."""
        plies, why = self.session.undo_plan(self.viewer)
        if not plies or why:
            self.say(why)
            return
        if len(self.session.humans) > 1:
            self.ask_consent(plies)
            return
        self.session.undo(self.viewer)
        self.after_undo()

    def after_undo(self) -> None:
        """Forget the selection and the news of the plies taken back, and show the position again."""
        self.banner = None
        self.anim.clear()
        self.pending_handover = False
        self.select(None)
        self.seen = {p: self.session.ply for p in self.session.players}
        self.refresh()

    def ask_consent(self, plies: int) -> None:
        """Hot seat: pass the screen to the other player, who allows or refuses the undo."""
        from .handover import ConsentScene

        asker = self.viewer
        other = self.session.players[1 - self.session.players.index(asker)]
        moves = ", ".join(self.obs.moves[-plies:])
        question = f"{asker} asks to take back {plies} move{'s' if plies > 1 else ''} ({moves})"

        def answer(allowed: bool) -> None:
            if allowed and self.session.undo(asker):
                self.after_undo()
                self.say(f"{other} agreed to take back {moves}", bad=False)
            else:
                self.say(f"{other} refused to take back {moves}")
            self.app.switch(HandoverScene(self.app, asker, self.session.players, lambda: self.app.switch(self),
                                          note=self.message))
        self.app.switch(ConsentScene(self.app, other, self.session.players, question, answer))

    def save(self) -> None:
        """Save the game under a name."""
        save_game_dialog(self, f"{self.variant.name}-{self.session.ply}")

    def load(self) -> None:
        """Load a saved game (it continues with the same opponent)."""
        from ..session import Session

        def pick(name: str) -> None:
            path = storage.game_path(name)
            try:
                session = Session.load(path, self.session.config, self.app.sync_ai, self.app.ai_process)
            except (GibsonError, OSError) as exc:
                self.say(f"cannot load {name}: {error_line(exc, path)}")
                return
            self.leave(lambda: PlayScene.begin(self.app, session), session.close)
        self.open_modal(PickDialog("Load a game", storage.game_names(), pick))

    def leave(self, go, stay=None) -> None:
        """Leave this game for ``go`` once the player confirms (at once when it is over or just saved)."""
        if self.session.result() is not None or self.session.saved_ply == self.session.ply:
            go()
            return
        self.open_modal(ConfirmDialog("Leave this game?", "The moves since it was last saved will be lost.", go,
                                      yes="Leave", no="Stay", on_no=stay))

    def confirm_quit(self) -> bool:
        """Closing the window in the middle of an unsaved game: ask first (True when a question is open)."""
        if self.modal is not None or self.session.result() is not None or self.session.saved_ply == self.session.ply:
            return False
        self.leave(lambda: setattr(self.app, "running", False))
        return True

    def resign(self) -> None:
        """Give up the game, once the player confirms."""
        def really() -> None:
            self.session.resign(self.viewer)
            self.game_over()
        self.open_modal(ConfirmDialog("Resign?", f"{self.viewer} gives up the game; it cannot be taken back.",
                                      really, yes="Resign", no="Play on"))

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

        def go() -> None:
            if self.session.worker is not None:
                self.session.worker.cancel()
            self.app.switch(LauncherScene(self.app, self.session.config))
        self.leave(go)

    def handover(self) -> None:
        """Hide the board and pass the screen to the side to move."""
        self.pending_handover = False
        nxt = self.session.to_move

        def ready() -> None:
            self.anim.clear()
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
        # the Undo button, when this screen's commands have one (a lesson's have Retry instead)
        self.undo_button = next((b for b in self.buttons if b.action == self.undo), None)
        self._undo_key = None
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

    def update_undo_button(self) -> None:
        """Undo is enabled only when it may be done; when not, hovering it says why (worked out once a ply)."""
        key = (self.session.ply, self.viewer)
        if self.undo_button is not None and key != self._undo_key:
            self._undo_key = key
            plies, why = self.session.undo_plan(self.viewer)
            self.undo_button.enabled = bool(plies) and not why
            self.undo_button.reason = why

    def banner_showing(self, dt: float) -> bool:
        """Age the reveal banner by ``dt``; True while it is still shown (the game waits for it)."""
        if self.banner is None:
            return False
        self.banner.left -= dt
        self.banner.age += dt
        if self.banner.left > 0:
            return True
        self.banner = None
        return False

    def update(self, dt: float) -> None:
        self.anim.update(dt)
        self.update_undo_button()
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
        if self.banner_showing(dt):
            return
        if self.session.result() is not None:
            self.game_over()
            return
        if self.pending_handover:
            self.handover()
            return
        if self.session.computer_to_move():
            try:
                move = self.session.computer_move()
            except Exception as exc:  # the agent failed for good: say so, play on with a random legal move
                self.say(f"The computer could not choose a move ({str(exc)[:60] or type(exc).__name__}), "
                         "so it played a random one.")
                move = self.session.fallback_move()
            notice = self.session.worker_notice()
            if notice:
                self.say(notice)
            if move is not None:
                self.session.play(move, by=self.session.to_move)  # the computer's side, from its own view
                self.thinking_time = 0.0
                self.after_move(human=False)

    def draw(self, surface: pygame.Surface) -> None:
        v, view = self.variant, self.view
        dragged = self.dragging()
        moving = self.anim.sliding_squares(v.grid)
        self.draw_position(surface, skip=moving | ({dragged} if dragged else set()))
        if self.anim.busy:
            viewer = self.viewer

            def piece(target, rect, p):
                draw_piece(target, v, rect, p, viewer)
            self.anim.draw_slides(surface, view, self.obs.pieces, piece)
            self.anim.draw_flashes(surface, view)
        ch = self.choices()
        idx = v.grid.index
        if self.origin is not None:
            view.ring(surface, [idx[self.origin]], theme.HIGHLIGHT_SELECT)
        if self.dest is not None:
            view.ring(surface, [idx[self.dest]], theme.HIGHLIGHT_SELECT)
        view.dots(surface, [idx[s] for s in ch["dest"]], theme.HIGHLIGHT_MOVE)
        view.shade(surface, [idx[s] for s in ch["attack"]], theme.HIGHLIGHT_ATTACK)
        view.crosshairs(surface, [idx[s] for s in ch["attack"]], theme.TEXT)
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
        status = self.status_text()
        if self.session.result() is not None:
            col = theme.ACCENT
        pygame.draw.circle(surface, col, (x + 8, 52), 8)
        theme.blit_fit(surface, f"{status}   (ply {self.obs.ply})", (x + 22, 52), 20, p.width - 40, anchor="midleft")
        y = self.commands_bottom + 4
        prompt = self.message or self.note or self.hint_text() or self._prompt()
        if self.message:
            colour = theme.BAD if self.message_bad else theme.TEXT_DIM
        else:
            colour = theme.ACCENT if self.note or self.current_hint() else theme.TEXT_DIM
        theme.blit_wrapped(surface, prompt, pygame.Rect(x, y, p.width - 24, 40), 17, colour)

    def status_text(self) -> str:
        """Whose turn it is, who is thinking, or that the game is over (and how)."""
        result = self.session.result()
        mover = self.obs.to_move
        if result is not None:
            return f"Game over: {result_text(*result)}"
        if self.my_turn:
            return f"Your move, {mover}"
        if self.session.computer_to_move():
            return f"{mover} is thinking" + "." * (1 + int(self.thinking_time * 3) % 3)
        return f"{mover} to move"

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
            return "Attack a marked square, or No attack"
        if self.origin is not None:
            return "Choose a destination (dot) or a target"
        return "Click one of your pieces"
