"""Shared test set-up: headless SDL, and where the conformance vectors live."""

import importlib
import os
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[1]
OWN_VECTORS = ROOT / "tests" / "vectors"
TUTORIAL = ROOT / "docs" / "tutorial"
DATA_VARIANTS = ROOT / "tests" / "data_variants"
# outside variant packages the generic per-variant tests also run on: (folder, package, variant names)
OUTSIDE_PACKAGES = ((TUTORIAL, "gibson_forty", ("forty",)), (DATA_VARIANTS, "gibson_skirmish", ("skirmish",)))
#: The public conformance set, copied into the repository so that a bare clone tests itself.
CONFORMANCE_VECTORS = OWN_VECTORS / "conformance"
#: Where the steering repository's originals lie when it is checked out beside this one (as in CI).
SHARED = ROOT.parent / "shared"


@contextmanager
def registered(folder: Path, package: str):
    """Import ``package`` from ``folder`` and register it like an installed variant plugin for the duration
    (then unregister it and forget the variants it listed)."""
    from gibson_core import plugins

    sys.path.insert(0, str(folder))
    saved = plugins._SPECS
    module = importlib.import_module(package)
    plugins.register_plugin(module, f"{package}-under-test")
    try:
        yield module
    finally:
        plugins.plugin_manager().unregister(module)
        plugins._SPECS = saved
        sys.path.remove(str(folder))


@contextmanager
def outside_variants():
    """Every package of ``OUTSIDE_PACKAGES`` registered for the duration."""
    with registered(*OUTSIDE_PACKAGES[0][:2]), registered(*OUTSIDE_PACKAGES[1][:2]):
        yield


def broken_copy(tmp_path: Path, source: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of a variant file with ``old`` replaced by ``new`` (which must occur): its path and its text."""
    text = source.read_text()
    assert old in text, f"the test's edit does not apply: {old!r}"
    text = text.replace(old, new, 1)
    path = tmp_path / "broken.yaml"
    path.write_text(text)
    return path, text


def refused(tmp_path: Path, source: Path, old: str, new: str, options: dict | None = None):
    """Load a broken copy of a variant file (see ``broken_copy``): the VariantError it must raise, and the text."""
    import pytest

    from gibson_core.errors import VariantError
    from gibson_core.variant import load_variant_file

    path, text = broken_copy(tmp_path, source, old, new)
    with pytest.raises(VariantError) as err:
        load_variant_file(path, options)
    return err.value, text


def line_of(text: str, needle: str) -> int:
    """The 1-based number of the first line of ``text`` that contains ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.fixture(scope="session")
def pg_cluster():
    """One throwaway PostgreSQL cluster for the session (tests marked ``postgres``, ``make test-postgres``);
    each test makes its own database in it with ``pgcluster.fresh_database``."""
    from pgcluster import throwaway_cluster

    with throwaway_cluster() as dsn:
        yield dsn


@pytest.fixture
def driver(tmp_path, monkeypatch):
    """A headless window driven by real events (``gibson_pygame.testing.UIDriver``), with its own Gibson
    folder (settings, saves, keys) in the test's temporary folder."""
    from gibson_pygame.testing import UIDriver

    monkeypatch.setenv("GIBSON_HOME", str(tmp_path))
    return UIDriver()
