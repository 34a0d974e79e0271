"""Each seat's counts (server/game/seat_stats.py) as the table core keeps them: from the events
it sends, and, for a table rebuilt after a restart or on another node, from its game's
replay, so that a game's `GameFinished` counts every hand whichever node ended it."""

import random

from server.game.record import GameRecord
from server.game.seat_stats import seat_stats
from server.rules.config import rules_to_data
from server.store.rows import SeatRow, TableRow
from server.table.core import TableCore
from server.table.io import Act
from tests.table.driver import Driver, member, two_players_and_two_bots

host, guest = member("host"), member("guest")


def test_a_rebuilt_table_counts_what_its_game_did_before_as_the_table_that_played_it():
    d = two_players_and_two_bots(Driver(), host, guest)
    rng = random.Random(25)
    for _ in range(150):  # some hands in: the humans answer at random (riichi, calls and wins too)
        seat = d.core.game.waiting_for()[0]
        who = host if seat == 0 else guest
        offer = d.last(who, "offer")
        d(Act(offer["decision"], rng.choice(offer["actions"])), who)
    record = GameRecord.of(d.core.game)
    assert d.core.tally.stats() == seat_stats(record.replay_events()[1])
    assert d.core.tally.stats()[0].hands >= 2
    row = TableRow("t1", "invite-code", "watch-code", rules_to_data(d.core.rules), None, "playing",
                   [SeatRow(i, s.name, s.kind, s.strategy, s.token_hash, s.host) for i, s in enumerate(d.core.seats)],
                   game_id=1, broadcasts=d.core.table_broadcasts)
    core, _ = TableCore.restored(row, record, now=10.0)
    assert core.tally.stats() == d.core.tally.stats()
