"""Ratings (server/ratings.py): OpenSkill's Plackett-Luce over each game's ranking of four,
replayed in order to the same values."""

from __future__ import annotations

import random

from server.finished import FinishedSeat, GameFinished, PlayerKind
from server.ratings import DEFAULT, MU, RatedSeat, Rating, changed, rate, rated, ranks, replay, shown


def seats(*players_and_scores: tuple[str | None, int]) -> list[RatedSeat]:
    return [RatedSeat(p, s) for p, s in players_and_scores]


def test_ranks_follow_the_final_scores_and_tied_scores_share_a_rank():
    """docs/RULINGS.md, 'tied final scores': EMA "tied players share the uma of their places
    equally"; Tenhou places them "by seat order from the first dealer".  A rating measures how
    well each played: two players who end on one score got the same result from the game, and
    seat order says where they sat, not how they played.  So they share a rank under every
    preset (the Plackett-Luce model takes tied ranks as a draw between them)."""
    assert ranks([40000, 30000, 20000, 10000]) == [1, 2, 3, 4]
    assert ranks([25000, 35000, 25000, 15000]) == [2, 1, 2, 4]
    assert ranks([25000, 25000, 25000, 25000]) == [1, 1, 1, 1]


def test_tied_players_with_equal_ratings_come_out_equal():
    after = rate(seats(("a", 25000), ("b", 35000), ("c", 25000), ("d", 15000)), {})
    assert after["a"] == after["c"] and after["b"].mu > after["a"].mu > after["d"].mu


def test_the_winner_rises_the_last_falls_and_everyone_grows_surer():
    after = rate(seats(("a", 45000), ("b", 30000), ("c", 15000), ("d", 10000)), {})
    assert after["a"].mu > MU > after["d"].mu
    assert all(r.sigma < DEFAULT.sigma and r.games == 1 for r in after.values())
    assert after["a"].ordinal == after["a"].mu - 3 * after["a"].sigma


def test_a_seat_with_no_player_is_rated_as_a_newcomer_and_not_kept():
    after = rate(seats(("a", 45000), (None, 30000), ("c", 15000), (None, 10000)), {})
    assert set(after) == {"a", "c"}


def test_a_player_in_several_seats_of_one_game_is_measured_against_but_not_changed():
    """The server's bot strategies sit in many seats of one game: the others are rated against
    its rating, which that game leaves as it was."""
    bot = Rating(30.0, 3.0, 50)
    after = rate(seats(("bot-builtin", 45000), ("ann", 30000), ("bot-builtin", 15000), ("bot-builtin", 10000)),
                 {"bot-builtin": bot})
    assert set(after) == {"ann"}
    alone = rate(seats(("x", 45000), ("ann", 30000), ("y", 15000), ("z", 10000)), {p: bot for p in "xyz"})
    assert after["ann"] == alone["ann"]


def test_an_abandoned_game_is_not_rated():
    played = tuple(FinishedSeat(i, f"p{i}", f"id{i}", PlayerKind.HUMAN, 25000, i + 1, 0.0, 0.0) for i in range(4))
    assert rated(GameFinished(1, "t", "tenhou", (), played))
    abandoned = tuple(FinishedSeat(i, f"p{i}", f"id{i}", PlayerKind.HUMAN, 25000) for i in range(4))
    assert not rated(GameFinished(1, "t", "tenhou", (), abandoned, abandoned="no player connected"))


def test_replaying_the_same_games_in_the_same_order_gives_the_same_floats():
    rng = random.Random(4)
    games = [seats(*zip(rng.sample("abcdefg", 4), rng.sample(range(0, 60000, 100), 4))) for _ in range(300)]
    first, second = replay(games), replay(games)
    assert first == second and changed(first, second) == 0
    assert sum(r.games for r in first.values()) == 4 * 300
    assert changed(first, replay(games[:-1])) == 4


def test_a_rating_reads_as_mu_and_sigma_once_a_game_has_rated_it():
    assert shown(Rating(27.04, 6.54, 3)) == "27.0 ± 6.5" and shown(DEFAULT) == "not rated"
