"""Shared test set-up: headless SDL, and where the shared conformance vectors live."""

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
SHARED_VECTORS = ROOT.parent / "shared" / "vectors"
OWN_VECTORS = ROOT / "tests" / "vectors"


def broken_copy(tmp_path: Path, source: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of a variant file with ``old`` replaced by ``new`` (which must occur): its path and its text."""
    text = source.read_text()
    assert old in text, f"the test's edit does not apply: {old!r}"
    text = text.replace(old, new, 1)
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    return path, text
