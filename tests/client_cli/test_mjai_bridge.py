"""The mjai bridge (client_cli.mjai.bridge) driving real bot processes at engine games:
the example bot in both forms plays whole games with no answer lost; bots that answer
garbage, illegal actions, too late, nothing at all, or exit, are played for and the game
goes to its end."""

from __future__ import annotations

import asyncio
import random
import sys
import time

import pytest

from client_cli.mjai.bridge import MjaiBot, MjaiBridge
from server.game.actions import action_from_data, action_to_data
from server.game.engine import Game
from server.game.export_mjai import events_to_mjai, mjai_for_seat
from server.rules.config import EMA2016, TENHOU
from tests.client_cli.mjai_support import EXAMPLE_BOT, bad_bot, check_no_leak, greedy_player

pytestmark = pytest.mark.asyncio

async def bridge_game(rules, number: int, bridges: dict[int, MjaiBridge]):
    """A whole engine game: the bridged seats answer through their bots, the others are
    simple players.  Every action the bridge gives must be one of the offered maps."""
    rng = random.Random(number)
    game = Game(rules, seed=f"mjai bridge game {number}".encode())
    events = list(game.start_events)

    def feed(new):
        for e in new:
            for seat, bridge in bridges.items():
                bridge.feed(e.for_seat(seat), seat)

    feed(events)
    try:
        while not game.over:
            seat = game.waiting_for()[0]
            if seat in bridges:
                actions = [action_to_data(a) for a in game.legal_actions(seat)]
                action = await bridges[seat].answer(actions)
                assert any(action is a for a in actions), (action, actions)
                action = action_from_data(action)
            else:
                action = greedy_player(game, seat, rng)
            new = game.apply(seat, action)
            events += new
            feed(new)
    finally:
        for bridge in bridges.values():
            await bridge.close()
    return game, events


@pytest.mark.parametrize("batch", [False, True], ids=["line", "batch"])
async def test_four_example_bots_play_whole_games_with_every_answer_used(batch):
    for rules, number in [(TENHOU, 1), (EMA2016, 2)]:
        command = EXAMPLE_BOT + (" --batch" if batch else "")
        bridges = {s: MjaiBridge(command, batch=batch, timeout=10) for s in range(4)}
        game, events = await bridge_game(rules, number, bridges)
        assert game.final is not None
        full = events_to_mjai(events, rules)
        kinds = set()
        for seat, bridge in bridges.items():
            assert bridge.problems == []
            assert bridge.stats["answered"] == bridge.stats["decisions"] > 50
            assert bridge.sent == mjai_for_seat(full, seat)  # end_game included, given at close
            check_no_leak(bridge.sent, seat, events)
            assert bridge.process.returncode == 0  # it left by itself at the end of its input
            kinds |= {e["type"] for e in bridge.sent}
        assert {"reach", "reach_accepted", "hora"} <= kinds
        wins = [w for r in game.results if r["type"] == "win" for w in r["wins"]]
        assert any(w["tsumo"] for w in wins) and any(not w["tsumo"] for w in wins)


async def test_the_wrong_form_is_a_dead_bot_and_the_game_goes_on():
    """A batch bot run in the line form (or the other way round) exits at once; it is played for."""
    bridges = {0: MjaiBridge(EXAMPLE_BOT + " --batch", batch=False, timeout=5),
               2: MjaiBridge(EXAMPLE_BOT, batch=True, timeout=5)}
    game, _ = await bridge_game(TENHOU, 3, bridges)
    assert game.final is not None
    for bridge in bridges.values():
        assert bridge.stats["dead"] == 1 and bridge.stats["answered"] == 0
        assert bridge.stats["dead_again"] == bridge.stats["decisions"] - 1 > 20
        assert "the bot is gone" in bridge.problems[0]


@pytest.mark.parametrize("batch", [False, True], ids=["line", "batch"])
@pytest.mark.parametrize("mode", ["garbage", "illegal", "slow", "exit", "silent"])
async def test_a_bad_bot_is_played_for_and_the_game_finishes(tmp_path, mode, batch):
    timeout = 0.3 if mode in ("slow", "silent") else 5.0
    bridge = MjaiBridge(bad_bot(tmp_path, mode, batch, slow=0.8), batch=batch, timeout=timeout,
                        first_timeout=1 if mode == "silent" else 5, give_up_after=4)
    game, events = await asyncio.wait_for(bridge_game(TENHOU, 4, {1: bridge}), 120)
    assert game.final is not None
    stats = bridge.stats
    assert bridge.problems and len(bridge.problems) == stats["decisions"] - stats["answered"]
    if mode == "garbage":
        assert stats["illegal"] >= 3 and stats["answered"] > 20 and stats["late"] == stats["dead"] == 0
        assert any("not JSON" in p for p in bridge.problems) and any("not an mjai map" in p for p in bridge.problems)
    elif mode == "illegal":
        assert stats["illegal"] >= 3 and stats["answered"] > 20 and stats["late"] == stats["dead"] == 0
        assert any("dahai of" in p for p in bridge.problems)
    elif mode == "slow":
        # Late answers are read and dropped before the next ones: the bot stays in step,
        # so nothing it says later is taken for an illegal answer.
        assert stats["late"] >= 3 and stats["answered"] > 20 and stats["illegal"] == stats["dead"] == 0
    elif mode == "exit":
        assert stats["dead"] == 1 and stats["dead_again"] > 10 and stats["answered"] >= 8
    elif mode == "silent":
        assert stats["late"] == 3 and stats["dead"] == 1 and stats["answered"] == 0
        assert "hung" in bridge.problems[3]
    assert bridge.process.returncode is not None  # ended, whatever it did
    check_no_leak(bridge.sent, 1, events)


async def test_a_command_that_does_not_run_is_a_dead_bot(tmp_path):
    bridge = MjaiBridge(str(tmp_path / "no-such-bot"), timeout=2)
    game, _ = await bridge_game(EMA2016, 5, {3: bridge})
    assert game.final is not None and bridge.stats["dead"] == 1 and bridge.stats["answered"] == 0


async def test_mjai_bot_is_an_sdk_bot_fed_by_its_view():
    """MjaiBot takes the seat from the view the SDK runner passes with each event."""
    Bot = pytest.importorskip("client_cli.bot.sdk").Bot
    bot = MjaiBot(EXAMPLE_BOT, name="ex", timeout=10)
    assert isinstance(bot, Bot) and bot.name == "ex"
    game = Game(TENHOU, seed=b"sdk")
    for e in game.start_events:
        bot.on_event(e.for_seat(0), {"you": {"seat": 0}})
    actions = [action_to_data(a) for a in game.legal_actions(0)]
    action = await bot.decide({"you": {"seat": 0}}, actions)
    assert action in actions and bot.stats["answered"] == 1
    assert bot.bridge.sent[0] == {"type": "start_game", "names": ["A", "B", "C", "D"], "id": 0}
    assert await bot.close() == 0


async def test_after_missed_events_the_bot_sits_out_the_hand_and_comes_back_at_the_next():
    """As after a resume from a snapshot: the SDK's view (SeatState) jumps ahead of the
    events the bridge saw.  The bridge notices, plays for the bot to the end of the hand,
    and gives it the next hand from its start; it then answers again, legally."""
    from client_cli.seat_state import SeatState
    from server.game.views import seat_view

    rng = random.Random(7)
    game = Game(TENHOU, seed=b"mjai gap")
    bot = MjaiBot(EXAMPLE_BOT, timeout=10)
    state = SeatState(2)
    hands, seen, answered_before = 0, 0, None
    away = False

    def feed(new):
        nonlocal hands, seen, away
        for e in new:
            hands += e.type == "hand_start"
            seen += hands == 2
            was_away, away = away, hands == 2 and 10 <= seen < 40  # the connection is down: nothing comes
            if away:
                continue
            if was_away:  # back, with a snapshot of the game as it is now
                state.load_snapshot(seat_view(game, 2))
                break
            state.apply(e.for_seat(2))
            bot.on_event(e.for_seat(2), state.view)

    feed(game.start_events)
    try:
        while not game.over:
            seat = game.waiting_for()[0]
            if seat == 2 and not away:
                actions = [action_to_data(a) for a in game.legal_actions(2)]
                action = await bot.decide(state.view, actions)
                assert action in actions
                action = action_from_data(action)
            else:
                action = greedy_player(game, seat, rng)
            if hands == 3 and answered_before is None:
                answered_before = bot.stats["answered"]
            feed(game.apply(seat, action))
    finally:
        await bot.close()
    stats = bot.stats
    assert stats["gaps"] == 1 and stats["sat_out"] >= 1 and stats["illegal"] == stats["late"] == stats["dead"] == 0
    assert stats["answered"] > answered_before + 10  # it plays the later hands itself
    sent = bot.bridge.sent
    starts = [i for i, m in enumerate(sent) if m["type"] == "start_kyoku"]
    assert sent[starts[2] - 1] == {"type": "end_kyoku"}  # the interrupted hand is closed first
    assert sent[-1] == {"type": "end_game"}


async def test_a_bot_that_reads_nothing_never_blocks_the_sender():
    """Writing to a bot that does not read stops at the deadline (a full pipe never waits
    longer), and closing ends it."""
    from client_cli.mjai.process import BotProcess

    process = BotProcess("exec sleep 60")
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(TimeoutError):
        for _ in range(20):
            await process.send("x" * 100_000, start + 0.3)
    assert loop.time() - start < 3.0 and process.owed >= 1  # the 0.3 s deadline, not the bot's minute
    with pytest.raises(TimeoutError):
        await process.read(loop.time() + 0.1)
    await process.close(grace=0.2)
    assert process.returncode is not None and loop.time() - start < 4.0


async def test_a_bot_gets_no_longer_than_the_tables_clock_leaves(tmp_path):
    """A bot slower than the table's clock: the bridge gives up on it before the server would
    play for the seat (the clock's time left less a margin), however long its own timeout."""
    script = tmp_path / "sleepy_bot.py"
    script.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(3)\n    print('{\"type\": \"none\"}', flush=True)\n")
    bridge = MjaiBridge(f"{sys.executable} {script}", timeout=10, first_timeout=10)
    game = Game(TENHOU, seed=b"clock-bound bridge")
    for event in game.start_events:
        bridge.feed(event.for_seat(0), 0)
    actions = [action_to_data(a) for a in game.legal_actions(0)]
    started = time.monotonic()
    action = await bridge.answer(actions, time_left=1.0)
    took = time.monotonic() - started
    await bridge.close()
    assert action in actions and bridge.stats["late"] == 1
    assert 0.5 < took < 3.0  # the clock's 1 s less the margin (0.7 s, and a start), not the bot's own 10 s
