"""Starting the server: ``gibson serve``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import ssl
from pathlib import Path

from gibson_core.errors import GibsonError, quote
from gibson_core.net.protocol import MAX_MESSAGE_BYTES

from .agents import AgentPool
from .service import GameServer, Limits
from .store import open_store


def default_db() -> Path:
    """The default database: ``server.sqlite3`` in the user's Gibson folder (``$GIBSON_HOME`` or ~/.gibson)."""
    import os

    return Path(os.environ.get("GIBSON_HOME") or Path.home() / ".gibson") / "server.sqlite3"


def ssl_context(certfile: str | None, keyfile: str | None) -> ssl.SSLContext | None:
    """A server TLS context from a certificate chain and key (PEM), or None for plain ``ws://``."""
    if not certfile:
        return None
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(certfile, keyfile)
    return ctx


async def start_server(host: str, port: int, db: str, limits: Limits | None = None,
                       tls: ssl.SSLContext | None = None, agent_workers: int = 1, agent_seconds: float = 1.0,
                       sync: str = "normal"):
    """Open the store, rebuild its games and start listening; returns ``(game server, websockets server,
    port)``. Stop with ``ws_server.close()``, then ``await game_server.stop()``."""
    from websockets.asyncio.server import serve as ws_serve

    server = GameServer(open_store(db, sync=sync), limits or Limits(), agents=AgentPool(agent_workers, agent_seconds))
    await server.start()
    ws_server = await ws_serve(server.handler, host, port, max_size=MAX_MESSAGE_BYTES, compression=None, ssl=tls,
                               max_queue=64)
    return server, ws_server, ws_server.sockets[0].getsockname()[1]


async def serve(host: str, port: int, db: str, limits: Limits | None = None, tls: ssl.SSLContext | None = None,
                agent_workers: int = 1, agent_seconds: float = 1.0, ready=print, stop: asyncio.Event | None = None,
                sync: str = "normal"):
    """Run the server until ``stop`` is set (or SIGINT/SIGTERM). ``ready`` gets one line with the address."""
    server, ws_server, bound = await start_server(host, port, db, limits, tls, agent_workers, agent_seconds, sync)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread, or no signals
            loop.add_signal_handler(sig, stop.set)
    try:
        ready(f"gibson server listening on {'wss' if tls else 'ws'}://{host}:{bound} (database {db}, "
              f"{len(server.restoring)} games to restore)")
        await stop.wait()
    finally:
        ws_server.close()
        await ws_server.wait_closed()
        await server.stop()


def main_serve(args) -> int:
    """``gibson serve``."""
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    limits = Limits(rate=args.rate, open_games=args.open_games, grace=args.grace, abandon=args.abandon)
    try:
        asyncio.run(serve(args.host, args.port, args.db or str(default_db()), limits,
                          ssl_context(args.certfile, args.keyfile), args.agent_workers, args.agent_seconds,
                          ready=lambda line: print(line, flush=True), sync=args.sync))
    except OSError as exc:  # a host that does not resolve, a port in use, a bad certificate (ssl.SSLError)
        raise GibsonError(f"serve: cannot serve on {quote(args.host, 40)} port {args.port}: "
                          f"{quote(exc.strerror or str(exc), 120)}") from None
    return 0
