"""A resume token whose seat is gone (handed to a bot, or its game over) gets `welcome` with
`resumed: false` and a `seat_lost` error, through real sockets against a real server."""

import asyncio

import pytest

from protocol.client import Client
from tests.clients import host_guest_and_two_bots, recv

pytestmark = pytest.mark.server(shared=True)  # one server for the module (a test that stops it has its own)


@pytest.mark.asyncio
async def test_resuming_a_seat_the_host_handed_to_a_bot_says_seat_lost(server):
    host, guest, _ = await host_guest_and_two_bots(
        server, {"per_decision": 0.05, "bank": 0, "absence": 0.2, "between_hands": 0})
    await recv(guest, "offer")
    token = guest.resume_token
    await guest.close()
    async with asyncio.timeout(20):  # asked again while the server has not yet seen it away its 0.2 s
        while True:
            await asyncio.sleep(0.5)
            await host.send({"type": "add_bot", "seat": 1})
            while (m := await host.recv())["type"] != "error" and not (m["type"] == "table"
                                                                       and m["seats"][1]["kind"] == "bot"):
                pass
            if m["type"] == "table":
                break
    back = await Client.connect(server.url, "guest", resume=token, since=5)
    assert back.welcome["resumed"] is False and back.welcome["resume"] != token
    lost = await recv(back, "error", timeout=5)
    assert lost["code"] == "seat_lost" and "bot" in lost["message"] and "\n" not in lost["message"]
    for c in (host, back):
        await c.close()


@pytest.mark.asyncio
async def test_resuming_with_a_token_that_holds_nothing_says_seat_lost(server):
    client = await Client.connect(server.url, "someone", resume="no-such-token-at-all")
    assert client.welcome["resumed"] is False
    assert (await recv(client, "error", timeout=5))["code"] == "seat_lost"
    await client.close()
