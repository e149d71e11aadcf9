"""``gibson bot``: a computer player that plays on a game server through the client library, seeing only
its own Observation like any other client."""

from __future__ import annotations

import argparse
import asyncio
import random

from ..cliargs import positive_seconds, server_url
from ..errors import GibsonError
from ..plugins import load_variant
from .client import ConnectionLost, ServerError, connect


async def play_bot(url: str, agent_name: str, join: str | None = None, variant: str = "tri-tactics",
                   seed: int | None = None, budget: float | None = None, say=print) -> dict:
    """Join game ``join`` (or create one and print its code), set up and play it to the end with
    ``agent_name``; returns the result."""
    from ..ai import make_agent

    agent = make_agent(agent_name)
    rng = random.Random(seed)
    client = await connect(url)
    try:
        game = await client.join(join) if join else await client.create(variant)
        if not join:
            say(f"game {game.id}: waiting for an opponent (join code {game.id})")
        game = await client.wait_for(game.id, lambda g: g.phase != "waiting", timeout=24 * 3600)
        gv = load_variant(game.variant, game.options or None)
        if game.phase == "setup" and not game.players.get(game.seat, {}).get("ready"):
            await client.submit_setup(game.id, agent.choose_setup(gv, game.seat, rng))
        while True:
            game = await client.wait_for(game.id, lambda g: g.over or g.my_turn, timeout=24 * 3600)
            if game.over:
                break
            obs, seen = game.observation, game.updates
            move = await asyncio.to_thread(agent.choose_move, obs, rng, budget)
            try:
                await client.play(game.id, str(move), ply=obs.ply)
            except (ServerError, ConnectionLost) as exc:  # the game moved on or the link broke: look again
                say(f"move {move} not taken ({exc}); looking again")
                await client.wait_for(game.id, lambda g, s=seen: g.updates > s, timeout=3600)
                continue
            # the answer comes before the view that shows the move: wait for that view
            await client.wait_for(game.id, lambda g, n=obs.ply: g.over or g.observation.ply > n, timeout=3600)
        say(f"game {game.id} over: {game.result}")
        return game.result
    finally:
        await client.close()


def cmd_bot(args) -> int:
    """``gibson bot``."""
    if args.join is None:
        load_variant(args.variant)  # an unknown name is refused before connecting
    try:
        asyncio.run(play_bot(args.connect, args.agent, args.join, args.variant, args.seed, args.budget))
    except (OSError, GibsonError) as exc:
        raise GibsonError(f"bot: {exc}") from None
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``gibson bot``."""
    p = subparsers.add_parser("bot", help="play a game on a server with a computer agent")
    p.add_argument("--connect", required=True, type=server_url, help="server address, ws://HOST:PORT")
    p.add_argument("--agent", default="search", help="random, heuristic or search")
    p.add_argument("--join", default=None, help="join code of the game to play (default: create one)")
    p.add_argument("--variant", default="tri-tactics", help="variant of a game the bot creates")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--budget", type=positive_seconds, default=None, help="seconds to think per move")
    p.set_defaults(func=cmd_bot)
