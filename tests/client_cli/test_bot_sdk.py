"""The bot SDK (client_cli/bot/sdk.py) against a real riichi-server process: bots play
whole games over websockets, resume after a dropped connection (from the history or from
a snapshot), survive a bot that answers what it was not offered, and the example in docs/bots.md
bot plays a game."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from client_cli.bot.sdk import Bot, BotError, Runner, play
from client_cli.bot.strategies import BuiltinBot, RandomBot
from server.store import SqliteFile

pytestmark = pytest.mark.server(checked=True)  # the test fails if the server logged an error

ROOT = Path(__file__).resolve().parents[2]


async def _new_table(bots, url, **options):
    """The first bot creates a table, the others join with its invite code; all results."""
    invite = asyncio.get_running_loop().create_future()

    def on_table(message):
        if "invite" in message and not invite.done():
            invite.set_result(message["invite"])

    host = asyncio.create_task(play(bots[0], url, on_table=on_table, server_bots=4 - len(bots), timeout=30,
                                    **options))
    code = await asyncio.wait_for(invite, 10)
    others = [asyncio.create_task(play(b, url, code=code, timeout=30)) for b in bots[1:]]
    return await asyncio.wait_for(asyncio.gather(host, *others), 120)


class Recording(BuiltinBot):
    """The built-in bot, recording what it was asked and what it answered."""

    def __init__(self, name):
        self.name = name
        self.asked: list[tuple[list[dict], dict]] = []
        self.events = 0

    async def decide(self, view, actions):
        answer = await super().decide(view, actions)
        self.asked.append((actions, answer))
        return answer

    def on_event(self, event, view):
        self.events += 1


@pytest.mark.asyncio
async def test_four_sdk_bots_play_a_whole_game_and_every_answer_is_an_offered_action(server):
    bots = [Recording(f"b{i}") for i in range(4)]
    results = await _new_table(bots, server.url, rules="tenhou")
    finals = {r.game for r in results}
    assert len(finals) == 1 and None not in finals
    assert all(r.final is not None and r.final == results[0].final for r in results)
    assert sorted(r.seat for r in results) == [0, 1, 2, 3]
    store = SqliteFile(server.db)
    try:  # the game the bots played is stored, and its record replays to their result
        assert results[0].game in [g.id for g in store.games(finished=True)]
        record = store.record(results[0].game)
        for bot, result in zip(bots, results):  # each asked every decision its seat has in the record
            stored = sum(seat == result.seat for seat, _ in record.decisions)
            assert not result.invalid and result.decisions == len(bot.asked) == stored > 0 and bot.events > 100
            assert all(answer in actions for actions, answer in bot.asked)
        game = record.replay()
        assert game.final["scores"] == results[0].final["scores"]
    finally:
        store.close()


class Dropping(BuiltinBot):
    """Cuts its own connection (no closing handshake) right after some of its own discards,
    so that the table plays on without it for a while."""

    def __init__(self, at):
        self.at, self.discards, self.runner = set(at), 0, None

    def on_event(self, event, view):
        if event["type"] == "discard" and event["seat"] == view["you"]["seat"]:
            self.discards += 1
            if self.discards in self.at:
                self.runner.client.ws.transport.abort()


async def _play_dropping(url, clock=None, backoff=0.1):
    """One bot and three server bots; the bot drops its connection four times."""
    bot = Dropping(at=(3, 20, 21, 50))
    runner = Runner(bot, url, server_bots=3, clock=clock or {"none": True}, timeout=30, backoff=backoff)
    bot.runner = runner
    result = await asyncio.wait_for(runner.run(), 120)
    return bot, runner, result


@pytest.mark.asyncio
async def test_a_bot_whose_connection_drops_resumes_with_its_token_and_finishes_the_game(server):
    bot, runner, result = await _play_dropping(server.url)
    assert result.final is not None and result.reconnects >= 3
    assert result.catchups == ["replay"] * result.reconnects  # each time the missed broadcasts came again
    assert not result.invalid  # its view stayed right: every answer after a resume was legal


@pytest.mark.server("--history", "1", checked=True)
@pytest.mark.asyncio
async def test_a_bot_resumes_from_a_snapshot_when_the_history_no_longer_reaches_back(server):
    # With a clock, the table plays for the seat while it is away (half a second a decision), so it
    # misses more than the one broadcast the server keeps: a snapshot, and play goes on.
    bot, runner, result = await _play_dropping(server.url, {"per_decision": 0.5, "bank": 0, "between_hands": 0},
                                               backoff=2.0)
    assert result.final is not None and result.reconnects >= 3 and not result.invalid
    assert "history" in result.catchups  # at least once the seat came back through a snapshot


class Signalling(BuiltinBot):
    """Sets `reached` once it has seen `at` events."""

    def __init__(self, at):
        self.at, self.events, self.reached = at, 0, asyncio.Event()

    def on_event(self, event, view):
        self.events += 1
        if self.events == self.at:
            self.reached.set()


@pytest.mark.asyncio
async def test_a_bot_waits_out_a_server_restart_and_finishes_its_game(server):
    bot = Signalling(at=150)
    runner = asyncio.create_task(play(bot, server.url, server_bots=3, clock={"none": True}, timeout=60))
    await asyncio.wait_for(bot.reached.wait(), 60)
    assert await server.stop_async() == 0  # SIGTERM: byes, the game stays stored
    await asyncio.sleep(0.5)
    await asyncio.to_thread(server.start)
    result = await asyncio.wait_for(runner, 120)
    assert result.final is not None and result.reconnects >= 1 and not result.invalid
    assert "restart" in result.catchups  # it came back through a snapshot of the replayed game


@pytest.mark.asyncio
async def test_a_bot_whose_server_stays_away_logs_that_it_seems_gone_and_keeps_trying(server, monkeypatch, caplog):
    """Issue 14: after a while of failed reconnects the SDK's log says so, once, with the
    server's address, and goes on trying until its retries are spent."""
    from client_cli.bot import sdk

    monkeypatch.setattr(sdk, "GONE_AFTER", 0.5)
    bot = Signalling(at=20)
    runner = asyncio.create_task(play(bot, server.url, server_bots=3, clock={"none": True}, retries=6, backoff=0.1))
    await asyncio.wait_for(bot.reached.wait(), 60)
    assert await server.stop_async() == 0  # a bye with code server_restarting: it waits for the server
    with caplog.at_level("INFO", logger="riichi_bot"), pytest.raises(BotError, match="could not resume"):
        await asyncio.wait_for(runner, 60)
    gone = [r.getMessage() for r in caplog.records if "seems gone" in r.getMessage()]
    assert len(gone) == 1 and server.url in gone[0] and "still trying" in gone[0]


class Wrong(Bot):
    """Answers a tile it was not offered, or fails, on every other discard."""

    name = "wrong"
    turns = 0

    def discard(self, view, tiles):
        self.turns += 1
        if self.turns % 2:
            return 999  # never a tile id
        raise RuntimeError("a bug in the bot")


@pytest.mark.asyncio
async def test_a_bot_answering_what_it_was_not_offered_or_failing_is_logged_and_the_default_is_played(server, caplog):
    result = await asyncio.wait_for(play(Wrong(), server.url, server_bots=3, timeout=30), 120)
    assert result.final is not None
    wrong = [e for e in result.invalid if "discard() answered 999" in e]
    failed = [e for e in result.invalid if e == "RuntimeError: a bug in the bot"]
    assert wrong and failed and len(wrong) + len(failed) == len(result.invalid)
    assert "not one of the offered tiles" in caplog.text and "a bug in the bot" in caplog.text


@pytest.mark.asyncio
async def test_bad_invite_code_and_server_down_raise_clear_errors(server):
    with pytest.raises(BotError, match="no_table"):
        await play(RandomBot(1), server.url, code="no-such-code", timeout=10)
    with pytest.raises(BotError, match="cannot connect to ws://127.0.0.1:1.*refused"):
        await play(RandomBot(1), "ws://127.0.0.1:1")


@pytest.mark.asyncio
async def test_random_sdk_bots_play_a_whole_game_with_the_server_builtin_bots(server):
    results = await _new_table([RandomBot(3)], server.url, server_strategy="builtin")
    assert results[0].final is not None and not results[0].invalid


def test_the_readme_example_bot_plays_a_whole_game(server):
    example = ROOT / "examples" / "simple_bot.py"
    assert len(example.read_text().splitlines()) < 50
    out = subprocess.run([sys.executable, str(example), server.url], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("game ") and "scores [" in out.stdout


@pytest.mark.asyncio
async def test_an_sdk_bot_says_it_is_a_bot_and_its_seat_shows_as_a_program(server):
    tables: list[dict] = []
    runner = Runner(Recording("sdk"), server.url, server_bots=3, clock={"none": True}, timeout=30,
                    on_table=tables.append)
    result = await asyncio.wait_for(runner.run(), 120)
    assert result.final is not None and tables
    seat = tables[-1]["seats"][result.seat]
    assert seat["kind"] == "human" and seat["program"] is True
    assert not any(s["program"] for i, s in enumerate(tables[-1]["seats"]) if i != result.seat)
