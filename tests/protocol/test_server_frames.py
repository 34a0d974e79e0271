"""The server sends only what protocol/messages.py defines: every frame that players and
spectators receive from riichi-server (run in the test's event loop: tests/harness.py),
through whole games with built-in bots and a run of deliberate mistakes, is checked against SERVER_MESSAGES (the type known,
the required fields there, no field it does not define, each field of its kind, down to the
events, the hands' results and the views inside them; error codes among ErrorCode, bye
codes among ByeCode).

PROTOCOL.md: "`protocol/messages.py` is the one definition of the shapes"."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect as open_socket
from websockets.exceptions import ConnectionClosed

from protocol.client import Client
from protocol.messages import EVENTS, MAX_FRAME, SERVER_MESSAGES, VERSION, ErrorCode, ProtocolError, check_server
from server.events import service
from server.events.spec import EventSpec
from server.table.session import Session
from server.table.spec import SeatSpec, TableSpec

RECV_SECONDS = 30.0
HISTORY = 16  # the server's --history: a seat away for longer than this resumes from a snapshot
TABLES_PER_ADDRESS = 3


class Seen:
    """Everything the test's clients received, counted by what it was."""

    def __init__(self) -> None:
        self.types: Counter[str] = Counter()
        self.events: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.byes: Counter[str] = Counter()
        self.catchups: Counter[str] = Counter()

    def note(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        self.types[kind] += 1
        if kind == "event":
            self.events[message["event"]["type"]] += 1
        elif kind == "error":
            self.errors[message["code"]] += 1
        elif kind == "bye":
            self.byes[message["code"]] += 1
        elif kind == "catchup":
            self.catchups["replay" if message["replay"] else message["reason"]] += 1


class Checked(Client):
    """A protocol client that checks every frame it receives against the definitions: a
    frame that breaks them fails the test, naming the field."""

    seen = Seen()

    async def recv(self) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), RECV_SECONDS)
        assert isinstance(frame, bytes), f"the server sent a text frame: {frame!r:.80}"
        message = msgpack.unpackb(frame, raw=False, strict_map_key=True)  # one map, string keys, nothing after
        try:
            check_server(message)
        except ProtocolError as problem:
            raise AssertionError(f"the server sent what the protocol does not define: {problem}: {message!r:.300}")
        self.seen.note(message)
        return message

    async def until(self, kind: str, code: str | None = None) -> dict[str, Any]:
        while True:
            message = await self.recv()
            if message["type"] == kind and (code is None or message.get("code") == code):
                return message

    async def expect_error(self, message: dict[str, Any] | bytes | str, code: ErrorCode) -> dict[str, Any]:
        if isinstance(message, dict):
            await self.send(message)
        else:
            await self.ws.send(message)
        answer = await self.until("error")
        assert answer["code"] == code, answer
        return answer

    async def drain(self) -> None:
        """Read (and check) until the server closes the connection."""
        try:
            while True:
                await self.recv()
        except ConnectionClosed:
            pass


async def connect(url: str, name: str, **options: Any) -> Checked:
    client = await Checked.connect(url, name, **options)
    assert client.welcome["type"] == "welcome", client.welcome
    return client


def answer(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A legal answer: a win when offered, else the first plain discard, else a pass."""
    for kind in ("tsumo", "ron"):
        for action in actions:
            if action["type"] == kind:
                return action
    plain = [a for a in actions if (a["type"] == "discard" and not a.get("riichi")) or a["type"] == "pass"]
    return (plain or actions)[0]


async def play_out(client: Checked) -> dict[str, Any]:
    """Answer every offer until the game's result and the bye that follows it."""
    result = None
    while True:
        message = await client.recv()
        if message["type"] == "offer":
            await client.send({"type": "act", "decision": message["decision"], "action": answer(message["actions"])})
        elif message["type"] == "result":
            result = message
        elif message["type"] == "bye":
            assert result is not None and message["code"] == "game_over", message
            return result


async def watch_out(client: Checked) -> None:
    """Read until the game's result and the bye that follows it, answering nothing."""
    result = None
    while (message := await client.recv())["type"] != "bye":
        result = message if message["type"] == "result" else result
    assert result is not None and message["code"] == "game_over", message


async def bad_frames_and_messages(url: str) -> None:
    """Mistakes at no table: each gets its error, and the connection carries on (pong)."""
    early = await Checked.connect(url, "early", version=VERSION)  # says hello: a second one is the mistake
    await early.expect_error({"type": "hello", "name": "again", "version": VERSION}, ErrorCode.BAD_MESSAGE)
    await early.expect_error("a text frame", ErrorCode.BAD_FRAME)
    await early.expect_error(msgpack.packb({"type": "ping"}) + b"\x00", ErrorCode.BAD_FRAME)
    await early.expect_error(b"\xc1", ErrorCode.BAD_FRAME)
    await early.expect_error(msgpack.packb({"type": "ping", "pad": "x" * MAX_FRAME}), ErrorCode.TOO_LARGE)
    await early.expect_error({"type": "shout"}, ErrorCode.UNKNOWN_TYPE)
    await early.expect_error({"type": "join"}, ErrorCode.BAD_MESSAGE)
    await early.expect_error({"type": "join", "code": 5}, ErrorCode.BAD_MESSAGE)
    await early.expect_error({"type": "ready", "now": True}, ErrorCode.BAD_MESSAGE)
    await early.expect_error({"type": "ready"}, ErrorCode.NOT_AT_TABLE)
    await early.expect_error({"type": "join", "code": "no-such-code"}, ErrorCode.NO_TABLE)
    await early.expect_error({"type": "watch", "code": "no-such-code"}, ErrorCode.NO_TABLE)
    await early.expect_error({"type": "create_table", "rules": "no-such-rules"}, ErrorCode.BAD_RULES)
    await early.send({"type": "ping", "id": 7})
    assert (await early.until("pong"))["id"] == 7
    await early.close()

    async with open_socket(url, max_size=None) as ws:  # a connection that does not say hello first
        await Checked(ws).expect_error({"type": "ready"}, ErrorCode.HELLO_FIRST)

    wrong = await Checked.connect(url, "old", version=VERSION + 1)
    assert wrong.welcome["type"] == "error" and wrong.welcome["code"] == ErrorCode.VERSION
    await wrong.drain()

    lost = await connect(url, "lost", resume="a-token-that-holds-nothing")
    assert lost.welcome["resumed"] is False
    await lost.until("error", ErrorCode.SEAT_LOST)
    await lost.close()

    flood = await connect(url, "flood")
    ping = msgpack.packb({"type": "ping"})
    for _ in range(5000):  # five times the burst of 1,000, in less than the seconds that would refill it
        await flood.ws.send(ping)
    await flood.until("error", ErrorCode.RATE_LIMITED)
    await flood.drain()


async def too_many_tables(url: str) -> None:
    """One address may have TABLES_PER_ADDRESS open tables; a host who leaves closes its own
    (and its spectator is told)."""
    hosts = [await connect(url, f"host{i}") for i in range(TABLES_PER_ADDRESS)]
    codes = []
    for host in hosts:
        await host.send({"type": "create_table"})
        codes.append((await host.until("table"))["watch"])
    one_more = await connect(url, "one-more")
    await one_more.send({"type": "watch", "code": codes[0]})
    await one_more.until("table")
    await one_more.expect_error({"type": "create_table"}, ErrorCode.TOO_MANY_TABLES)
    for host in hosts:
        await host.send({"type": "leave"})
        left = await host.until("left")
        assert left["seat"] == 0 and left["seat_kept"] is False
        await host.close()
    await one_more.until("bye", "table_closed")
    await one_more.close()


async def seating_mistakes(url: str, host: Checked, table: dict[str, Any], watcher: Checked) -> None:
    """Before the game: what a host, a guest and a spectator may not do."""
    await host.expect_error({"type": "watch", "code": table["watch"]}, ErrorCode.ALREADY_SEATED)
    await host.expect_error({"type": "add_bot", "strategy": "no-such-bot"}, ErrorCode.BAD_STRATEGY)
    await host.expect_error({"type": "add_bot", "seat": 7}, ErrorCode.BAD_SEAT)
    guest = await connect(url, "guest")
    await guest.expect_error({"type": "join", "code": table["watch"]}, ErrorCode.WATCH_CODE)
    await guest.expect_error({"type": "join", "code": table["invite"], "seat": 9}, ErrorCode.BAD_SEAT)
    await guest.expect_error({"type": "join", "code": table["invite"], "seat": 0}, ErrorCode.SEAT_TAKEN)
    await guest.send({"type": "join", "code": table["invite"], "seat": 1})
    assert (await guest.until("table"))["you"] == 1
    await guest.expect_error({"type": "add_bot"}, ErrorCode.NOT_HOST)
    await guest.send({"type": "leave"})
    assert (await guest.until("left"))["seat"] == 1
    await guest.close()
    await watcher.expect_error({"type": "ready"}, ErrorCode.NOT_SEATED)
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.expect_error({"type": "add_bot"}, ErrorCode.TABLE_FULL)


async def game_with_mistakes(url: str) -> None:
    """A host and three bots, no clock, a spectator from the start and one from the middle;
    mistakes in the game; a second client takes the seat over, drops and resumes with `since`."""
    host = await connect(url, "host", client_id="host-terminal")
    await host.send({"type": "create_table", "rules": "tenhou", "clock": {"none": True}})
    table = await host.until("table")
    watcher = await connect(url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    await watcher.until("table")
    await seating_mistakes(url, host, table, watcher)
    watching = asyncio.create_task(watch_out(watcher))
    await host.send({"type": "ready"})
    offer = await host.until("offer")
    await host.expect_error({"type": "act", "decision": offer["decision"] + 5, "action": offer["actions"][0]},
                            ErrorCode.STALE_DECISION)
    await host.expect_error({"type": "act", "decision": offer["decision"], "action": {"type": "ron"}},
                            ErrorCode.ILLEGAL_ACTION)
    late = await connect(url, "late")
    await late.expect_error({"type": "join", "code": table["invite"]}, ErrorCode.IN_PLAY)
    await late.send({"type": "watch", "code": table["watch"]})
    assert "you" not in (await late.until("snapshot"))["view"]  # a spectator's picture: the public part
    await late.expect_error({"type": "act", "decision": 1, "action": {"type": "pass"}}, ErrorCode.NOT_SEATED)
    late_watching = asyncio.create_task(watch_out(late))

    other = await Checked.connect(url, "host", resume=host.resume_token, client_id="another-terminal")
    assert other.welcome["code"] == ErrorCode.SEAT_IN_USE
    await other.send({"type": "hello", "name": "host", "version": VERSION, "resume": host.resume_token,
                      "client": "another-terminal", "takeover": True})
    assert (await other.until("welcome"))["resumed"] is True
    await host.until("bye", "replaced")
    await host.close()
    offer = await other.until("offer")  # without `since`: table, snapshot, the open offer
    seq = offer["seq"]
    await other.close()  # away while the game waits for it: nothing is missed but the table's news
    back = await connect(url, "host", resume=host.resume_token, since=seq, client_id="another-terminal")
    assert (await back.until("catchup"))["replay"] is True
    await play_out(back)
    await asyncio.wait_for(asyncio.gather(watching, late_watching), RECV_SECONDS)
    for client in (back, watcher, late):
        await client.close()


async def game_played_for(url: str) -> None:
    """A host who never answers, on a clock of 50 ms: an offer and a timeout each decision;
    away for longer than the history reaches, it resumes from a snapshot, then with a
    `since` the table never reached.  (The game lasts about ten seconds: time to come back.)"""
    host = await connect(url, "sleeper")
    await host.send({"type": "create_table", "rules": "ema2016",
                     "clock": {"per_decision": 0.05, "bank": 0, "between_hands": 0}})
    table = await host.until("table")
    watcher = await connect(url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    await watcher.until("table")
    for _ in range(3):
        await host.send({"type": "add_bot"})
    await host.send({"type": "ready"})
    seq = (await host.until("timeout"))["seq"]
    await host.close()
    while (await watcher.recv()).get("seq", 0) < seq + 2 * HISTORY:  # the table plays on for the seat
        pass
    back = await connect(url, "sleeper", resume=host.resume_token, since=seq)
    assert (await back.until("catchup"))["reason"] == "history"
    await back.until("snapshot")
    await back.close()
    again = await connect(url, "sleeper", resume=host.resume_token, since=10**9)
    assert (await again.until("catchup"))["reason"] == "unknown_seq"
    await asyncio.gather(watch_out(again), watch_out(watcher))  # every offer times out at once
    for client in (again, watcher):
        await client.close()


async def a_rematch(url: str) -> None:
    """A short game whose guest left it (still connected); the host, who played it out, asks
    for its rematch and the guest is offered it; a rematch of no game is refused."""
    host = await connect(url, "host")
    await host.send({"type": "create_table", "rules": "tenhou", "overrides": {"rounds": 1}, "clock": {"none": True}})
    table = await host.until("table")
    guest = await connect(url, "guest")
    await guest.send({"type": "join", "code": table["invite"]})
    await guest.until("table")
    for _ in range(2):
        await host.send({"type": "add_bot"})
    for client in (host, guest):
        await client.send({"type": "ready"})
    await guest.until("event")
    await guest.send({"type": "leave"})
    await guest.until("left")
    result = await play_out(host)
    await host.send({"type": "rematch", "game": result["game"]})
    assert (await host.until("table"))["you"] == 0
    assert (await guest.until("rematch_offered"))["seat"] == 1
    await guest.expect_error({"type": "rematch", "game": 10**6}, ErrorCode.NO_GAME)
    for client in (host, guest):
        await client.close()


async def a_reserved_seat(server: Any) -> None:
    """A table the server opened from a spec keeps a seat for its player: another is refused."""
    spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-someone"), *(SeatSpec.bot(),) * 3))
    table = server.app.lobby.open_table(spec)
    other = await connect(server.url, "other")
    await other.send({"type": "join", "code": table.invite})
    assert (await other.until("error"))["code"] == "seat_reserved"
    await other.close()
async def a_timed_table(server: Any) -> None:
    """A timed table's players are told its session clock, and when the time is up."""
    spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.open(), *(SeatSpec.bot(),) * 3), session=Session(0.5))
    table = server.app.lobby.open_table(spec)
    player = await connect(server.url, "timed")
    await player.send({"type": "join", "code": table.invite})
    await player.send({"type": "ready"})
    assert (await player.until("session"))["session"]["time_up"]
    await player.close()


async def players_and_renames(url: str) -> None:
    """A hello with a player key is welcomed as that player, who renames itself; a client
    with no key has no player to rename; a bad key is refused."""
    ann = await connect(url, "ann", player_key="k" * 24)
    assert ann.welcome["player"]["name"] == "ann"
    await ann.send({"type": "rename", "name": "Ann S."})
    assert (await ann.until("player"))["name"] == "Ann S."
    nobody = await connect(url, "nobody")
    await nobody.expect_error({"type": "rename", "name": "x"}, ErrorCode.NO_PLAYER)
    short = await Checked.connect(url, "x", player_key="short")
    assert (short.welcome["code"], short.welcome["message"]) == (
        "bad_message", "hello.player: a player key is 16 to 128 printable characters: make one at random and keep it")
    for client in (ann, nobody, short):
        await client.close()


async def an_event_registration(server: Any) -> None:
    """A player registers for an event by its link's token (event_registered); a token that is no
    event's is refused with `registration`."""
    event, token = await service.create_event(server.app.lobby.store, EventSpec("frames cup"))
    bea = await connect(server.url, "bea", player_key="b" * 24)
    await bea.send({"type": "register_event", "event": event.id, "token": token, "name": "Bea"})
    answer = await bea.until("event_registered")
    assert (answer["event_name"], answer["player"]["name"], answer["added"]) == ("frames cup", "Bea", True)
    await bea.expect_error({"type": "register_event", "event": event.id, "token": "wrong"}, ErrorCode.REGISTRATION)
    await bea.close()


async def a_ladder(server: Any) -> None:
    """Two bots join a ladder and are each told the table of their first game (a set with two of
    the server's bots: --ladder-gather 0), which they do not take: they are dropped from the queue
    and told; an unknown ladder, and a client with no player key, are refused."""
    from server.ladder.ladder import Ladder

    await server.app.lobby.store.add_ladder(Ladder("frames").row())
    bots = [await connect(server.url, f"bot{i}", bot=True, player_key=f"{i}" * 24) for i in range(2)]
    await bots[0].expect_error({"type": "ladder_join", "ladder": "nope"}, ErrorCode.NO_LADDER)
    nobody = await connect(server.url, "nobody")
    await nobody.expect_error({"type": "ladder_join", "ladder": "frames"}, ErrorCode.NO_PLAYER)
    for bot in bots:
        await bot.send({"type": "ladder_join", "ladder": "frames"})
        assert (await bot.until("ladder_joined"))["ladder"] == "frames"
    for bot in bots:
        assert (await bot.until("ladder_table"))["set"] == 1
    for bot in bots:  # neither takes its seat (--ladder-join-wait): both are out of the queue, and told
        await bot.until("error", ErrorCode.LADDER_DROPPED)
    for client in (*bots, nobody):
        await client.close()


@pytest.mark.server("--history", str(HISTORY), "--tables-per-address", str(TABLES_PER_ADDRESS),
                    "--ladder-poll", "0.1", "--ladder-gather", "0", "--ladder-join-wait", "0.5")
@pytest.mark.asyncio
async def test_every_frame_the_server_sends_in_whole_games_and_mistakes_is_one_the_protocol_defines(in_process_server):
    seen = Checked.seen = Seen()
    await bad_frames_and_messages(in_process_server.url)
    await too_many_tables(in_process_server.url)
    await asyncio.wait_for(asyncio.gather(game_with_mistakes(in_process_server.url), game_played_for(in_process_server.url)), 240)
    await asyncio.wait_for(a_rematch(in_process_server.url), 120)
    await asyncio.wait_for(a_reserved_seat(in_process_server), 30)
    await asyncio.wait_for(a_timed_table(in_process_server), 30)
    await players_and_renames(in_process_server.url)
    await an_event_registration(in_process_server)
    await asyncio.wait_for(a_ladder(in_process_server), 30)
    idle = await connect(in_process_server.url, "idle")
    stopping = asyncio.create_task(in_process_server.stop_async())  # a bye to a connection at no table: no seq
    assert (await idle.until("bye"))["code"] == "server_restarting"
    await idle.drain()
    assert await stopping == 0

    assert set(seen.types) == set(SERVER_MESSAGES), f"not every message type came: {seen.types}"
    assert set(EVENTS) - set(seen.events) <= {"call", "riichi_accepted", "dora"}, seen.events
    assert seen.byes.keys() >= {"game_over", "replaced", "table_closed", "server_restarting"}, seen.byes
    assert seen.catchups.keys() == {"replay", "history", "unknown_seq"}, seen.catchups
    # closing is a race with a stopping server, no_seat unreachable from outside, internal a bug, unavailable a
    # node of several whose Redis is away (tests/cluster/test_redis_outage.py), unknown_player a server with
    # --require-player-key (tests/server/test_players.py)
    assert set(seen.errors) >= set(ErrorCode) - {ErrorCode.CLOSING, ErrorCode.NO_SEAT, ErrorCode.INTERNAL,
                                                 ErrorCode.UNAVAILABLE, ErrorCode.UNKNOWN_PLAYER}, \
        f"not every error came: {seen.errors}"
    print(f"\nframes checked: {sum(seen.types.values())} {dict(seen.types)}\nevents {dict(seen.events)}"
          f"\nerrors {dict(seen.errors)}\nbyes {dict(seen.byes)}")
