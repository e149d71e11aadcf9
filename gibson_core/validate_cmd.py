"""``gibson validate FILE.yaml...``: check variant files and report every problem, each with its file,
key path and line, or a one-line summary of each valid variant."""

from __future__ import annotations

from .errors import GibsonError, VariantError, short_path
from .variant import load_variant_file


def validate_files(paths: list[str]) -> tuple[list[str], int]:
    """Lines to print for each file, and how many files have problems."""
    lines: list[str] = []
    bad = 0
    for path in paths:
        name = short_path(path)
        try:
            variant = load_variant_file(path)
        except VariantError as exc:
            bad += 1
            lines.extend(str(problem) for problem in exc.problems)
            lines.append(f"{name}: {len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''}")
            continue
        except GibsonError as exc:  # a parent's plugin or an option's hooks that fail: this file only
            bad += 1
            lines.append(f"{name}: {exc}")
            continue
        lines.append(f"{name}: ok: {variant.summary()}")
    return lines, bad


def cmd_validate(args) -> int:
    lines, bad = validate_files(args.files)
    print("\n".join(lines))
    return 1 if bad else 0


def add_commands(subparsers) -> None:
    """Add ``gibson validate`` to the command line."""
    p = subparsers.add_parser("validate", help="check variant YAML files and list every problem")
    p.add_argument("files", nargs="+", metavar="FILE.yaml")
    p.set_defaults(func=cmd_validate)
