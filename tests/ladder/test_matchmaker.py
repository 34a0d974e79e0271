"""The matchmaker's choice (server/ladder/matchmaker.py): "takes free bots (4, or at least 2 plus
fill bots: a ladder of three registered bots must run)"; fewer than four wait until the newest of
them joined `gather` seconds ago, for the others joining with it; a set's games go one after another."""

from __future__ import annotations

from server.ladder.matchmaker import Waiting, choose, next_rotation, sets_of

GATHER = 3.0
NOW = 100.0


def queue(*joined_ago: float, queued_ago: float | None = None) -> list[Waiting]:
    """Free bots that joined so many seconds ago (queued as they joined, unless `queued_ago`)."""
    return [Waiting(f"bot{i}", NOW - (ago if queued_ago is None else queued_ago), NOW - ago)
            for i, ago in enumerate(joined_ago)]


def test_four_free_bots_make_a_set_at_once_the_longest_waiting_first() -> None:
    assert choose(queue(0, 0.1, 0.2, 0.3, 0.05), NOW, GATHER, fills=True) == ("bot3", "bot2", "bot1", "bot4")


def test_three_bots_that_just_joined_wait_for_more_then_play_with_a_fill_bot() -> None:
    assert choose(queue(5.0, 4.0, 1.0), NOW, GATHER, fills=True) is None  # bot2 joined a moment ago
    assert choose(queue(5.0, 4.0, 3.0), NOW, GATHER, fills=True) == ("bot0", "bot1", "bot2")


def test_three_bots_back_from_their_set_start_the_next_at_once() -> None:
    assert choose(queue(60.0, 60.0, 60.0, queued_ago=0.0), NOW, GATHER, fills=True) is not None


def test_one_bot_alone_waits_and_a_ladder_with_no_fill_waits_for_four() -> None:
    assert choose(queue(60.0), NOW, GATHER, fills=True) is None
    assert choose(queue(60.0, 60.0, 60.0), NOW, GATHER, fills=False) is None


def test_nine_free_bots_make_two_sets_of_four_and_the_last_waits() -> None:
    made = sets_of(queue(*(9 - i for i in range(9))), NOW, GATHER, fills=True)
    assert made == [("bot0", "bot1", "bot2", "bot3"), ("bot4", "bot5", "bot6", "bot7")]


def test_six_long_waiting_bots_make_a_set_of_four_and_one_of_two_with_fill() -> None:
    made = sets_of(queue(*([10.0] * 6)), NOW, GATHER, fills=True)
    assert [len(s) for s in made] == [4, 2]


def test_a_sets_next_game_opens_once_every_game_started_has_ended() -> None:
    assert next_rotation(started=0, ended=0) == 0
    assert next_rotation(started=2, ended=1) is None  # one in play
    assert next_rotation(started=2, ended=2) == 2
    assert next_rotation(started=4, ended=4) is None  # the set is done
