"""The store interface, one suite for every store: SQLite always, PostgreSQL under ``make test-postgres``
(tests marked ``postgres`` start a throwaway cluster; ``make test`` deselects them)."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from gibson_server.store import open_store
from gibson_server.store.base import LIVE, OPEN, OVER, GameRow, StoreError
from pgcluster import fresh_database

STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=STORES)
def location(request, tmp_path):
    """Where a store under test lives: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    return fresh_database(request.getfixturevalue("pg_cluster"))


@contextlib.asynccontextmanager
async def opened(location: str, node: str | None = None):
    store = open_store(location, node)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def _row(game_id: str = "ABC123", **changes) -> GameRow:
    base = dict(game_id=game_id, variant="lattaque", options={"ply-limit": 300}, clock={"initial": 600, "increment": 5},
                seed=12345678901, created=1000.5, agents={"red": "search-medium"})
    return GameRow(**{**base, **changes})


def run(coro):
    return asyncio.run(coro)


def test_games_round_trip_and_are_listed_by_status(location):
    async def go():
        async with opened(location) as store:
            assert await store.create_game(_row())
            assert not await store.create_game(_row())  # the code is taken: the caller draws another
            assert await store.create_game(_row("XYZ789", created=2000.0, clock=None, agents={}))
            assert await store.get_game("ABC123") == _row()
            assert await store.get_game("NOPE") is None
            assert [r.game_id for r in await store.games((OPEN,))] == ["ABC123", "XYZ789"]
            await store.set_status("ABC123", OVER, {"winner": None, "reason": "agreed draw"})
            assert (await store.get_game("ABC123")).result == {"winner": None, "reason": "agreed draw"}
            assert [r.game_id for r in await store.games((OPEN, LIVE))] == ["XYZ789"]

    run(go())


def test_a_seat_is_claimed_once(location):
    async def go():
        async with opened(location) as store:
            await store.create_game(_row())
            assert await store.claim_seat("ABC123", "blue", "h1")
            assert not await store.claim_seat("ABC123", "blue", "h2")
            assert await store.claim_seat("ABC123", "red", "h3")
            assert await store.seats("ABC123") == {"blue": "h1", "red": "h3"}

    run(go())


def test_the_log_accepts_each_number_once_in_order(location):
    async def go():
        async with opened(location) as store:
            await store.create_game(_row())
            results = await asyncio.gather(*(store.append("ABC123", 1, "move", {"move": f"a{i}-a2"}, 5.0 + i)
                                             for i in range(5)))
            assert sorted(results) == [False, False, False, False, True]
            assert await store.append("ABC123", 2, "move", {"move": "b1-b2"}, 9.0)
            entries = await store.entries("ABC123")
            assert [e.seq for e in entries] == [1, 2] and entries[1].data == {"move": "b1-b2"}
            assert [e.seq for e in await store.entries("ABC123", after=1)] == [2]

    run(go())


def test_entries_survive_reopening_and_heartbeats_are_kept(location):
    async def go():
        async with opened(location) as store:
            await store.create_game(_row())
            for seq in range(1, 41):
                assert await store.append("ABC123", seq, "move", {"n": seq}, float(seq))
            await store.heartbeat("node-a", 123.25)
        async with opened(location) as store:
            assert [e.data["n"] for e in await store.entries("ABC123")] == list(range(1, 41))
            assert await store.last_heartbeat("node-a") == 123.25
            assert await store.last_heartbeat("node-b") is None

    run(go())


def test_an_unknown_scheme_or_an_unreachable_database_is_a_store_error(tmp_path):
    with pytest.raises(StoreError, match="no store for"):
        open_store("mysql://x/y")

    async def go():
        async with opened("postgresql://nobody@127.0.0.1:1/none"):
            pass

    with pytest.raises(StoreError, match="cannot connect"):
        run(go())


@pytest.mark.postgres
def test_two_nodes_race_for_one_move_and_learn_of_each_others_entries(pg_cluster):
    """Two server processes on one database: the database accepts one of two simultaneous entries with the
    same number, and each node is told (LISTEN/NOTIFY) of what the other committed, never of its own."""
    location = fresh_database(pg_cluster)

    async def go():
        async with opened(location, "node-a") as a, opened(location, "node-b") as b:
            await a.create_game(_row())
            heard_a, heard_b = asyncio.Queue(), asyncio.Queue()

            async def on_a(game_id, seq, entry):
                await heard_a.put((game_id, seq, entry and entry.data))

            async def on_b(game_id, seq, entry):
                await heard_b.put((game_id, seq, entry and entry.data))

            await a.subscribe(on_a)
            await b.subscribe(on_b)
            for seq in range(1, 21):
                won = await asyncio.gather(a.append("ABC123", seq, "move", {"by": "a"}, 1.0),
                                           b.append("ABC123", seq, "move", {"by": "b"}, 1.0))
                assert sorted(won) == [False, True]
                winner_heard = heard_b if won[0] else heard_a  # the notice carries the entry
                assert await asyncio.wait_for(winner_heard.get(), 10) == ("ABC123", seq, {"by": "a" if won[0] else "b"})
            assert heard_a.empty() and heard_b.empty()
            assert [e.seq for e in await b.entries("ABC123")] == list(range(1, 21))
            assert not await a.append("ABC123", 22, "move", {}, 1.0)  # no gap in the log
            assert await a.append("ABC123", 21, "setup", {"pieces": "x" * 9000}, 1.0)  # too big for a notice:
            assert await asyncio.wait_for(heard_b.get(), 10) == ("ABC123", 21, None)  # read it from the log

    run(go())


@pytest.mark.postgres
def test_the_schema_is_versioned_and_a_newer_one_is_refused(pg_cluster):
    import psycopg
    from gibson_server.store.postgres import MIGRATIONS

    location = fresh_database(pg_cluster)

    async def go():
        async with opened(location):
            pass
        async with opened(location):  # a second start migrates nothing
            pass

    run(go())
    with psycopg.connect(location, autocommit=True) as conn:
        assert conn.execute("SELECT value FROM gibson_meta WHERE key='schema'").fetchone() == (str(len(MIGRATIONS)),)
        conn.execute("UPDATE gibson_meta SET value='99' WHERE key='schema'")
    with pytest.raises(StoreError, match="newer"):
        run(go())


@pytest.mark.postgres
def test_a_batch_of_entries_gets_its_answers_in_order(pg_cluster):
    """Entries that arrive together are written in one batch, in game order; each caller gets its own answer."""
    location = fresh_database(pg_cluster)

    async def go():
        async with opened(location) as store:
            for game_id in ("BBB222", "AAA111"):
                await store.create_game(_row(game_id))
            answers = await asyncio.gather(store.append("BBB222", 1, "move", {}, 1.0),
                                           store.append("AAA111", 2, "move", {}, 1.0))  # a gap: refused
            assert answers == [True, False]

    run(go())
