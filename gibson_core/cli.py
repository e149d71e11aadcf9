"""The ``gibson`` command. Each subcommand is a small function; other packages (the front end, the AI
arena, the variant tools) add theirs through ``add_commands(subparsers)`` in the modules listed in
``COMMAND_MODULES``."""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from pathlib import Path

from .errors import GibsonError
from .options import check_options, parse_option_args
from .plugins import load_errors, load_variant, plugin_manager, variant_names, variant_specs

COMMAND_MODULES: tuple[str, ...] = ("gibson_core.ai.arena", "gibson_core.validate_cmd", "gibson_core.scaffold", "gibson_pygame.commands",
                                     "gibson_server.commands", "gibson_core.net.bot")


def _variant(args):
    """The variant named on the command line, with its ``--option`` arguments checked and typed."""
    return load_variant(args.variant, check_options(args.variant, parse_option_args(args.option)))


def cmd_list(args) -> int:
    for name in variant_names():
        spec = variant_specs()[name]
        try:
            v = load_variant(name)
            print(f"{name:<22} {v.title} - {v.grid.files}x{v.grid.ranks}, {v.piece_count} pieces a side")
        except GibsonError as exc:
            print(f"{name:<22} (cannot load: {exc})")
        if spec.description:
            print(f"{'':<22} {spec.description}")
    for err in load_errors():
        print(f"! {err}", file=sys.stderr)
    return 0


def cmd_rules(args) -> int:
    from .rulestext import rules_text

    variant = _variant(args)
    print(rules_text(variant))
    return 0


def cmd_check(args) -> int:
    from .check import run_files

    results = run_files(args.files)
    failed = [r for r in results if not r.passed]
    for r in failed:
        print(f"FAIL {Path(r.file).name}: {r.name}: {r.problem}")
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def cmd_selfplay(args) -> int:
    from .ai import make_agent
    from .match import play_match

    variant = _variant(args)
    record, state = play_match(variant, [make_agent(n) for n in args.agents.split(",")], seed=args.seed)
    result = state.outcome()
    print(f"{variant.name} seed {args.seed}: {result.describe()} after {state.ply} plies")
    if args.record:
        record.save(args.record)
        print(f"record saved to {args.record}")
    return 0


def cmd_replay(args) -> int:
    from .observe import viewer_from_text
    from .record import load_record
    from .textboard import render_text

    record = load_record(args.file)
    state = record.replay(args.ply)
    for ply, (move, events) in enumerate(state.history, start=1):
        if args.verbose:
            print(f"{ply:>4}. {move}  " + "; ".join(type(e).__name__ for e in events))
    print(render_text(state, viewer_from_text(state.variant, args.as_player)))
    result = state.outcome()
    print(f"{state.ply} plies; " + (f"result: {result.describe()}" if result else "game goes on"))
    return 0


def cmd_plugins(args) -> int:
    pm = plugin_manager()
    for name, plugin in pm.list_name_plugin():
        print(f"{name:<22} {getattr(plugin, '__name__', plugin)!s}")
    for name, spec in sorted(variant_specs().items()):
        print(f"  variant {name:<20} {spec.path}")
    for err in load_errors():
        print(f"! {err}")
    return 0


def cmd_bench(args) -> int:
    if args.ui:  # the front end's frame times (gibson_pygame.uibench)
        from gibson_pygame.commands import cmd_uibench

        return cmd_uibench(args)
    from .bench import format_table, measure

    names = args.variants or ["tri-tactics"]
    for name in names:
        print(format_table(name, measure(name, args.seconds, options=check_options(name, parse_option_args(args.option)))))
        print()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gibson", description="H.P. Gibson's hidden-rank war games")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="registered variants")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("rules", help="a variant's pieces and value table")
    p.add_argument("variant")
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("check", help="run conformance vector files")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("selfplay", help="play a game between two agents")
    p.add_argument("variant")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", help="save the game record (JSON) here")
    p.add_argument("--agents", default="random,random", help="two agent names, comma-separated")
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("replay", help="replay a game record and show the final position")
    p.add_argument("file")
    p.add_argument("--ply", type=int, default=None, help="stop after this many plies")
    p.add_argument("--as", dest="as_player", default="all", help="blue, red or all")
    p.add_argument("-v", "--verbose", action="store_true", help="list every move")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("plugins", help="loaded plugins and variants")
    p.set_defaults(func=cmd_plugins)

    p = sub.add_parser("bench", help="measure engine speed")
    p.add_argument("variants", nargs="*")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.add_argument("--ui", action="store_true", help="frame times of the play screen while the computer thinks")
    p.set_defaults(func=cmd_bench)

    for module in COMMAND_MODULES:
        importlib.import_module(module).add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``gibson`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args) or 0
    except GibsonError as exc:
        print(f"gibson: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    random.seed()
    sys.exit(main())
