"""The optional C kernel of the fast path (docs/fastpath.md). Everything else is configured in pyproject.toml.

``optional=True``: on a machine without a C compiler the build of the extension fails quietly, the package
installs without it and Gibson runs on the Python engine (``gibson bench`` says which engine it measured)."""

import sys

from setuptools import Extension, setup

# no floating-point contraction (fused multiply-add): the search agent's sums must round as Python's do
FLAGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]

setup(ext_modules=[Extension("gibson_core._kernel", ["gibson_core/_kernel.c"], optional=True,
                             extra_compile_args=FLAGS)])
