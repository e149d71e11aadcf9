"""Where the front end keeps a player's named set-ups and saved games: ``~/.gibson`` (or ``$GIBSON_HOME``)."""

from __future__ import annotations

import os
import re
from pathlib import Path


def home() -> Path:
    """The user directory (created on demand)."""
    return Path(os.environ.get("GIBSON_HOME") or Path.home() / ".gibson")


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip()).strip("-") or "unnamed"


def setup_path(variant: str, name: str) -> Path:
    """The file of a named set-up of a variant."""
    folder = home() / "setups" / variant
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{_safe(name)}.yaml"


def setup_names(variant: str) -> list[str]:
    """Saved set-up names of a variant, sorted."""
    folder = home() / "setups" / variant
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def game_path(name: str) -> Path:
    """The file of a named saved game."""
    folder = home() / "games"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{_safe(name)}.json"


def game_names() -> list[str]:
    """Saved game names, newest first."""
    folder = home() / "games"
    if not folder.is_dir():
        return []
    return [p.stem for p in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)]
