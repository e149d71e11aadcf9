"""Every conformance vector, the shared ones and the project's own, one pytest case each."""

from pathlib import Path

import pytest
from conftest import OWN_VECTORS, SHARED_VECTORS

from gibson_core.check import run_case
from gibson_core.yamlfile import read_yaml


def _cases():
    files = sorted(OWN_VECTORS.glob("*.yaml")) + sorted(SHARED_VECTORS.glob("*.yaml"))
    for path in files:
        data = read_yaml(path).data
        for i, case in enumerate(data["cases"]):
            yield pytest.param(data["variant"], case, id=f"{Path(path).parent.name}/{path.stem}:{i}:{case.get('name', '')}")


@pytest.mark.parametrize(("variant", "case"), list(_cases()))
def test_vector(variant, case):
    assert run_case(variant, case) == ""


def test_shared_vectors_are_present():
    """CI lays shared/ beside the checkout; without it the conformance suite would silently shrink."""
    assert sorted(SHARED_VECTORS.glob("*.yaml")), f"no shared vectors found in {SHARED_VECTORS}"
