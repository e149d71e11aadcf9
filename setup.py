"""The optional C kernel of the fast path (docs/fastpath.md). Everything else is configured in pyproject.toml.

``optional=True``: on a machine without a C compiler the build of the extension fails quietly, the package
installs without it and Gibson runs on the Python engine (``gibson bench`` says which engine it measured)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("gibson_core._kernel", ["gibson_core/_kernel.c"], optional=True,
                             extra_compile_args=["-O2"])])
