"""The matchmaker's choice (server/ladder/matchmaker.py): "takes free bots (4, or at least 2 plus
fill bots: a ladder of three registered bots must run)"; fewer than four wait `gather` seconds for
more first; a set's games go one after another."""

from __future__ import annotations

from server.ladder.matchmaker import Waiting, choose, next_rotation, sets_of

GATHER = 3.0


def queue(*waited: float, now: float = 100.0) -> list[Waiting]:
    return [Waiting(f"bot{i}", now - w) for i, w in enumerate(waited)]


def test_four_free_bots_make_a_set_at_once_the_longest_waiting_first() -> None:
    assert choose(queue(0, 0.1, 0.2, 0.3, 0.05), 100.0, GATHER, fills=True) == ("bot3", "bot2", "bot1", "bot4")


def test_three_bots_wait_for_a_fourth_then_play_with_a_fill_bot() -> None:
    assert choose(queue(1.0, 0.5, 0.2), 100.0, GATHER, fills=True) is None
    assert choose(queue(3.0, 0.5, 0.2), 100.0, GATHER, fills=True) == ("bot0", "bot1", "bot2")


def test_one_bot_alone_waits_and_a_ladder_with_no_fill_waits_for_four() -> None:
    assert choose(queue(60.0), 100.0, GATHER, fills=True) is None
    assert choose(queue(60.0, 60.0, 60.0), 100.0, GATHER, fills=False) is None


def test_nine_free_bots_make_two_sets_of_four_and_the_last_waits() -> None:
    made = sets_of(queue(*(9 - i for i in range(9))), 100.0, GATHER, fills=True)
    assert made == [("bot0", "bot1", "bot2", "bot3"), ("bot4", "bot5", "bot6", "bot7")]


def test_six_long_waiting_bots_make_a_set_of_four_and_one_of_two_with_fill() -> None:
    made = sets_of(queue(*([10.0] * 6)), 100.0, GATHER, fills=True)
    assert [len(s) for s in made] == [4, 2]


def test_a_sets_next_game_opens_once_every_game_started_has_ended() -> None:
    assert next_rotation(started=0, ended=0) == 0
    assert next_rotation(started=2, ended=1) is None  # one in play
    assert next_rotation(started=2, ended=2) == 2
    assert next_rotation(started=4, ended=4) is None  # the set is done
