"""Several ``gibson serve`` processes on one PostgreSQL database (issue 15), under ``make test-postgres``:
a player on each node plays one game, moves flow both ways, a spectator on one node sees the other node's
moves, a seat claimed on one node is honoured on the other; one node is SIGKILLed and its player resumes on
the other node and finishes; a rematch is agreed across the nodes; and the load test against two nodes with a node killed and restarted loses
nothing."""

from __future__ import annotations

import asyncio
import random

import pytest
from gibson_server.loadtest import ServerProcess, run_loadtest
from netharness import LoopThread, mover, settle, start_game
from pgcluster import free_port, fresh_database

from gibson_core.net.client import GameClient
from gibson_core.plugins import load_variant
from gibson_core.setup import random_setup

pytestmark = pytest.mark.postgres


async def _nodes(db: str, count: int = 2) -> list[ServerProcess]:
    nodes = [ServerProcess("127.0.0.1", 0, db, ("--rate", "1000")) for _ in range(count)]
    for node in nodes:
        await node.start()
    return nodes


async def _play(clients, code: str, plies: int, rng: random.Random) -> None:
    """Both sides play random legal moves for ``plies`` plies; every client sees each one."""
    start = clients[0].games[code].observation.ply
    for ply in range(start + 1, start + plies + 1):
        c = mover(clients, code)
        await c.play(code, str(rng.choice(c.games[code].observation.legal_moves)), ply=ply - 1)
        await settle(clients, code, ply)


def test_two_nodes_play_one_game_and_a_killed_nodes_player_finishes_on_the_other(pg_cluster):
    lt = LoopThread()
    db = fresh_database(pg_cluster)
    nodes = lt.run(_nodes(db), timeout=120)
    rng = random.Random(5)
    try:
        async def go():
            u1, u2 = nodes[0].url, nodes[1].url
            a = await GameClient(u1, backoff=(0.05, 0.3), fallbacks=(u2,)).connect()
            b = await GameClient(u2, backoff=(0.05, 0.3), fallbacks=(u1,)).connect()
            # created on node 1, joined on node 2: node 1 learns of the seat and both see the set-up phase
            code = await start_game(a, b, clock={"initial": 600, "increment": 5})
            watcher = await GameClient(u1).connect()
            await watcher.spectate(code)
            await _play((a, b), code, 6, rng)  # moves flow both ways
            await watcher.wait_for(code, lambda g: g.observation is not None and g.observation.ply == 6, 10)
            assert all(p["connected"] for p in a.games[code].players.values())  # b is held by node 2
            clock = a.games[code].clock
            assert clock["running"] == a.games[code].observation.to_move
            assert all(590_000 < ms <= 630_000 for ms in clock["left_ms"].values())

            # a second connection with b's token on node 1 takes the seat from node 2's connection
            b_token = b.games[code].token
            b.reconnect = False
            thief = await GameClient(u1).connect()
            await thief.resume(code, b_token)
            await b.wait_for(code, lambda g: g.token is None, 10)  # told "replaced" by node 2
            await thief.close()
            await b.close()
            b = await GameClient(u2, backoff=(0.05, 0.3), fallbacks=(u1,)).connect()
            await b.resume(code, b_token)
            await b.wait_for(code, lambda g: g.observation is not None and g.observation.ply == 6, 10)

            await nodes[1].kill()  # b's node dies: b resumes its seat on node 1 by itself and plays on
            await b.wait_for(code, lambda g: b.reconnects >= 1 and b.is_connected, 30)
            await _play((a, b), code, 4, rng)
            await watcher.wait_for(code, lambda g: g.observation is not None and g.observation.ply == 10, 10)
            await mover((a, b), code).resign(code)
            for c in (a, b, watcher):
                view = await c.wait_for(code, lambda g: g.record is not None, 10)
                assert view.record["moves"] == list(view.observation.moves) and len(view.record["moves"]) == 10
            await watcher.close()

            # the restarted node serves the finished game from the database; a rematch agreed across nodes
            await nodes[1].start()
            b2 = await GameClient(nodes[1].url).connect()
            await b2.resume(code, b.games[code].token)
            await b.close()
            assert len((await b2.wait_for(code, lambda g: g.record is not None, 10)).record["moves"]) == 10
            await a.rematch(code)
            await b2.rematch(code)
            new = (await a.wait_for(code, lambda g: g.rematch is not None, 10)).rematch
            for c in (a, b2):  # each gets its seat (and token) in the new game from its own node
                seat = (await c.wait_for(new, lambda g: g.token is not None, 10)).seat
                assert seat != c.games[code].seat
            for c in (a, b2):
                await c.submit_setup(new, random_setup(load_variant("tri-tactics"), c.games[new].seat, rng))
            await settle((a, b2), new, 0)
            await _play((a, b2), new, 2, rng)
            for c in (a, b2):
                await c.close()

        lt.run(go(), timeout=120)
    finally:
        for node in nodes:
            lt.run(node.kill(), timeout=30)
        lt.close()


def test_the_load_test_against_two_nodes_with_one_killed_and_restarted_loses_nothing(pg_cluster):
    db = fresh_database(pg_cluster)
    urls = [f"ws://127.0.0.1:{free_port()}" for _ in range(2)]
    lines = []
    tally = asyncio.run(run_loadtest(urls, 16, max_moves=40, think=0.05, restart_every=2.0, db=db, timeout=240,
                                     say=lines.append))
    assert tally.restarts >= 1, lines
    assert tally.problems == [] and tally.lost == 0 and tally.finished == 16, tally.problems[:5]
