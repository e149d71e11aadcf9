"""Gibson's game server: asyncio + websockets, every secret kept on the server, every accepted set-up and
move committed to a store before it is acknowledged (``docs/server.md``, ``docs/protocol.md``)."""
