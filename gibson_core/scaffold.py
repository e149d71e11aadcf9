"""``gibson new-variant NAME [--dir DIR]``: write a ready-to-install variant package.

The package holds a pyproject with the ``gibson.variants`` entry point, a commented YAML skeleton of a
small playable game, a rule-hooks module, a conformance-vector file and a test. After ``pip install -e``
the new variant is listed by ``gibson list``, passes ``gibson check`` and plays in ``gibson selfplay``.
The files are made from the templates in ``gibson_core/templates/``.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from string import Template

from .errors import GibsonError

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

# template file -> path of the generated file, itself a template of the names below
FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "__init__.py.tmpl": "${package}/__init__.py",
    "hooks.py.tmpl": "${package}/hooks.py",
    "variant.yaml.tmpl": "${package}/${name}.yaml",
    "vectors.yaml.tmpl": "tests/vectors/${name}.yaml",
    "lessons.yaml.tmpl": "${package}/lessons.yaml",
    "test_variant.py.tmpl": "tests/test_${module}.py",
}


class ScaffoldError(GibsonError, ValueError):
    """A variant name or target directory that cannot be scaffolded."""


def template_names(name: str) -> dict[str, str]:
    """The names a template may use: ``name`` (my-game), ``module`` (my_game), ``package`` (gibson_my_game),
    ``dist`` (gibson-my-game) and ``title`` (My Game)."""
    if not NAME_PATTERN.match(name):
        raise ScaffoldError(f"variant name {name!r}: use lower-case letters, digits and single hyphens, "
                            "starting with a letter (like my-game)")
    module = name.replace("-", "_")
    return {"name": name, "module": module, "package": f"gibson_{module}", "dist": f"gibson-{name}",
            "title": " ".join(part.capitalize() for part in name.split("-"))}


def render(name: str) -> dict[str, str]:
    """Every file of the new package: relative path -> text."""
    names = template_names(name)
    folder = resources.files("gibson_core") / "templates"
    return {Template(target).substitute(names): Template((folder / source).read_text("utf-8")).substitute(names)
            for source, target in FILES.items()}


def scaffold(name: str, directory: str | Path | None = None) -> Path:
    """Write the package for variant ``name`` into ``directory`` (default ``./gibson-NAME``); returns it.
    Refuses a name that is already installed and a directory that already has files in it."""
    from .plugins import variant_specs

    files = render(name)
    if name in variant_specs():
        raise ScaffoldError(f"a variant named {name!r} is already installed; two would clash")
    root = Path(directory) if directory is not None else Path(f"gibson-{name}")
    if root.exists() and any(root.iterdir()):
        raise ScaffoldError(f"{root} is not empty; choose another --dir")
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def cmd_new_variant(args) -> int:
    root = scaffold(args.name, args.dir)
    package = template_names(args.name)["package"]
    print(f"created {root}/ for variant {args.name}:")
    for path in sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file()):
        print(f"  {path}")
    print(f"next: pip install -e {root}  then  gibson list; gibson validate {root}/{package}/{args.name}.yaml; "
          f"gibson check {root}/tests/vectors/{args.name}.yaml; gibson selfplay {args.name}")
    return 0


def add_commands(subparsers) -> None:
    """Add ``gibson new-variant`` to the command line."""
    p = subparsers.add_parser("new-variant", help="scaffold an installable variant package")
    p.add_argument("name", help="the variant's name, like my-game")
    from .cliargs import output_folder

    p.add_argument("--dir", type=output_folder, help="where to write it (default ./gibson-NAME)")
    p.set_defaults(func=cmd_new_variant)
