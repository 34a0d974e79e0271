"""Duplicate sets: one seed played four times with the seats rotated, so that every bot
meets every wall from every seat (issue 26)."""

from __future__ import annotations

from pathlib import Path

from client_cli.arena.play import ArenaConfig, play_set
from client_cli.arena.sets import lineup, record_name, seating, set_seed
from client_cli.arena.specs import parse_spec
from protocol.events import EventType
from server.game.record import GameRecord
from server.game.wall import shuffled_wall


def test_each_bot_sits_at_each_seat_once_in_a_set():
    """Rotation r seats lineup entry (seat + r) % 4 at each seat: over a set, each entry
    holds each seat once."""
    entries = lineup(4)
    seats_of = {e: sorted(seating(entries, r).index(e) for r in range(4)) for e in entries}
    assert seats_of == {e: [0, 1, 2, 3] for e in entries}
    assert [seating(lineup(2), r).count(0) for r in range(4)] == [1, 1, 1, 1]


def test_set_seeds_differ_by_set_and_repeat_by_run_seed():
    assert set_seed("a", 0) == set_seed("a", 0)
    assert len({set_seed("a", 0), set_seed("a", 1), set_seed("b", 0)}) == 3


def _hands(record: GameRecord) -> dict[int, tuple[list[int], list[list[int]]]]:
    """Each hand's number -> (its wall as the seed gives it, each seat's dealt tiles)."""
    _, events = record.replay_events()
    hands = {}
    for event in events:
        if event.type == EventType.HAND_START:
            number = event.public["hand_number"]
            hands[number] = (shuffled_wall(record.seed, number),
                             [sorted(event.private[s]["hand"]) for s in range(4)])
    return hands


def test_the_four_rotations_deal_the_same_walls_to_the_same_seats(tmp_path: Path):
    """Same seed, four seatings: every hand number has the same wall, and the first hand
    deals the same tiles to the same seat, whoever sits there."""
    config = ArenaConfig((parse_spec("builtin"), parse_spec("random")), seed="walls", out=str(tmp_path))
    outcome = play_set(config, 3)
    records = [GameRecord.from_json((tmp_path / record_name(3, r)).read_text()) for r in range(4)]
    assert {r.seed for r in records} == {set_seed("walls", 3)}
    assert [[s.bot for s in game] for game in outcome.games] == [list(seating(lineup(2), r)) for r in range(4)]
    hands = [_hands(r) for r in records]
    assert len({tuple(map(tuple, h[0][1])) for h in hands}) == 1  # hand 0: each seat the same 13 tiles
    for number in set.intersection(*(set(h) for h in hands)):
        assert len({tuple(h[number][0]) for h in hands}) == 1  # every hand number: one wall in all four
