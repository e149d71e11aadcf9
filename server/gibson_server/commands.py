"""``gibson serve`` and ``gibson loadtest``: the server's subcommands (registered by the CLI's
``COMMAND_MODULES``; imports stay lazy so ``gibson --help`` does not load the server)."""

from __future__ import annotations

import argparse

from gibson_core.cliargs import (
    count,
    input_file,
    output_file,
    port,
    positive_number,
    positive_seconds,
    seconds_from_zero,
    server_url,
    whole_from,
    workers,
)


def database(text: str) -> str:
    """An argparse type for ``--db``: a database URL (``postgresql://...``) as it is, else a SQLite file to
    write (its folder must exist and be writable)."""
    return text if "://" in text else output_file(text)


def cmd_serve(args) -> int:
    from .run import main_serve

    return main_serve(args)


def cmd_loadtest(args) -> int:
    from .loadtest import main_loadtest

    return main_loadtest(args)


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``serve`` and ``loadtest``."""
    p = subparsers.add_parser("serve", help="run the online game server (docs/server.md)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default: localhost only)")
    p.add_argument("--port", type=port, default=8765, help="port (0: any free port; the line printed says which)")
    p.add_argument("--db", type=database, default=None,
                   help="SQLite file (default: server.sqlite3 in the Gibson folder) or postgresql://USER@HOST/DB")
    p.add_argument("--sync", choices=["normal", "full"], default="normal",
                   help="full: fsync every commit (survives a power cut), normal: survives a server crash")
    p.add_argument("--certfile", type=input_file, default=None, help="TLS certificate chain (PEM): serve wss://")
    p.add_argument("--keyfile", type=input_file, default=None, help="TLS private key (PEM)")
    p.add_argument("--rate", type=positive_number, default=50.0, help="messages a second per connection")
    p.add_argument("--open-games", type=count, default=4, help="unfinished games one connection may create")
    p.add_argument("--grace", type=seconds_from_zero, default=120.0, help="seconds a player may be away before losing")
    p.add_argument("--abandon", type=positive_seconds, default=600.0, help="seconds before a deserted game is ended")
    p.add_argument("--agent-workers", type=workers, default=1, help="processes for computer players")
    p.add_argument("--agent-seconds", type=positive_seconds, default=1.0, help="thinking time of a computer player")
    p.add_argument("-v", "--verbose", action="store_true", help="log connections and problems")
    p.set_defaults(func=cmd_serve)

    p = subparsers.add_parser("loadtest", help="many concurrent games against a server; checks nothing is lost")
    p.add_argument("--url", required=True, type=server_url, action="append",
                   help="ws://127.0.0.1:PORT; repeat it for several nodes sharing one PostgreSQL database")
    p.add_argument("--games", type=count, default=100)
    p.add_argument("--variant", default="tri-tactics")
    p.add_argument("--moves", type=whole_from(0), default=100, help="moves a game before one side resigns (0: to the end)")
    p.add_argument("--restart-every", type=positive_seconds, default=None,
                   help="start the server here and SIGKILL and restart it every S seconds")
    p.add_argument("--db", type=database, default=None, help="with --restart-every: the servers' database "
                   "(default: a temp SQLite file; several --url need postgresql://...)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--think", type=seconds_from_zero, default=0.0, help="mean seconds a simulated player waits before moving")
    p.add_argument("--timeout", type=positive_seconds, default=600.0, help="give up after this many seconds")
    p.add_argument("--timeline", type=output_file, default=None, help="write every move's send time and round trip here (CSV)")
    p.set_defaults(func=cmd_loadtest)
