"""``gibson loadtest``: N concurrent games of two simulated clients each, playing random legal moves over
loopback; at the end every game's record on the server is checked against the moves both clients saw
acknowledged. With ``--restart-every S`` the load test starts the server itself and SIGKILLs and restarts it
every S seconds; the clients reconnect by themselves and play on.

The last line printed is ``N games, M moves, L lost, p50 X ms, p99 Y ms`` (move round trips: from sending a
move to its acknowledgement, which the server sends only after the move is committed).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import attrs

from gibson_core.errors import GibsonError
from gibson_core.net.client import ConnectionLost, GameClient, ServerError
from gibson_core.plugins import load_variant
from gibson_core.setup import random_setup


@attrs.define
class Tally:
    """What the load test saw."""

    games: int = 0
    finished: int = 0
    moves: int = 0
    lost: int = 0
    latencies: list = attrs.field(factory=list)
    timeline: list = attrs.field(factory=list)  # (perf_counter when sent, round trip) per move
    problems: list = attrs.field(factory=list)
    restarts: int = 0
    reconnects: int = 0
    peak_rss_kb: int = 0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return 0.0
        data = sorted(self.latencies)
        return data[min(len(data) - 1, int(q * len(data)))] * 1000

    def line(self) -> str:
        return (f"{self.games} games, {self.moves} moves, {self.lost} lost, p50 {self.percentile(0.5):.1f} ms, "
                f"p99 {self.percentile(0.99):.1f} ms")


async def _retrying(action, client: GameClient, game_id: str, done_codes: tuple = ()):
    """Run a request until it is answered, waiting for a new view after each lost connection; a refusal
    whose code is in ``done_codes`` means it was already done."""
    for _ in range(100):
        seen = client.games[game_id].updates if game_id in client.games else 0
        try:
            return await action()
        except ConnectionLost:
            await client.wait_for(game_id, lambda g, s=seen: g.updates > s, timeout=120)
        except ServerError as exc:
            if exc.code in done_codes:
                return None
            raise
    raise GibsonError("gave up after 100 lost connections")


async def _player(client: GameClient, game_id: str, rng: random.Random, max_moves: int, think: float,
                  tally: Tally, acked: dict) -> None:
    """Play random legal moves as this client's seat until the game is over."""
    while True:
        game = await client.wait_for(game_id, lambda g: g.over or g.my_turn, timeout=300)
        if game.over:
            return
        obs = game.observation
        seen = game.updates
        if max_moves and obs.ply >= max_moves:
            await _retrying(lambda: client.resign(game_id), client, game_id, ("game-over",))
            continue
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        move = str(rng.choice(obs.legal_moves))
        started = time.perf_counter()
        try:
            await client.play(game_id, move, ply=obs.ply)
        except ConnectionLost:
            await client.wait_for(game_id, lambda g, s=seen: g.updates > s, timeout=120)
            continue
        except ServerError as exc:
            if exc.code in ("stale", "not-your-turn", "game-over"):
                await client.wait_for(game_id, lambda g, s=seen: g.updates > s, timeout=120)
                continue
            raise
        tally.latencies.append(time.perf_counter() - started)
        tally.timeline.append((started, tally.latencies[-1]))
        acked[obs.ply] = move
        await client.wait_for(game_id, lambda g, n=obs.ply: g.over or g.observation.ply > n, timeout=120)


async def _one_game(url: str, index: int, variant_name: str, max_moves: int, seed: int, think: float,
                    tally: Tally) -> None:
    rng = random.Random(f"{seed}/{index}")
    variant = load_variant(variant_name)
    host, guest = GameClient(url), GameClient(url)
    try:
        await _connect(host)
        await _connect(guest)
        game = await _retrying_create(host, variant_name)
        await _retrying_join(guest, game.id)
        acked: dict = {}
        for client in (host, guest):
            seat = client.games[game.id].seat
            pieces = random_setup(variant, seat, random.Random(rng.random()))
            await _retrying(lambda c=client, p=pieces: c.submit_setup(game.id, p), client, game.id, ("setup-done",))
        await asyncio.gather(*(_player(c, game.id, random.Random(rng.random()), max_moves, think, tally, acked)
                               for c in (host, guest)))
        views = [await c.wait_for(game.id, lambda g: g.record is not None, timeout=120) for c in (host, guest)]
        record = views[0].record["moves"]
        lost = sum(1 for ply, move in acked.items() if ply >= len(record) or record[ply] != move)
        if lost or any(list(v.observation.moves) != record for v in views):
            tally.problems.append(f"game {game.id}: record of {len(record)} moves, {lost} acknowledged moves "
                                  "missing or different")
        tally.lost += lost
        tally.moves += len(record)
        tally.finished += 1
    finally:
        tally.reconnects += host.reconnects + guest.reconnects
        await host.close()
        await guest.close()


async def _connect(client: GameClient) -> None:
    for attempt in range(50):
        try:
            await client.connect()
            return
        except (TimeoutError, OSError, ConnectionLost):
            await asyncio.sleep(min(2.0, 0.05 * 2**attempt))
    raise GibsonError(f"cannot connect to {client.url}")


async def _retrying_create(client: GameClient, variant: str):
    for _ in range(50):
        try:
            return await client.create(variant)
        except ConnectionLost:
            await client.wait_connected()
    raise GibsonError("cannot create a game")


async def _retrying_join(client: GameClient, code: str):
    for _ in range(50):
        try:
            return await client.join(code)
        except ConnectionLost:
            await client.wait_connected()
    raise GibsonError("cannot join a game")


class ServerProcess:
    """A ``gibson serve`` child process on a fixed port, to be killed and restarted."""

    def __init__(self, host: str, port: int, db: str, extra: tuple = ()):
        self.host, self.port, self.db, self.extra = host, port, db, extra
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "gibson_core.cli", "serve", "--host", self.host, "--port", str(self.port),
            "--db", self.db, *self.extra, stdout=asyncio.subprocess.PIPE)
        line = await asyncio.wait_for(self.proc.stdout.readline(), 120)
        if b"listening" not in line:
            raise GibsonError(f"the server did not start: {line[:200]!r}")

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            await self.proc.wait()

    def rss_kb(self) -> int:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except (OSError, AttributeError):
            pass
        return 0


async def run_loadtest(url: str, games: int, variant: str = "tri-tactics", max_moves: int = 100, seed: int = 0,
                       think: float = 0.0, restart_every: float | None = None, db: str | None = None,
                       timeout: float = 600.0, say=print) -> Tally:
    """Run the load test; returns the tally (``tally.line()`` is the summary)."""
    tally = Tally(games=games)
    server = None
    tasks = []
    if restart_every:
        where = urlparse(url)
        db = db or os.path.join(tempfile.mkdtemp(prefix="gibson-loadtest-"), "server.sqlite3")
        server = ServerProcess(where.hostname or "127.0.0.1", where.port or 8765, db, ("--rate", "1000"))
        await server.start()
        say(f"server started (database {db})")

    async def restarts():
        while True:
            await asyncio.sleep(restart_every)
            tally.peak_rss_kb = max(tally.peak_rss_kb, server.rss_kb())
            await server.kill()
            tally.restarts += 1
            await server.start()
            say(f"server killed (SIGKILL) and restarted ({tally.restarts})")

    async def sample():
        while True:
            tally.peak_rss_kb = max(tally.peak_rss_kb, server.rss_kb())
            await asyncio.sleep(0.5)

    try:
        if server is not None:
            tasks = [asyncio.ensure_future(restarts()), asyncio.ensure_future(sample())]
        gathering = asyncio.gather(*(_one_game(url, i, variant, max_moves, seed, think, tally) for i in range(games)),
                                   return_exceptions=True)
        # on Ctrl-C the games end cancelled: take that outcome so asyncio logs no "never retrieved" traceback
        gathering.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            results = await asyncio.wait_for(gathering, timeout)
        except TimeoutError:  # the report below still says what finished and what was lost
            results = [TimeoutError(f"gave up after {timeout:g} s (--timeout)")]
        for res in results:
            if isinstance(res, BaseException):
                tally.problems.append(f"{type(res).__name__}: {res}")
    finally:
        for task in tasks:
            task.cancel()
        if server is not None:
            await server.stop()
    tally.lost += games - tally.finished
    return tally


def main_loadtest(args) -> int:
    """``gibson loadtest``."""
    from gibson_core.plugins import load_variant

    load_variant(args.variant)  # an unknown name is refused before any game starts
    started = time.perf_counter()
    tally = asyncio.run(run_loadtest(args.url, args.games, args.variant, args.moves, args.seed, args.think,
                                     args.restart_every, args.db, args.timeout))
    elapsed = time.perf_counter() - started
    if args.timeline:
        with open(args.timeline, "w", encoding="utf-8") as out:
            out.write("sent_s,round_trip_ms\n")
            for sent, rtt in sorted(tally.timeline):
                out.write(f"{sent - started:.3f},{rtt * 1000:.2f}\n")
    for problem in tally.problems[:20]:
        print(f"problem: {problem}")
    extra = f", {tally.restarts} restarts, peak server memory {tally.peak_rss_kb // 1024} MiB" if args.restart_every else ""
    print(f"{tally.finished} of {tally.games} games finished in {elapsed:.1f} s, "
          f"{tally.moves / max(elapsed, 1e-9):.0f} moves/s, {tally.reconnects} reconnections{extra}")
    print(tally.line())
    return 0 if tally.lost == 0 and not tally.problems else 1
