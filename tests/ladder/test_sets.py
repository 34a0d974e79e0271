"""A ladder's duplicate set (server/ladder/sets.py): "one seed, four games with the seats rotated so
each bot sits in each seat once on the same walls; each game is a table opened from a TableSpec with
seed, reserved seats for the bots, bot seats for the fill, and labels ladder:NAME and
ladder:NAME:set:K"."""

from __future__ import annotations

import pytest

from server.ladder.ladder import Ladder, LadderError, ladder_of
from server.ladder.sets import ROTATIONS, entrants, fill_entrant, seating, standing_in, table_spec
from server.table.spec import SeatKind

BOTS = ("alice", "bob", "carol")


def test_each_entrant_sits_in_each_seat_once_over_the_four_rotations() -> None:
    lineup = ("a", "b", "c", "d")
    tables = [seating(lineup, rotation) for rotation in range(ROTATIONS)]
    for entrant in lineup:
        assert sorted(table.index(entrant) for table in tables) == [0, 1, 2, 3]
    assert tables[0] == lineup  # rotation 0 is the set's own order


def test_a_fill_seat_rotates_like_a_bot_and_a_set_of_three_has_one_fill() -> None:
    made = entrants(BOTS, "builtin")
    assert sorted(made[:3]) == sorted(BOTS) and made[3] == fill_entrant("builtin")
    assert sorted(seating(made, rotation).index(fill_entrant("builtin")) for rotation in range(4)) == [0, 1, 2, 3]


def test_the_four_tables_of_a_set_have_one_seed_reserved_seats_for_the_bots_and_the_ladders_labels() -> None:
    ladder, seed = Ladder("main"), bytes(range(16))
    made = ("alice", "bob", fill_entrant("shanten"), "carol")
    specs = [table_spec(ladder, 7, seed, seating(made, rotation)) for rotation in range(ROTATIONS)]
    assert {spec.seed for spec in specs} == {seed}  # the walls: a function of the seed and the hand only
    for rotation, spec in enumerate(specs):
        seats = seating(made, rotation)
        assert spec.reserved() == {i: p for i, p in enumerate(seats) if p in ("alice", "bob", "carol")}
        assert spec.bots() == {seats.index(fill_entrant("shanten")): "shanten"}
        assert spec.labels == ("ladder:main", "ladder:main:set:7")
        assert all(s.kind in (SeatKind.RESERVED, SeatKind.BOT) for s in spec.seats)
    assert ladder_of(specs[0].labels) == "main" and ladder_of(("event:x",)) is None


def test_a_bot_gone_from_the_queue_is_played_by_the_fill_bot_in_the_sets_later_games() -> None:
    seats = ("alice", "bob", fill_entrant("builtin"), "carol")
    assert standing_in(seats, {"bob"}, Ladder("main")) == ("alice", fill_entrant("builtin"), fill_entrant("builtin"),
                                                           "carol")
    assert standing_in(seats, {"bob"}, Ladder("main", fill="none"))[1] == fill_entrant("builtin")


@pytest.mark.parametrize("name, rules, fill, problem", [
    ("has space", "ema2016", "builtin", "letters, digits"), ("main", "nope", "builtin", "unknown rules"),
    ("main", "ema2016", "alphago", "unknown fill")])
def test_a_bad_ladder_is_refused_in_one_line(name: str, rules: str, fill: str, problem: str) -> None:
    with pytest.raises(LadderError, match=problem):
        Ladder(name, rules, fill)
