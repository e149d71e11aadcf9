"""Colours, fonts and cached text: the look shared by every scene."""

from __future__ import annotations

from functools import lru_cache

import pygame

BACKGROUND = pygame.Color("#1d2126")
PANEL = pygame.Color("#272c33")
PANEL_EDGE = pygame.Color("#3a414b")
TEXT = pygame.Color("#e8e6e1")
TEXT_DIM = pygame.Color("#9aa0a8")
ACCENT = pygame.Color("#f0c040")
BUTTON = pygame.Color("#3b4450")
BUTTON_HOVER = pygame.Color("#4a5564")
BUTTON_DISABLED = pygame.Color("#2e333a")
GOOD = pygame.Color("#5cb85c")
BAD = pygame.Color("#d9534f")
HIGHLIGHT_MOVE = pygame.Color(250, 240, 120, 150)
HIGHLIGHT_ATTACK = pygame.Color(235, 70, 60, 170)
HIGHLIGHT_ACTION = pygame.Color(190, 110, 240, 170)
HIGHLIGHT_SELECT = pygame.Color("#ffe45c")
HIGHLIGHT_LAST = pygame.Color(255, 255, 255, 70)
HIGHLIGHT_HINT = pygame.Color("#7fe0ff")
HIGHLIGHT_HINT_AREA = pygame.Color(127, 224, 255, 110)
OUTSIDE_ZONE = pygame.Color(15, 18, 22, 150)
WALL = pygame.Color("#1b1b1b")
PIECE_BACK = pygame.Color("#3c3f45")

_PLAYER_PALETTE = ("#2f62b8", "#b8322f", "#2f8f4f", "#8a4fb0")
_PLAYER_NAMED = {"blue": "#2f62b8", "red": "#b8322f", "green": "#2f8f4f", "white": "#d8d8d0",
                 "black": "#303030", "yellow": "#c9a227"}

# Palettes: "standard", and "colour-blind" from Okabe and Ito's set, told apart with any colour vision: the
# two sides are blue and orange instead of blue and red, and the attack highlight is vermillion.
PALETTES = {
    "standard": {"seats": _PLAYER_PALETTE, "named": dict(_PLAYER_NAMED),
                 "HIGHLIGHT_MOVE": (250, 240, 120, 150), "HIGHLIGHT_ATTACK": (235, 70, 60, 170),
                 "HIGHLIGHT_ACTION": (190, 110, 240, 170)},
    "colour-blind": {"seats": ("#0072b2", "#e69f00", "#009e73", "#cc79a7"),
                     "named": {**_PLAYER_NAMED, "blue": "#0072b2", "red": "#e69f00", "green": "#009e73",
                               "yellow": "#f0e442"},
                     "HIGHLIGHT_MOVE": (86, 180, 233, 170), "HIGHLIGHT_ATTACK": (213, 94, 0, 190),
                     "HIGHLIGHT_ACTION": (204, 121, 167, 180)},
}
palette = "standard"


def set_palette(name: str) -> None:
    """Switch every colour that tells the sides and the highlights apart (``PALETTES``)."""
    global palette, _PLAYER_PALETTE, _PLAYER_NAMED, HIGHLIGHT_MOVE, HIGHLIGHT_ATTACK, HIGHLIGHT_ACTION
    spec = PALETTES.get(name, PALETTES["standard"])
    palette = name if name in PALETTES else "standard"
    _PLAYER_PALETTE, _PLAYER_NAMED = spec["seats"], spec["named"]
    HIGHLIGHT_MOVE = pygame.Color(*spec["HIGHLIGHT_MOVE"])
    HIGHLIGHT_ATTACK = pygame.Color(*spec["HIGHLIGHT_ATTACK"])
    HIGHLIGHT_ACTION = pygame.Color(*spec["HIGHLIGHT_ACTION"])


def color(value, default: str = "#888888") -> pygame.Color:
    """A pygame Color from a data colour (``#rrggbb`` or a name); ``default`` when it cannot be read."""
    try:
        return pygame.Color(value)
    except (ValueError, TypeError):
        return pygame.Color(default)


def player_color(players: tuple, player: str) -> pygame.Color:
    """The colour of a player: its name when that is a colour, else a fixed palette by seat."""
    if player in _PLAYER_NAMED:
        return pygame.Color(_PLAYER_NAMED[player])
    try:
        return pygame.Color(player)
    except ValueError:
        seat = players.index(player) if player in players else 0
        return pygame.Color(_PLAYER_PALETTE[seat % len(_PLAYER_PALETTE)])


def readable_on(background: pygame.Color) -> pygame.Color:
    """Black or white, whichever reads better on ``background``."""
    luma = 0.299 * background.r + 0.587 * background.g + 0.114 * background.b
    return pygame.Color("#111111") if luma > 150 else pygame.Color("#ffffff")


def mix(a: pygame.Color, b: pygame.Color, t: float) -> pygame.Color:
    """``a`` blended towards ``b`` by ``t`` (0..1)."""
    return pygame.Color(a).lerp(b, max(0.0, min(1.0, t)))


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The default font at a pixel size (cached)."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, max(8, int(size)))
    f.bold = bold
    return f


@lru_cache(maxsize=4096)
def text(value: str, size: int, fg: tuple = (232, 230, 225), bold: bool = False) -> pygame.Surface:
    """A rendered line of text (cached: the same label is rendered once)."""
    return font(size, bold).render(str(value), True, fg)


def blit_text(surface: pygame.Surface, value: str, pos, size: int = 20, fg=TEXT, bold: bool = False,
              anchor: str = "topleft") -> pygame.Rect:
    """Draw a line of text with its ``anchor`` (a pygame.Rect attribute name) at ``pos``; returns its rect."""
    img = text(str(value), int(size), tuple(pygame.Color(fg)), bold)
    rect = img.get_rect(**{anchor: pos})
    surface.blit(img, rect)
    return rect


def wrap(value: str, size: int, width: int, bold: bool = False) -> list[str]:
    """``value`` broken into lines that fit ``width`` pixels at this font size."""
    f = font(size, bold)
    lines: list[str] = []
    for para in str(value).split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if f.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def blit_wrapped(surface: pygame.Surface, value: str, rect: pygame.Rect, size: int = 20, fg=TEXT,
                 line_gap: int = 2) -> int:
    """Draw wrapped text inside ``rect`` (clipped at its bottom); returns the y below the last line."""
    y = rect.top
    for line in wrap(value, size, rect.width):
        if y + size > rect.bottom:
            break
        blit_text(surface, line, (rect.left, y), size, fg)
        y += size + line_gap
    return y


def blit_fit(surface: pygame.Surface, value: str, pos, size: int, width: int, fg=TEXT, bold: bool = False,
             anchor: str = "center") -> pygame.Rect:
    """Like :func:`blit_text`, with the font made smaller until the text fits ``width`` pixels."""
    while size > 8 and font(size, bold).size(str(value))[0] > width:
        size -= 1
    return blit_text(surface, value, pos, size, fg, bold, anchor)
