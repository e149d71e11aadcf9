"""Shared test set-up: headless SDL, and where the shared conformance vectors live."""

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
SHARED_VECTORS = ROOT.parent / "shared" / "vectors"
OWN_VECTORS = ROOT / "tests" / "vectors"
