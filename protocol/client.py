"""A small async client: connect, hello, send, receive decoded messages.

    async with await Client.connect("ws://127.0.0.1:8765", "alice") as client:
        await client.send({"type": "create_table", "rules": "tenhou"})
        message = await client.recv()
"""

from __future__ import annotations

import secrets
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from protocol.messages import MAX_FRAME, VERSION, encode


def new_client_id() -> str:
    """An id for one client instance: made once, sent in every hello of its connections."""
    return secrets.token_urlsafe(12)


class Client:
    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.welcome: dict[str, Any] | None = None

    @classmethod
    async def connect(cls, url: str, name: str, resume: str | None = None, version: int = VERSION,
                      since: int | None = None, bot: bool = False, client_id: str | None = None,
                      takeover: bool = False) -> Client:
        """Connect and say hello; `welcome` holds the server's answer (or its error).  With
        `resume`, `since` is the last table seq this client saw: what came after it is sent
        again (after a `catchup` message), or a snapshot if it cannot be.  `bot`: this client
        is a program (its seats show as one).  `client_id`: the same string on every
        connection of one client instance (`new_client_id()`), so that it may resume its own
        session while the server still holds its old connection; `takeover`: resume even
        from another client that is connected (which is closed)."""
        client = cls(await connect(url, max_size=None, open_timeout=10))
        hello: dict[str, Any] = {"type": "hello", "name": name, "version": version}
        if bot:
            hello["bot"] = True
        if client_id is not None:
            hello["client"] = client_id
        if takeover:
            hello["takeover"] = True
        if resume is not None:
            hello["resume"] = resume
            if since is not None:
                hello["since"] = since
        await client.send(hello)
        client.welcome = await client.recv()
        return client

    @property
    def resume_token(self) -> str | None:
        return (self.welcome or {}).get("resume")

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(encode(message))

    async def send_raw(self, frame: bytes) -> None:
        await self.ws.send(frame)

    async def recv(self) -> dict[str, Any]:
        """The next message, decoded (raises websockets' ConnectionClosed at the end)."""
        frame = await self.ws.recv()
        return msgpack.unpackb(frame, raw=False, strict_map_key=False)

    async def close(self) -> None:
        await self.ws.close()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


__all__ = ["MAX_FRAME", "VERSION", "Client", "new_client_id"]
