"""Every conformance vector, the public set (copied in) and the project's own, one pytest case each."""

from pathlib import Path

import pytest
from conftest import CONFORMANCE_VECTORS, OWN_VECTORS, ROOT, SHARED

from gibson_core.check import run_case
from gibson_core.yamlfile import read_yaml

#: A copy in this repository -> its original in the steering repository's shared/ folder.
COPIES = {
    **{path: SHARED / "vectors" / path.name for path in sorted(CONFORMANCE_VECTORS.glob("*.yaml"))},
    ROOT / "docs" / "vectors.md": SHARED / "vectors" / "FORMAT.md",
    **{path: SHARED / "rules" / path.name for path in sorted((ROOT / "docs" / "rules" / "canonical").glob("*.md"))},
}


def _cases():
    files = sorted(OWN_VECTORS.glob("*.yaml")) + sorted(CONFORMANCE_VECTORS.glob("*.yaml"))
    for path in files:
        data = read_yaml(path).data
        for i, case in enumerate(data["cases"]):
            yield pytest.param(data["variant"], case, id=f"{Path(path).parent.name}/{path.stem}:{i}:{case.get('name', '')}")


@pytest.mark.parametrize(("variant", "case"), list(_cases()))
def test_vector(variant, case):
    assert run_case(variant, case) == ""


def test_the_public_set_is_in_the_repository():
    """A bare clone runs the public conformance set from its own copy: it cannot silently shrink."""
    assert {p.stem for p in CONFORMANCE_VECTORS.glob("*.yaml")} >= {"tri-tactics", "aviation", "dover-patrol", "lattaque"}


def _body(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text.split("\n", 1)[1] if text.startswith("<!-- A copy of") else text


@pytest.mark.skipif(not (SHARED / "vectors").is_dir(), reason="no steering repository's shared/ beside this clone")
def test_copies_match_shared():
    """Where shared/ lies beside the checkout (as in CI), the copies are identical to it: they cannot drift."""
    originals = {p.name for p in (SHARED / "vectors").glob("*.yaml")}
    assert originals == {p.name for p in CONFORMANCE_VECTORS.glob("*.yaml")}, "copy every shared vector file"
    for copy, original in COPIES.items():
        assert _body(copy) == original.read_text(encoding="utf-8"), f"{copy} differs from {original}"
