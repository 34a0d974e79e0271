"""A ladder's trends (the page's rating after each game: server/ladder/rating.py `Trends`):
rated on from where they were as games end, the same as rated all at once, ending at the
rebuild's ratings; all rated again when a game with a lower id than those seen turns up."""

from __future__ import annotations

import random

from server.ladder.rating import Trends
from server.ratings import RatedSeat, replay


def _games(count: int, seed: int = 3) -> list[tuple[int, tuple[RatedSeat, ...]]]:
    rng = random.Random(seed)
    bots = ["a", "b", "c", "d", "e"]
    games = []
    for game_id in range(1, count + 1):
        seated = rng.sample(bots, 3) + [None]  # three registered bots and the fill
        rng.shuffle(seated)
        games.append((game_id * 2, tuple(RatedSeat(p, rng.randrange(-10, 60) * 1000) for p in seated)))
    return games


def test_trends_rated_on_as_games_end_are_those_rated_at_once_and_end_at_the_rebuilds_ratings() -> None:
    games = _games(30)
    at_once = Trends().update(games)
    on = Trends()
    for end in (5, 6, 17, 30):
        stepped = on.update(games[:end])
    assert stepped == at_once
    final = replay([seats for _, seats in games])
    assert {p: points[-1][1] for p, points in at_once.items()} == final
    assert all(len(points) == final[p].games for p, points in at_once.items())
    assert all([g for g, _ in points] == sorted(g for g, _ in points) for points in at_once.values())


def test_a_game_with_a_lower_id_than_those_seen_has_them_all_rated_again() -> None:
    games = _games(12)
    trends = Trends()
    trends.update(games[:6] + games[7:])  # one game ended later than those after it
    assert trends.update(games) == Trends().update(games)
