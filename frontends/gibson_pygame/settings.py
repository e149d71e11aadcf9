"""The player's settings, kept in the user's Gibson folder (``settings.json``): animation speed, sound and
volume, the colour palette, and the launcher's last choices (variant, opponent, level).

A missing, damaged or hand-edited file never stops the window: every field that cannot be read keeps its
default, and ``Settings.load`` says which ones in ``problems``.
"""

from __future__ import annotations

import json
import os

import attrs

from gibson_core.errors import JSON_ERRORS

from . import storage

ANIMATION = {"off": 0.0, "fast": 0.6, "normal": 1.0, "slow": 2.0}  # factor on each animation's length
PALETTES = ("standard", "colour-blind")
FILE = "settings.json"


@attrs.define
class Settings:
    """What the player chose; ``save`` writes it, ``load`` reads it back."""

    animation: str = "normal"
    sound: bool = True
    volume: int = 70  # 0..100
    palette: str = "standard"
    variant: str | None = None
    opponent: str | None = None
    level: str | None = None
    problems: list = attrs.field(factory=list, eq=False)  # fields of the file that could not be used

    @property
    def animation_factor(self) -> float:
        """How long animations last, relative to normal (0: no animation)."""
        return ANIMATION.get(self.animation, 1.0)

    @classmethod
    def load(cls) -> Settings:
        """The saved settings, or the defaults for anything missing or unreadable."""
        out = cls()
        try:
            data = json.loads((storage.home() / FILE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return out
        except (OSError, *JSON_ERRORS):
            out.problems.append("the settings file is damaged; defaults are used")
            return out
        if not isinstance(data, dict):
            out.problems.append("the settings file is damaged; defaults are used")
            return out
        checks = {"animation": lambda v: v in ANIMATION, "sound": lambda v: isinstance(v, bool),
                  "volume": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100,
                  "palette": lambda v: v in PALETTES,
                  "variant": _short_text, "opponent": _short_text, "level": _short_text}
        for name, ok in checks.items():
            if name in data:
                if ok(data[name]):
                    setattr(out, name, data[name])
                else:
                    out.problems.append(f"setting {name!r} ignored")
        return out

    def save(self) -> bool:
        """Write the settings; False when the folder cannot be written (the window goes on with them)."""
        data = attrs.asdict(self, filter=lambda a, _v: a.name != "problems")
        path = storage.home() / FILE
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".part")
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            return False
        return True


def _short_text(value) -> bool:
    return value is None or (isinstance(value, str) and 0 < len(value) <= 60)
