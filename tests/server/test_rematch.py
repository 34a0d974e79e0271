"""A rematch (PROTOCOL.md "After the end"): after a game played to its end, the first of its
players to send `rematch` hosts a new table with the same rules, clock and bots in the same
seats, in its own seat; the other players are sent `rematch_offered` with the new invite code,
and a `rematch` of theirs takes their own seat there, on the connection the game was played
on, or after coming back with their token.  Through real sockets against a real riichi-server."""

import asyncio
import random

import pytest

from protocol.client import Client
from protocol.messages import check_server
from tests.clients import play_counting, recv

CLOCK = {"per_decision": 30, "bank": 10, "absence": 60, "between_hands": 0}
FAST = {"per_decision": 0.05, "bank": 0, "absence": 60, "between_hands": 0}
SHORT = {"rounds": 1}  # East only: a short game


async def host_guest_and_bots(server, clock: dict) -> tuple[Client, Client, dict]:
    """Host in seat 0, guest in seat 1, a random bot in seat 2 and a shanten bot in seat 3,
    all ready: (host, guest, the host's first `table`)."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "overrides": SHORT, "clock": clock})
    table = await recv(host, "table")
    guest = await Client.connect(server.url, "guest")
    await guest.send({"type": "join", "code": table["invite"]})
    await recv(guest, "table")
    await host.send({"type": "add_bot", "seat": 2, "strategy": "random"})
    await host.send({"type": "add_bot", "seat": 3, "strategy": "shanten"})
    for client in (host, guest):
        await client.send({"type": "ready"})
    return host, guest, table


async def table_with(client: Client, test) -> dict:
    """The next `table` message that passes `test`."""
    while True:
        message = await recv(client, "table")
        if test(message):
            return message


@pytest.mark.asyncio
async def test_the_first_player_to_ask_hosts_a_rematch_with_the_same_rules_clock_and_bots_and_the_other_takes_its_seat(
        server):
    host, guest, first = await host_guest_and_bots(server, CLOCK)
    results = await asyncio.gather(play_counting(host, random.Random(1), []),
                                   play_counting(guest, random.Random(2), []))
    game = results[0]["game"]
    assert results[1]["game"] == game
    assert (await recv(host, "bye"))["code"] == "game_over"

    await guest.send({"type": "rematch", "game": game})  # the guest asks first, on the same connection
    new = await table_with(guest, lambda t: t["seats"][3] is not None)
    assert new["table"] != first["table"] and new["state"] == "waiting" and new["you"] == 1
    assert new["rules"] == "tenhou" and new["clock"] == {**CLOCK, "per_decision": 30.0, "bank": 10.0,
                                                          "absence": 60.0, "between_hands": 0.0}
    assert new["seats"][1]["host"] is True and new["seats"][0] is None
    assert [s["kind"] for s in new["seats"][2:]] == ["bot", "bot"]
    assert [s["name"] for s in new["seats"][2:]] == ["random-bot-2", "shanten-bot-3"]
    assert new["invite"] and new["invite"] != first["invite"]

    offered = check_server(await recv(host, "rematch_offered"))
    assert offered == {"type": "rematch_offered", "game": game, "invite": new["invite"], "seat": 0, "by": "guest"}
    await host.send({"type": "rematch", "game": game})
    mine = await table_with(host, lambda t: t["you"] == 0)
    assert mine["table"] == new["table"] and mine["seats"][0]["name"] == "host" and not mine["seats"][0]["host"]
    for client in (host, guest):
        await client.send({"type": "ready"})
    assert (await table_with(host, lambda t: t["state"] == "playing"))["table"] == new["table"]
    await recv(host, "offer")

    stranger = await Client.connect(server.url, "stranger")
    await stranger.send({"type": "rematch", "game": game})
    refused = await recv(stranger, "error")
    assert refused["code"] == "not_seated" and str(game) in refused["message"]
    await stranger.send({"type": "rematch", "game": game + 1000})
    assert (await recv(stranger, "error"))["code"] == "no_game"
    for client in (host, guest, stranger):
        await client.close()


@pytest.mark.asyncio
async def test_a_rematch_of_a_game_in_play_is_refused(server):
    host, guest, _ = await host_guest_and_bots(server, CLOCK)
    playing = await table_with(host, lambda t: t["state"] == "playing")
    offer = await recv(host, "offer")
    await host.send({"type": "rematch", "game": playing["game"]})
    refused = await recv(host, "error")
    assert refused["code"] == "no_game" and "\n" not in refused["message"]
    # a plain discard (the first action offered may be a blessing of heaven or nine terminals)
    discard = next(a for a in offer["actions"] if a["type"] == "discard" and not a.get("riichi"))
    await host.send({"type": "act", "decision": offer["decision"], "action": discard})
    assert (await recv(host, "event"))["event"]["type"] == "discard"  # the game goes on
    for client in (host, guest):
        await client.close()


@pytest.mark.asyncio
async def test_a_player_away_at_the_end_is_offered_the_rematch_when_it_comes_back_and_takes_its_seat(server):
    host, guest, _ = await host_guest_and_bots(server, FAST)
    await recv(guest, "event")
    token = guest.resume_token
    await guest.close()  # the clock plays for its seat
    result = await play_counting(host, random.Random(3), [])
    await host.send({"type": "rematch", "game": result["game"]})
    new = await table_with(host, lambda t: t["seats"][3] is not None)
    assert new["you"] == 0 and new["seats"][1] is None

    back = await Client.connect(server.url, "guest", resume=token)
    assert back.welcome["resumed"] is False
    assert (await asyncio.wait_for(back.recv(), 5))["type"] == "result"
    offered = check_server(await asyncio.wait_for(back.recv(), 5))
    assert offered == {"type": "rematch_offered", "game": result["game"], "invite": new["invite"], "seat": 1,
                       "by": "host"}
    assert (await asyncio.wait_for(back.recv(), 5))["type"] == "bye"
    await back.send({"type": "rematch", "game": result["game"]})  # its new session may ask: it held the seat
    seated = await table_with(back, lambda t: t["you"] is not None)
    assert seated["table"] == new["table"] and seated["you"] == 1
    for client in (host, back):
        await client.close()
