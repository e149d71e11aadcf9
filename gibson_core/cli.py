"""The ``gibson`` command. Each subcommand is a small function; other packages (the front end, the AI
arena, the variant tools) add theirs through ``add_commands(subparsers)`` in the modules listed in
``COMMAND_MODULES``."""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

from .cliargs import (
    OneLineParser,
    agents_from_text,
    count,
    input_file,
    known_variants,
    output_file,
    ply_number,
    positive_seconds,
    quiet_broken_pipe,
)
from .errors import GibsonError, VariantError
from .options import check_options, parse_option_args
from .plugins import load_errors, load_variant, plugin_manager, variant_names, variant_specs

COMMAND_MODULES: tuple[str, ...] = ("gibson_core.ai.arena", "gibson_core.validate_cmd", "gibson_core.scaffold", "gibson_pygame.commands",
                                     "gibson_server.commands", "gibson_core.net.bot")


def _variant(args):
    """The variant named on the command line, with its ``--option`` arguments checked and typed."""
    return load_variant(args.variant, check_options(args.variant, parse_option_args(args.option)))


def one_line(exc: GibsonError) -> str:
    """An error as one line: a variant file's first problem, and where to see the others."""
    problems = getattr(exc, "problems", None)
    if isinstance(exc, VariantError) and problems and len(problems) > 1:
        first = problems[0]
        return f"{first} (and {len(problems) - 1} more: gibson validate {first.file})"
    return str(exc)


def cmd_list(args) -> int:
    for name in variant_names():
        spec = variant_specs()[name]
        try:
            v = load_variant(name)
            print(f"{name:<22} {v.title} - {v.grid.files}x{v.grid.ranks}, {v.piece_count} pieces a side")
        except GibsonError as exc:
            print(f"{name:<22} (cannot load: {one_line(exc)})")
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
    from .match import play_match

    variant = _variant(args)
    agents = agents_from_text(args.agents)
    record, state = play_match(variant, agents, seed=args.seed)
    result = state.outcome()
    print(f"{variant.name} seed {args.seed}: {result.describe()} after {state.ply} plies")
    if args.record:
        record.save(args.record)
        print(f"record saved to {args.record}")
    return 0


def cmd_replay(args) -> int:
    from .cliargs import viewer
    from .record import load_record
    from .textboard import render_text

    record = load_record(args.file)
    shown = viewer(load_variant(record.variant, record.options or None), args.as_player)
    state = record.replay(args.ply)
    for ply, (move, events) in enumerate(state.history, start=1):
        if args.verbose:
            print(f"{ply:>4}. {move}  " + "; ".join(type(e).__name__ for e in events))
    print(render_text(state, shown))
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
    names = args.variants or ["tri-tactics"]
    if args.env:  # environment steps (the rl extra, imported only when asked for)
        from gibson_rl.bench import format_env_table, measure_env

        for name in names:
            print(format_env_table(name, measure_env(name, args.seconds, options=check_options(name, parse_option_args(args.option)))))
            print()
        return 0
    from .bench import format_table, measure
    from .fastpath import engine_for, unsupported

    chosen = parse_option_args(args.option)
    checked = {name: check_options(name, chosen) for name in names}  # every name and option before measuring
    for name in names:
        options = checked[name]
        if args.agent:  # the time an agent takes to choose a move (gibson_core.ai.timing)
            from .ai.timing import time_agent

            figures = time_agent(name, args.agent, args.positions, options=options)
            print(format_table(name, figures).replace("(one core)", f"--agent {args.agent}"))
            print()
            continue
        variant = load_variant(name, options or None)
        fast = engine_for(variant) == "fast"
        engines = {"auto": ["fast" if fast else "python"], "both": ["python", "fast"]}.get(args.engine, [args.engine])
        for engine in engines:
            if engine == "fast" and not fast:
                why = unsupported(variant) or "the kernel is not built here (or GIBSON_FASTPATH=0)"
                print(f"gibson bench {name}: no fast path ({why}); measuring the python engine")
                engine = "python"
            print(format_table(name, measure(name, args.seconds, options=options, engine=engine), engine))
            print()
    return 0


def cmd_difftest(args) -> int:
    from . import difftest

    known_variants(args.variants)
    configs = [c for c in difftest.configurations() if not args.variants or c[0] in args.variants]
    try:
        totals = difftest.run(args.games, args.seed, configs, args.max_plies)
    except difftest.Mismatch as exc:
        print(f"MISMATCH {exc}")
        return 1
    print(f"{totals['games']} games ({totals['plies']} plies compared move by move) and {totals['playouts']} "
          f"playouts ({totals['playout plies']} plies) and {totals['search playouts']} search-agent playouts "
          "identical in both engines")
    for line in totals["python only"]:
        print(f"python engine only: {line}")
    return 0


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog="gibson", description="H.P. Gibson's hidden-rank war games")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="registered variants")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("rules", help="a variant's pieces and value table")
    p.add_argument("variant")
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("check", help="run conformance vector files")
    p.add_argument("files", nargs="+", type=input_file)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("selfplay", help="play a game between two agents")
    p.add_argument("variant")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", type=output_file, help="save the game record (JSON) here")
    p.add_argument("--agents", default="random,random", help="two agent names, comma-separated")
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("replay", help="replay a game record and show the final position")
    p.add_argument("file", type=input_file)
    p.add_argument("--ply", type=ply_number, default=None, help="stop after this many plies")
    p.add_argument("--as", dest="as_player", default="all", help="blue, red or all")
    p.add_argument("-v", "--verbose", action="store_true", help="list every move")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("plugins", help="loaded plugins and variants")
    p.set_defaults(func=cmd_plugins)

    p = sub.add_parser("bench", help="measure engine speed")
    p.add_argument("variants", nargs="*")
    p.add_argument("--seconds", type=positive_seconds, default=3.0)
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.add_argument("--ui", action="store_true", help="frame times of the play screen while the computer thinks")
    p.add_argument("--env", action="store_true",
                   help="RL environment steps/s with observation tensors and masks (needs the rl extra)")
    p.add_argument("--engine", choices=("auto", "python", "fast", "both"), default="auto",
                   help="auto: the fast path when it plays the variant, else the python engine")
    p.add_argument("--agent", help="time this agent's moves instead (e.g. search-medium, search-hard)")
    p.add_argument("--positions", type=count, default=20, help="with --agent: midgame positions to time")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("difftest", help="prove the fast path identical to the python engine on random games")
    p.add_argument("variants", nargs="*", help="only these variants (default: every variant and option)")
    p.add_argument("--games", type=count, default=20, help="games per variant and option")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-plies", type=count, default=400, help="plies compared move by move per game")
    p.set_defaults(func=cmd_difftest)

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
        print(f"gibson: {one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # ``gibson replay g.json | head``: the reader has gone; not an error of ours
        return quiet_broken_pipe()
    except KeyboardInterrupt:  # Ctrl-C: the user asked to stop; one line, no traceback
        print(f"gibson {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    random.seed()
    sys.exit(main())
