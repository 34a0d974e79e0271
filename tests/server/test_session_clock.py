"""A timed table over a real server (docs/events.md 'The session clock'): its session is a
second, shorter than its game; with `one-more-hand` (Pantheon's EMA ruleset) the game ends after
the hand in play and one more, and its stored record shows it: the TimeUp decision, and a replay
(and `riichi-replay --check`) that ends the same."""

from __future__ import annotations

import asyncio

import pytest

from client_cli.bot.sdk import play
from client_cli.bot.strategies import BuiltinBot
from server.cli.riichi_replay import main as riichi_replay
from server.game.actions import TABLE_SEAT, TimeUp
from server.table.session import Ending, Session
from server.table.spec import SeatSpec, TableSpec

pytestmark = pytest.mark.asyncio


class Slow(BuiltinBot):
    """The built-in bot, a little slow: its game outlasts the session by far (at 0.01 s a decision
    a whole game took under 2.5 s, and the time could be up in its last hand, leaving no more)."""

    async def decide(self, view, actions):
        await asyncio.sleep(0.05)
        return await super().decide(view, actions)


async def test_time_up_with_one_more_hand_ends_the_game_after_the_hand_in_play_and_one_more(in_process_server,
                                                                                          tmp_path):
    spec = TableSpec("ema2016", clock=None, seats=(SeatSpec.open(), *(SeatSpec.bot(),) * 3),
                     session=Session(1.0, Ending.ONE_MORE_HAND))
    table = in_process_server.app.lobby.open_table(spec)
    result = await asyncio.wait_for(play(Slow(), in_process_server.url, code=table.invite, timeout=60), 120)
    record = await in_process_server.app.lobby.store.record(result.game)
    [(index, (_, time_up))] = [(i, d) for i, d in enumerate(record.decisions) if d[0] == TABLE_SEAT]
    assert time_up == TimeUp(1)
    in_play = record.decisions[:index]  # the hand in play when the time ran out: the one dealt then
    cut = type(record)(record.rules, record.seed, record.walls, record.names, in_play)
    hand_in_play = cut.replay().public.hand_number
    game = record.replay()
    assert game.last_hand == hand_in_play + 1 and len(game.results) == hand_in_play + 2
    assert game.final == result.final
    path = tmp_path / "timed.json"
    path.write_text(record.to_json())
    assert riichi_replay([str(path), "--check"]) == 0
