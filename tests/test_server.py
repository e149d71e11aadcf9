"""The game server end to end over loopback: full games, seats and tokens, spectators, twin games, fuzzing,
limits and departures. The server runs in-process on an ephemeral port (see ``netharness``); every wait has
a timeout and no test sleeps for a fixed time."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from netharness import LoopThread, Served, mover, settle, start_game

from gibson_core.moves import MOVE
from gibson_core.net.client import ServerError
from gibson_core.net.protocol import CLIENT_MESSAGES, MAX_MESSAGE_BYTES
from gibson_core.plugins import load_variant
from gibson_core.setup import random_setup

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def lt():
    loop = LoopThread()
    yield loop
    loop.close()


@pytest.fixture(scope="module")
def served(lt, tmp_path_factory):
    s = Served(lt, tmp_path_factory.mktemp("server") / "games.sqlite3", seeds=lambda bits: 12345)
    yield s
    s.close()


def test_full_game_between_two_scripted_clients(lt, served):
    async def scenario():
        a, b = await served.client_async(), await served.client_async()
        code = await start_game(a, b, options={"ply-limit": 30})
        assert a.games[code].record is None
        rng = random.Random(3)
        ply = 0
        while not a.games[code].over:
            c = mover((a, b), code)
            await c.play(code, str(rng.choice(c.games[code].observation.legal_moves)))
            ply += 1
            await settle((a, b), code, ply)
        views = [await c.wait_for(code, lambda g: g.record is not None, 10) for c in (a, b)]
        record = views[0].record
        assert record == views[1].record
        assert record["moves"] == list(a.games[code].observation.moves) == list(b.games[code].observation.moves)
        assert set(record["setups"]) == {"blue", "red"}  # published only now, after the end
        assert views[0].result == {"winner": None, "reason": "ply limit of 30 reached"}
        await a.close()
        await b.close()

    lt.run(scenario())


def test_out_of_turn_gets_not_your_turn_only(lt, served):
    async def scenario():
        a, b = await served.client_async(), await served.client_async()
        code = await start_game(a, b)
        waiting = a if b.games[code].my_turn else b
        obs = waiting.games[code].observation
        with pytest.raises(ServerError) as err:
            await waiting.play(code, "a1-a2")
        assert err.value.code == "not-your-turn"
        assert str(err.value) == f"not your turn: it is {obs.to_move}'s turn"
        await a.close()
        await b.close()

    lt.run(scenario())


def test_tokens_resume_replace_and_refuse(lt, served):
    async def scenario():
        a, b = await served.client_async(), await served.client_async()
        code = await start_game(a, b)
        other = await a.create("tri-tactics")
        intruder = await served.client_async()
        for token in ("x" * 32, other.token):  # a wrong token, another game's token
            with pytest.raises(ServerError) as err:
                await intruder.resume(code, token)
            assert err.value.code == "bad-token"
        with pytest.raises(ServerError) as err:  # no token at all: no seat to act for
            await intruder.play(code, "a1-a2")
        assert err.value.code == "not-seated"
        with pytest.raises(ServerError):
            await intruder.request({"type": "resume", "game": code})  # missing token: a schema error
        # the right token resumes the seat with the current view and replaces the first connection
        before = a.games[code].observation
        again = await served.client_async()
        await again.resume(code, a.games[code].token)
        view = await again.wait_for(code, lambda g: g.observation is not None, 10)
        assert view.observation == before
        await a.wait_for(code, lambda g: g.token is None, 10)  # told it was replaced
        with pytest.raises(ServerError) as err:
            await a.resign(code)
        assert err.value.code == "not-seated"
        # a lost connection comes back by itself and resumes
        await again._ws.close()
        await again.wait_for(code, lambda g: again.reconnects >= 1 and g.observation == before, 10)
        for c in (a, b, intruder, again):
            await c.close()

    lt.run(scenario())


def _hidden_free(obs) -> bool:
    """No type appears that is not known to both players."""
    for piece in obs.pieces:
        if piece.type is not None and not piece.revealed:
            return False
    return all(e.type is None or e.public for evs in obs.events for e in evs if type(e).__name__ == "Removed")


def test_spectator_sees_no_hidden_type(lt, served):
    async def scenario():
        a, b, watcher = await served.client_async(), await served.client_async(), await served.client_async()
        code = await start_game(a, b)
        await watcher.spectate(code)
        rng = random.Random(5)
        attacks = 0
        for ply in range(1, 41):
            c = mover((a, b), code)
            legal = c.games[code].observation.legal_moves
            hits = [m for m in legal if m.target is not None]
            move = rng.choice(hits) if hits and rng.random() < 0.5 else rng.choice(legal)
            attacks += move.target is not None
            await c.play(code, str(move))
            await settle((a, b, watcher), code, ply)
            obs = watcher.games[code].observation
            assert obs.player == "" and obs.legal_moves == ()
            assert _hidden_free(obs)
            if a.games[code].over:
                break
        assert attacks > 0  # some pieces were revealed along the way, and only those show a type
        for c in (a, b, watcher):
            await c.close()

    lt.run(scenario())


def _twin_setups():
    v = load_variant("tri-tactics")
    blue = random_setup(v, "blue", 11)
    squares = sorted(blue)
    first = squares[0]
    second = next(sq for sq in squares if blue[sq] != blue[first])
    twin = dict(blue)
    twin[first], twin[second] = blue[second], blue[first]
    return blue, twin, random_setup(v, "red", 12)


def test_twin_games_give_identical_streams_until_a_reveal(lt, served):
    """Two games that differ only in blue's hidden set-up: red and a spectator receive the same bytes."""
    async def scenario():
        blue_a, blue_b, red = _twin_setups()
        games = []
        for blue in (blue_a, blue_b):
            host = await served.client_async()
            guest = await served.client_async(keep_raw=True)
            watcher = await served.client_async(keep_raw=True)
            game = await host.create("tri-tactics", side="blue")
            await watcher.spectate(game.id)
            await guest.join(game.id)
            await host.submit_setup(game.id, blue)
            await guest.submit_setup(game.id, red)
            await settle((host, guest, watcher), game.id, 0)
            games.append((game.id, host, guest, watcher))
        rng = random.Random(8)
        for ply in range(1, 31):
            views = [h.games[code].observation if h.games[code].my_turn else g.games[code].observation
                     for code, h, g, _w in games]
            common = sorted(set(views[0].legal_moves) & set(views[1].legal_moves), key=str)
            quiet = [m for m in common if m.kind == MOVE and m.target is None]
            if not quiet:
                break
            move = str(rng.choice(quiet))
            for code, host, guest, watcher in games:
                c = host if host.games[code].my_turn else guest
                await c.play(code, move)
                await settle((host, guest, watcher), code, ply)
        streams = []
        for code, _h, guest, watcher in games:
            # the join reply carries the seat's own token: compare what follows it
            red_stream = [m.replace(code, "GAME") for m in guest.raw if '"joined"' not in m]
            spectator_stream = [m.replace(code, "GAME") for m in watcher.raw]
            streams.append((red_stream, spectator_stream))
        assert len(streams[0][0]) > 20
        reveal = next((i for i, m in enumerate(streams[0][0]) if '"Revealed"' in m), None)
        assert streams[0][0][:reveal] == streams[1][0][:reveal]
        assert streams[0][1][:reveal] == streams[1][1][:reveal]
        for _code, *clients in games:
            for c in clients:
                await c.close()

    lt.run(scenario(), timeout=60)


def test_game_against_the_server_hosted_computer(lt, served):
    async def scenario():
        human = await served.client_async()
        game = await human.create("tri-tactics", side="red", opponent="computer", agent="random")
        v = load_variant("tri-tactics")
        await human.submit_setup(game.id, random_setup(v, "red", 4))
        rng = random.Random(1)
        for _ in range(3):  # the computer answers each move (it moves first when the lot says so)
            view = await human.wait_for(game.id, lambda g: g.my_turn or g.over, 60)
            ply = view.observation.ply
            await human.play(game.id, str(rng.choice(view.observation.legal_moves)))
            await human.wait_for(game.id, lambda g, p=ply: g.over or g.observation.ply >= p + 2, 60)
        assert human.games[game.id].players["blue"]["agent"] == "random"
        await human.close()

    lt.run(scenario(), timeout=90)


# -- hostile input --------------------------------------------------------------------------------------
JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
                    | st.text(max_size=20), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@st.composite
def hostile(draw, code: str):
    kind = draw(st.sampled_from(["text", "json", "mutated"]))
    if kind == "text":
        return draw(st.text(max_size=200))
    if kind == "json":
        return json.dumps(draw(JSON))
    mtype = draw(st.sampled_from(sorted(CLIENT_MESSAGES)))
    fields = CLIENT_MESSAGES[mtype][0]
    msg = {"type": mtype}
    for name in fields:
        if draw(st.booleans()):
            msg[name] = draw(st.sampled_from([code, "a1-a2", "blue", "red", "x" * 32]) | JSON)
    if draw(st.booleans()):
        msg[draw(st.text(max_size=6))] = draw(JSON)
    if draw(st.booleans()):
        msg["id"] = draw(JSON)
    return json.dumps(msg)


@pytest.fixture(scope="module")
def fuzz_target(lt, served):
    async def setup():
        a, b = await served.client_async(), await served.client_async()
        code = await start_game(a, b)
        from websockets.asyncio.client import connect

        attacker = await connect(served.url, compression=None, proxy=None)
        return a, b, code, attacker

    a, b, code, attacker = lt.run(setup())
    yield a, b, code, attacker

    async def teardown():
        await attacker.close()
        await a.close()
        await b.close()

    lt.run(teardown())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_messages_change_nothing_and_the_server_keeps_serving(lt, served, fuzz_target, data):
    a, b, code, attacker = fuzz_target
    messages = data.draw(st.lists(hostile(code), min_size=1, max_size=5))
    game = served.server.games[code]
    before = (game.seq, a.games[code].observation, b.games[code].observation)

    async def attack():
        for text in messages:
            await attacker.send(text)
        await attacker.send(json.dumps({"type": "ping", "id": 999}))
        while True:  # every message before the ping was answered or dropped; the server still answers
            reply = json.loads(await asyncio.wait_for(attacker.recv(), 10))
            if reply.get("id") == 999 and reply["type"] == "pong":
                return

    lt.run(attack())
    assert (game.seq, a.games[code].observation, b.games[code].observation) == before


def test_oversized_and_binary_messages_are_refused(lt, served):
    async def scenario():
        from websockets.asyncio.client import connect

        ws = await connect(served.url, compression=None, proxy=None)
        await ws.send(b"\x00\x01")
        reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert reply["type"] == "error" and "binary" in reply["message"]
        await ws.send("x" * (MAX_MESSAGE_BYTES + 10))  # the WebSocket layer closes on an oversized frame
        with pytest.raises(Exception):  # noqa: B017 - the close code is the library's (1009)
            await asyncio.wait_for(ws.recv(), 10)
        fresh = await served.client_async()
        assert (await fresh.request({"type": "ping"}))["type"] == "pong"
        await fresh.close()

    lt.run(scenario())


def test_flood_is_rate_limited_and_then_disconnected(lt, tmp_path):
    from gibson_server.service import Limits

    small = Served(lt, tmp_path / "flood.sqlite3", Limits(rate=5, burst=5, flood_close=40))

    async def scenario():
        from websockets.asyncio.client import connect

        ws = await connect(small.url, compression=None, proxy=None)
        for i in range(60):
            try:
                await ws.send(json.dumps({"type": "ping", "id": i}))
            except Exception:
                break
        codes = []
        try:
            while True:
                codes.append(json.loads(await asyncio.wait_for(ws.recv(), 10)).get("code"))
        except Exception:
            pass
        assert "rate-limited" in codes and codes.count(None) <= 10  # a few pongs, then refusals, then closed
        fresh = await small.client_async()
        assert (await fresh.request({"type": "ping"}))["type"] == "pong"
        await fresh.close()

    try:
        lt.run(scenario())
    finally:
        small.close()


def test_open_games_per_connection_are_limited(lt, served):
    async def scenario():
        c = await served.client_async()
        for _ in range(served.server.limits.open_games):
            await c.create("lattaque")
        with pytest.raises(ServerError) as err:
            await c.create("lattaque")
        assert err.value.code == "too-many-games"
        await c.close()

    lt.run(scenario())


async def until(condition, timeout: float = 10.0) -> None:
    """Wait (with a timeout) for the server to have handled something a client cannot observe."""
    async def poll():
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), timeout)


def test_a_player_away_past_the_grace_period_loses_and_deserted_games_end(lt, tmp_path):
    from gibson_server.service import Limits

    now = [1_000_000.0]
    slow = Served(lt, tmp_path / "away.sqlite3", Limits(rate=1e6, burst=1e6, grace=60, abandon=300),
                  clock=lambda: now[0])

    async def scenario():
        a, b = await slow.client_async(), await slow.client_async()
        code = await start_game(a, b)
        lone = await a.create("lattaque")
        b.reconnect = False
        await b.close()
        await a.wait_for(code, lambda g: not g.players[b.games[code].seat]["connected"], 10)
        now[0] += 61
        await slow.server.sweep()
        view = await a.wait_for(code, lambda g: g.over, 10)
        assert view.result["winner"] == a.games[code].seat and "did not come back" in view.result["reason"]
        a.reconnect = False
        await a.close()
        await until(lambda: (lone.id, lone.seat) in slow.server.away)
        now[0] += 301
        await slow.server.sweep()
        assert slow.server.games[lone.id].result == (None, "abandoned: nobody came back")

    try:
        lt.run(scenario())
    finally:
        slow.close()


def test_a_bot_plays_a_game_through_the_client_library(lt, served):
    from gibson_core.net.bot import play_bot

    async def scenario():
        human = await served.client_async()
        game = await human.create("lattaque", options={"ply-limit": 16}, side="blue")
        bot = asyncio.ensure_future(play_bot(served.url, "random", join=game.id, seed=1, say=lambda line: None))
        v = load_variant("lattaque", {"ply-limit": 16})
        await human.submit_setup(game.id, random_setup(v, "blue", 1))
        rng = random.Random(2)
        while True:
            view = await human.wait_for(game.id, lambda g: g.my_turn or g.over, 30)
            if view.over:
                break
            ply = view.observation.ply
            await human.play(game.id, str(rng.choice(view.observation.legal_moves)))
            await human.wait_for(game.id, lambda g, p=ply: g.over or g.observation.ply > p, 30)
        assert await asyncio.wait_for(bot, 30) == view.result
        assert view.observation.ply == 16
        await human.close()

    lt.run(scenario(), timeout=60)


def test_draw_offer_accept_and_a_rematch_with_sides_swapped(lt, served):
    async def scenario():
        a, b = await served.client_async(), await served.client_async()
        code = await start_game(a, b)
        with pytest.raises(ServerError) as err:
            await b.accept_draw(code)  # nothing offered yet
        assert err.value.code == "no-offer"
        await a.offer_draw(code)
        await b.wait_for(code, lambda g: g.draw_offer == a.games[code].seat, 10)
        await b.accept_draw(code)
        view = await a.wait_for(code, lambda g: g.over and g.record is not None, 10)
        assert view.result == {"winner": None, "reason": "draw agreed"}
        seats = {c: c.games[code].seat for c in (a, b)}
        await a.rematch(code)
        await b.rematch(code)
        new = await a.wait_for(code, lambda g: g.rematch is not None, 10)
        for c in (a, b):
            game = await c.wait_for(new.rematch, lambda g: g.token is not None, 10)
            assert game.seat != seats[c]  # sides swapped, a fresh token each
        with pytest.raises(ServerError) as err:
            await a.rematch(code)
        assert err.value.code == "rematch-done"
        await a.close()
        await b.close()

    lt.run(scenario())


def _self_signed(folder):
    """A throwaway certificate for 127.0.0.1 (PEM files) made with ``cryptography``."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .sign(key, hashes.SHA256()))
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                       serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption()))
    return folder / "cert.pem", folder / "key.pem"


def test_the_server_speaks_tls_with_certfile_and_keyfile(lt, tmp_path):
    import ssl

    from gibson_server.run import ssl_context, start_server

    from gibson_core.net.client import GameClient

    cert, key = _self_signed(tmp_path)

    async def scenario():
        server, ws, port = await start_server("127.0.0.1", 0, str(tmp_path / "tls.sqlite3"),
                                              tls=ssl_context(str(cert), str(key)))
        trust = ssl.create_default_context(cafile=str(cert))
        client = await GameClient(f"wss://127.0.0.1:{port}", ssl=trust).connect()
        assert (await client.request({"type": "ping"}))["type"] == "pong"
        await client.close()
        ws.close()
        await ws.wait_closed()
        await server.stop()

    lt.run(scenario())
