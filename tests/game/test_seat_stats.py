"""Each seat's counts over a game (server/game/seat_stats.py), held up to the same counts
read straight from real Tenhou logs' tags: `<INIT>` a hand, `<AGARI who fromWho>` a win
(and a deal-in when fromWho is another seat), `<REACH step="1">` a riichi declared, `<N>`
a call (decoded by its bits: chi, pon and open kan open a hand).

Files: tests/data/corpus/tenhou-mjlog (sources and licences in its README).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.game.importers.mjlog import decode_meld, read_mjlog, read_text
from server.game.importers.replay import replay_log
from server.game.record import GameRecord
from server.game.seat_stats import SeatStats, seat_stats

MJLOGS = sorted((Path(__file__).resolve().parents[1] / "data" / "corpus" / "tenhou-mjlog").glob("*.mjlog"))
TAG = re.compile(r"<(INIT|AGARI|REACH|N)\s([^>]*)>")
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


def counted_from_the_log(text: str) -> tuple[SeatStats, ...]:
    """hands, wins, deal_ins, riichi, called per seat, from the log's tags alone."""
    counts = [[0] * 5 for _ in range(4)]
    called: set[int] = set()
    dealt_in: set[int] = set()
    for tag, attributes in TAG.findall(text):
        a = dict(ATTRIBUTE.findall(attributes))
        if tag == "INIT":
            called, dealt_in = set(), set()
            for seat in range(4):
                counts[seat][0] += 1
        elif tag == "AGARI":
            who, from_who = int(a["who"]), int(a["fromWho"])
            counts[who][1] += 1
            if from_who != who and from_who not in dealt_in:
                dealt_in.add(from_who)
                counts[from_who][2] += 1
        elif tag == "REACH" and a.get("step") == "1":
            counts[int(a["who"])][3] += 1
        elif tag == "N":
            who = int(a["who"])
            if decode_meld(who, int(a["m"])).kind in ("chi", "pon", "daiminkan") and who not in called:
                called.add(who)
                counts[who][4] += 1
    return tuple(SeatStats(*c) for c in counts)


@pytest.mark.parametrize("path", MJLOGS, ids=[p.name for p in MJLOGS])
def test_seat_counts_of_a_played_game_equal_the_logs_own(path: Path) -> None:
    replay = replay_log(read_mjlog(path))
    assert replay.error is None
    _, events = GameRecord.of(replay.game).replay_events()
    assert seat_stats(events) == counted_from_the_log(read_text(path))


def test_a_double_ron_is_one_deal_in_for_the_discarder() -> None:
    path = next(p for p in MJLOGS if p.name == "double-ron.mjlog")
    stats = seat_stats(GameRecord.of(replay_log(read_mjlog(path)).game).replay_events()[1])
    assert sum(s.wins for s in stats) > sum(s.deal_ins for s in stats)


def test_seat_stats_cross_as_plain_data() -> None:
    stats = SeatStats(hands=9, wins=2, deal_ins=1, riichi=3, called=4)
    assert SeatStats.from_data(stats.to_data()) == stats
