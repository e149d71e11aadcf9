"""Without PostgreSQL (``make test``): a client given other nodes' addresses goes round them after a lost
connection until one answers, and resumes its seat there; the load test refuses several nodes without a
shared database. The cluster itself is tested under ``make test-postgres`` (``test_cluster.py``)."""

from __future__ import annotations

import asyncio

import pytest
from gibson_server.loadtest import run_loadtest
from netharness import LoopThread, Served, start_game
from pgcluster import free_port

from gibson_core.errors import GibsonError
from gibson_core.net.client import GameClient


def test_a_client_goes_round_its_fallback_nodes_until_one_answers(tmp_path):
    lt = LoopThread()
    served = Served(lt, tmp_path / "games.sqlite3")
    dead = f"ws://127.0.0.1:{free_port()}"  # nothing listens there
    try:
        async def go():
            a = await GameClient(served.url, backoff=(0.01, 0.05), fallbacks=(dead,)).connect()
            b = await served.client_async()
            code = await start_game(a, b)
            seen = a.games[code].updates
            served.server.seat_conn[(code, a.games[code].seat)].close()  # the server drops a's connection
            await a.wait_for(code, lambda g: g.updates > seen and a.is_connected, 10)
            assert a.reconnects == 1 and a.urls == (served.url, dead)
            assert served.server.seat_conn[(code, a.games[code].seat)] is not None  # resumed on the live node
            await a.close()
            await b.close()

        lt.run(go())
    finally:
        served.close()
        lt.close()


def test_several_nodes_under_restarts_need_a_shared_database():
    urls = [f"ws://127.0.0.1:{free_port()}" for _ in range(2)]
    with pytest.raises(GibsonError, match="postgresql"):
        asyncio.run(run_loadtest(urls, 1, restart_every=1.0, db=None))
