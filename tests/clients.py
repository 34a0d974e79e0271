"""What the tests' clients do at a real server's table (tests/harness.py starts the server):
wait for a kind of message, read until the server is quiet, set up a table, play to its end,
and ask the server's HTTP side."""

from __future__ import annotations

import asyncio
import random
import signal
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from protocol.client import Client
from protocol.messages import VERSION


async def recv(client, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of `kind` (those before it are dropped)."""
    while True:
        message = await asyncio.wait_for(client.recv(), timeout)
        if message["type"] == kind:
            return message


async def messages_until(client, predicate: Callable[[dict], bool], timeout: float = 10.0) -> list[dict]:
    """What arrives up to and including the first message for which `predicate` holds (rather
    than until a quiet moment, which a loaded machine's pause can bring too early)."""
    seen = []
    while True:
        m = await asyncio.wait_for(client.recv(), timeout)
        seen.append(m)
        if predicate(m):
            return seen


async def until_quiet(client, seconds: float = 0.5) -> list[dict]:
    """What arrives until nothing has for `seconds`."""
    seen = []
    while True:
        try:
            seen.append(await asyncio.wait_for(client.recv(), seconds))
        except TimeoutError:
            return seen


def plain_answer(offer: dict, rng: random.Random) -> dict:
    """A pass when calls are offered, else a plain discard at random (else the first action)."""
    actions = offer["actions"]
    if any(a["type"] == "pass" for a in actions):
        return {"type": "pass"}
    discards = [a for a in actions if a["type"] == "discard" and not a.get("riichi")]
    return rng.choice(discards) if discards else actions[0]


async def host_guest_and_two_bots(server, clock: dict) -> tuple[Client, Client, dict]:
    """A tenhou table with the host in seat 0, a guest in seat 1 and two bots, started:
    (host, guest, the host's first `table` message)."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": clock})
    table = await recv(host, "table")
    guest = await Client.connect(server.url, "guest")
    await guest.send({"type": "join", "code": table["invite"]})
    await recv(guest, "table")
    for _ in range(2):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    await guest.send({"type": "ready"})
    return host, guest, table


async def create_with_bots(server, rules: str, name: str = "host", client_id: str | None = None,
                           player_key: str | None = None) -> tuple[Client, dict]:
    """A table of `rules` with no clock, its host (of hello's `client` and `player`, if given)
    and three shanten bots, started: (host, its first `table` message)."""
    host = await Client.connect(server.url, name, client_id=client_id, player_key=player_key)
    assert host.welcome["type"] == "welcome" and host.welcome["version"] == VERSION
    await host.send({"type": "create_table", "rules": rules, "clock": {"none": True}})
    table = await recv(host, "table")
    for _ in range(3):
        await host.send({"type": "add_bot", "strategy": "shanten"})
    await host.send({"type": "ready"})
    return host, table


async def play_counting(client, rng: random.Random, seen: list[dict], stop_after: int | None = None,
                        pending: dict | None = None) -> dict:
    """Answer offers at random, keeping every message; at the result, returns it; after
    stop_after offers, returns the next offer unanswered (give it back as `pending`)."""
    answered = 0
    if pending is not None:
        await client.send({"type": "act", "decision": pending["decision"], "action": rng.choice(pending["actions"])})
    while True:
        m = await asyncio.wait_for(client.recv(), 10)
        seen.append(m)
        if m["type"] == "offer":
            if stop_after is not None and answered == stop_after:
                return m
            answered += 1
            await client.send({"type": "act", "decision": m["decision"], "action": rng.choice(m["actions"])})
        elif m["type"] == "result":
            return m


async def resumed_after_a_restart(server, seed: int) -> tuple[Client, int, dict]:
    """A host and three bots play ten decisions; the server is killed and started again;
    the host resumes with `since`: (its new client, since, the `catchup` it got)."""
    host, _ = await create_with_bots(server, "tenhou")
    seen: list[dict] = []
    await play_counting(host, random.Random(seed), seen, stop_after=10)
    since = max(m["seq"] for m in seen if m["type"] in ("event", "table"))
    token = host.resume_token
    await server.stop_async(signal.SIGKILL)
    server.start()
    back = await Client.connect(server.url, "host", resume=token, since=since)
    assert back.welcome["resumed"] is True
    catchup = await recv(back, "catchup")
    assert catchup["replay"] is False and catchup["reason"] == "restart"
    return back, since, catchup


def http_get(server: Any, path: str, gz: bool = False) -> tuple[int, dict[str, str], bytes]:
    """GET `path` from `server` (anything with a `port`): its status, headers and body as sent
    (`gz`: saying it takes gzip); an error status is returned, not raised."""
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}",
                                     headers={"Accept-Encoding": "gzip"} if gz else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


async def east_game_in_play(server, strategy: str = "shanten") -> tuple[Client, dict]:
    """A host and three bots of `strategy`, East only, no clock: (the host, its `table` in play)."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "overrides": {"rounds": 1}, "clock": {"none": True}})
    await recv(host, "table")
    for _ in range(3):
        await host.send({"type": "add_bot", "strategy": strategy})
    await host.send({"type": "ready"})
    while True:
        table = await recv(host, "table")
        if table["state"] == "playing":
            return host, table
