"""``gibson play``, ``gibson screenshot`` and ``gibson uibench``: the front end's subcommands."""

from __future__ import annotations

import argparse


def _options(args) -> dict:
    """The ``--option`` arguments, checked against the chosen variant (the launcher checks its own)."""
    from gibson_core.errors import OptionError
    from gibson_core.options import check_options, parse_option_args

    chosen = parse_option_args(args.option)
    if chosen and not args.variant:
        raise OptionError("--option needs a variant name (the launcher has its own option controls)")
    return check_options(args.variant, chosen) if args.variant else {}


def _level(args) -> None:
    """``--level`` must be one of the AI package's levels (checked before the window opens)."""
    from gibson_core.errors import UsageError, quote
    from gibson_core.options import did_you_mean

    from .ai_worker import levels

    if args.level is not None and args.level not in levels():
        hint = did_you_mean(args.level, levels())
        raise UsageError(f"--level: unknown level {quote(args.level, 30)} (levels: {', '.join(levels())})"
                         + (f"; did you mean {hint!r}?" if hint else ""))


def cmd_play(args) -> int:
    """Open the window (every argument checked first)."""
    from gibson_core.plugins import load_variant

    if args.connect:
        from .app import run_online

        run_online(args.connect, args.join, args.variant, _options(args))
        return 0
    from .app import run

    _level(args)
    options = _options(args)
    if args.variant:
        load_variant(args.variant, options or None)
    run(args.variant, args.vs, args.level, options)
    return 0


def cmd_screenshot(args) -> int:
    """Render a position to PNG (every argument checked first: variant, options, record, viewer)."""
    from gibson_core.cliargs import same_variant, viewer
    from gibson_core.plugins import load_variant
    from gibson_core.record import load_record

    from .screenshot import render_position

    options = _options(args)
    variant = load_variant(args.variant, options or None)
    if args.record:
        record = load_record(args.record)
        same_variant(record, variant.name)
        variant = load_variant(record.variant, record.options or None)
    shown = viewer(variant, args.as_player)
    path = render_position(args.variant, args.out, shown, args.record, args.ply, args.plies, args.seed, options)
    print(f"wrote {path}")
    return 0


def cmd_uibench(args) -> int:
    """Frame times of the play screen while the computer thinks."""
    from .uibench import format_result, measure_frames

    for name in args.variants or ["tri-tactics"]:
        print(format_result(measure_frames(name, getattr(args, "frames", 600), agent=getattr(args, "agent", None),
                                           level=getattr(args, "level", "medium"),
                                           process=not getattr(args, "thread", False))))
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register the front end's subcommands on the ``gibson`` parser."""
    from gibson_core.cliargs import count, input_file, output_file, ply_number, server_url

    p = subparsers.add_parser("play", help="open the game window (launcher when no variant is given)")
    p.add_argument("variant", nargs="?")
    p.add_argument("--vs", choices=["computer", "friend"], default=None, help="opponent (default: launcher choice)")
    p.add_argument("--level", default=None, help="computer strength: easy, medium or hard")
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.add_argument("--connect", type=server_url, default=None, help="play online on the server ws://HOST:PORT")
    p.add_argument("--join", default=None, help="with --connect: the join code of the game (else host one)")
    p.set_defaults(func=cmd_play)

    p = subparsers.add_parser("screenshot", help="render a position as a player sees it, to PNG")
    p.add_argument("variant")
    p.add_argument("--out", required=True, type=output_file, help="PNG file to write")
    p.add_argument("--record", type=input_file, help="a game record (JSON); default: random set-ups")
    p.add_argument("--ply", type=ply_number, default=None, help="position after this many plies of the record")
    p.add_argument("--plies", type=ply_number, default=0, help="without a record: random moves after the set-up")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--as", dest="as_player", default="blue", help="blue, red or all (full reveal)")
    p.add_argument("--option", action="append", help="NAME or NAME=VALUE")
    p.set_defaults(func=cmd_screenshot)

    p = subparsers.add_parser("uibench", help="frame times of the play screen while the computer thinks")
    p.add_argument("variants", nargs="*")
    p.add_argument("--frames", type=count, default=600)
    p.add_argument("--agent", default=None, help="agent name (default: the strongest registered)")
    p.add_argument("--level", default="medium")
    p.add_argument("--thread", action="store_true", help="think in a thread of the window's process instead")
    p.set_defaults(func=cmd_uibench)
