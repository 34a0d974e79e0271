"""The mjai bridge end to end: a real riichi-server process, mjai bots in processes of
their own seated through the bridge (the SDK runner, and `riichi-bot --mjai`), whole games
to the end, in both forms; bad bots at a table with a clock; what each bot was given
checked against the stored game."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from client_cli.bot.sdk import play
from client_cli.mjai.bridge import MjaiBot
from server.game.export_mjai import events_to_mjai, mjai_for_seat
from server.store import SqliteFile
from tests.client_cli.mjai_support import EXAMPLE_BOT, bad_bot, check_no_leak

# one server for the module (a test that stops it has its own); the tests fail if it logged an error
pytestmark = pytest.mark.server(checked=True, shared=True)

RIICHI_BOT = Path(sys.executable).parent / "riichi-bot"


async def new_table(bots, url, **options):
    """The first bot creates a table, the others join with its invite code; all results.
    The bots are closed at the end (their processes given the end of the game)."""
    invite = asyncio.get_running_loop().create_future()

    def on_table(message):
        if "invite" in message and not invite.done():
            invite.set_result(message["invite"])

    try:
        host = asyncio.create_task(play(bots[0], url, on_table=on_table, server_bots=4 - len(bots), timeout=30,
                                        **options))
        code = await asyncio.wait_for(invite, 10)
        others = [asyncio.create_task(play(b, url, code=code, timeout=30)) for b in bots[1:]]
        return await asyncio.wait_for(asyncio.gather(host, *others), 300)
    finally:
        for bot in bots:
            await bot.close()


def stored(server, game_id: int):
    store = SqliteFile(server.db)
    try:
        record = store.record(game_id)
    finally:
        store.close()
    _, events = record.replay_events()
    return record, events


@pytest.mark.asyncio
async def test_example_bots_in_both_forms_play_a_whole_game_through_the_server(server):
    # The batch bots are started as competitions start them, with their seat ({seat}).
    bots = [MjaiBot(EXAMPLE_BOT + (" --batch {seat}" if i % 2 else ""), name=f"mjai-{i}", batch=bool(i % 2),
                    timeout=10) for i in range(4)]
    results = await new_table(bots, server.url, rules="tenhou")
    assert len({r.game for r in results}) == 1 and all(r.final == results[0].final is not None for r in results)
    record, events = stored(server, results[0].game)
    full = events_to_mjai(events, record.rules)
    assert {"5mr", "5pr", "5sr"} & {e.get("pai") for e in full}
    for bot, result in zip(bots, results):
        assert not result.invalid and not bot.problems
        # every decision its seat was asked: as many as the stored game has of that seat (a game on
        # random walls may end at a bust after two hands)
        stored_decisions = sum(seat == result.seat for seat, _ in record.decisions)
        assert bot.stats["answered"] == bot.stats["decisions"] == result.decisions == stored_decisions > 0
        # What the bot was given is the stored game as its seat may see it, end_game included.
        assert bot.bridge.sent == mjai_for_seat(full, result.seat)
        check_no_leak(bot.bridge.sent, result.seat, events)
        assert bot.bridge.process.returncode == 0
        if bot.bridge.batch:
            assert bot.bridge.process.command.endswith(f" --batch {result.seat}")


@pytest.mark.asyncio
async def test_bad_bots_are_played_for_and_the_table_with_a_clock_finishes(server, tmp_path):
    """Garbage, illegal answers, answers later than the bridge waits, a bot that exits:
    each is logged and played for within the server's clock, and the game ends."""
    bots = [MjaiBot(bad_bot(tmp_path, "garbage", False), name="garbage", timeout=5),
            MjaiBot(bad_bot(tmp_path, "illegal", True), name="illegal", batch=True, timeout=5),
            MjaiBot(bad_bot(tmp_path, "slow", False, slow=0.8), name="slow", timeout=0.3, first_timeout=5),
            MjaiBot(bad_bot(tmp_path, "exit", True), name="exit", batch=True, timeout=5)]
    results = await new_table(bots, server.url, rules="ema2016", clock={"per_decision": 5, "bank": 20, "between_hands": 0})
    assert all(r.final is not None and r.final == results[0].final for r in results)
    garbage, illegal, slow, exited = (b.stats for b in bots)
    assert garbage["illegal"] >= 2 and illegal["illegal"] >= 2 and slow["late"] >= 2 and exited["dead"] == 1
    assert slow["illegal"] == 0  # a late answer never gets taken for a later one
    for bot, result in zip(bots, results):
        assert not result.invalid  # the bridge gives the runner only offered actions
        assert bot.problems and bot.stats["decisions"] == result.decisions
    _, events = stored(server, results[0].game)
    for bot, result in zip(bots, results):
        check_no_leak(bot.bridge.sent, result.seat, events)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_longer_run_of_games_in_both_forms(server):
    """Ten more whole games of four example bots (two in each form), both presets."""
    for rules in ("ema2016", "tenhou") * 5:
        bots = [MjaiBot(EXAMPLE_BOT + (" --batch" if i >= 2 else ""), name=f"m{i}", batch=i >= 2, timeout=10)
                for i in range(4)]
        results = await new_table(bots, server.url, rules=rules)
        record, events = stored(server, results[0].game)
        full = events_to_mjai(events, record.rules)
        for bot, result in zip(bots, results):
            assert not bot.problems and bot.bridge.sent == mjai_for_seat(full, result.seat)


@pytest.mark.parametrize("form", ["line", "batch"])
def test_riichi_bot_mjai_plays_a_whole_game(server, form):
    """`riichi-bot --mjai COMMAND [--mjai-batch]`: four example bots in either form at a new table
    (a bot in the other form than the bridge's would answer nothing usable and be played for)."""
    batch = ["--mjai-batch"] if form == "batch" else []
    command = EXAMPLE_BOT + (" --batch" if form == "batch" else "")
    done = subprocess.run([str(RIICHI_BOT), "--server", server.url, "--new-table", "--rules", "tenhou",
                           "--mjai", command, *batch], check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    game_id = int(done.stdout.split()[0])
    record, _ = stored(server, game_id)
    assert record.replay().final is not None
    assert "played" not in done.stderr, done.stderr  # no answer of the bots had to be played for them


class DroppingMjai(MjaiBot):
    """An mjai bot whose connection is cut (no closing handshake) after some of its discards."""

    def __init__(self, command, at, **options):
        super().__init__(command, **options)
        self.at, self.discards, self.runner = set(at), 0, None

    def on_event(self, event, view):
        super().on_event(event, view)
        if event["type"] == "discard" and event["seat"] == view["you"]["seat"]:
            self.discards += 1
            if self.discards in self.at:
                self.runner.client.ws.transport.abort()


@pytest.mark.server("--history", "1", checked=True)
@pytest.mark.asyncio
async def test_after_a_resume_from_a_snapshot_the_bot_sits_out_the_hand_and_plays_on(server):
    """The table plays for the seat while it is away and keeps one broadcast, so the seat
    comes back through a snapshot: the bridge notices the events it missed, plays for the
    bot to the end of that hand, and gives it the next hand from its start."""
    from client_cli.bot.sdk import Runner

    bot = DroppingMjai(EXAMPLE_BOT, at=(3, 20, 21, 50), timeout=0.4, first_timeout=0.4)
    runner = Runner(bot, server.url, server_bots=3, clock={"per_decision": 0.5, "bank": 0, "between_hands": 0},
                    timeout=30, backoff=2.0)
    bot.runner = runner
    try:
        result = await asyncio.wait_for(runner.run(), 180)
    finally:
        await bot.close()
    assert result.final is not None and "history" in result.catchups and not result.invalid
    stats = bot.stats
    assert stats["gaps"] >= 1 and stats["illegal"] == 0 and stats["answered"] > 30
    starts = [i for i, m in enumerate(bot.bridge.sent) if m["type"] == "start_kyoku"]
    ends = [i for i, m in enumerate(bot.bridge.sent) if m["type"] == "end_kyoku"]
    assert len(ends) >= len(starts) - 1  # each hand the bot was given was closed, the cut ones too


def _path_with_a_python_that_lacks_the_project(tmp_path) -> dict:
    """An environment whose `python` is another interpreter, without this project (the report:
    from another folder, `python -m client_cli.mjai.example_bot` failed with No module named
    'client_cli')."""
    import os

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python"
    fake.write_text("#!/bin/sh\necho \"$0: No module named 'client_cli'\" >&2\nexit 1\n")
    fake.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}"}


def riichi_bot_elsewhere(server, tmp_path, mjai_command: str) -> subprocess.CompletedProcess:
    """riichi-bot with one mjai bot at a new table, run from a folder outside the repository
    with a `python` on PATH that lacks the project."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return subprocess.run([str(RIICHI_BOT), "--server", server.url, "--new-table", "--rules", "tenhou", "--count", "1",
                           "--mjai", mjai_command], cwd=folder,
                          env=_path_with_a_python_that_lacks_the_project(tmp_path), check=False, capture_output=True,
                          text=True, timeout=300)


def test_the_example_bot_command_with_python_placeholder_runs_from_any_folder(server, tmp_path):
    """docs/mjai.md: `--mjai "{python} -m client_cli.mjai.example_bot"`: {python} is riichi-bot's own
    interpreter, so the example runs from any folder, whatever `python` on PATH is."""
    done = riichi_bot_elsewhere(server, tmp_path, "{python} -m client_cli.mjai.example_bot")
    assert done.returncode == 0, done.stderr
    assert "played" not in done.stderr and "No module" not in done.stderr, done.stderr
    assert stored(server, int(done.stdout.split()[0]))[0].replay().final is not None


def test_a_bot_that_dies_at_start_up_is_one_line_and_a_non_zero_exit(server, tmp_path):
    """The bot could not start (here: the report's `python` without the project): riichi-bot
    played its seat for it and exited 0; now its own report is one line, exit status 2."""
    done = riichi_bot_elsewhere(server, tmp_path, "python -m client_cli.mjai.example_bot")
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    ours = [line for line in done.stderr.splitlines() if line.startswith("riichi-bot:")
            and not line.startswith("riichi-bot: watch in a browser: ")]  # the table's link, printed first
    assert len(ours) == 1, done.stderr
    assert ours[0].startswith("riichi-bot: mjai bot in seat 0 (python -m client_cli.mjai.example_bot) died at "
                              "start-up, before its first answer: ")
    assert "exit status 1" in ours[0] and ours[0].endswith("; its seat was played for")
