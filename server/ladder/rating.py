"""A ladder's own ratings (OpenSkill Plackett-Luce, as the server's: server/ratings.py), apart from
the global ones: each registered bot's mu, sigma and games on this ladder.

A fill seat (the server's bot) is rated against at the default rating and never changed, as the
global ratings do for a player in several seats.  Each game is rated by the node that ran it
when its `GameFinished` arrives; `rebuild` rates the stored games again in game id order and gives
the same values, float for float: two games that share a bot were played one after the other
(a bot is at one table at a time), so the one that started first, with the lower id, ended first
too, and games with no bot in common do not read each other's ratings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence

from server.ladder.sets import registered
from server.ratings import RatedSeat, Rating, rate, replay
from server.store.ladder_rows import LadderGameRow, LadderGameState, LadderSeatRow
from server.store.protocol import Store


def rated_seats(seats: Iterable[tuple[str | None, int]], bots: Collection[str]) -> tuple[RatedSeat, ...]:
    """A game's (player id, score) seats as rated on the ladder: a seat not a registered bot's
    (a fill bot's) counts at the default rating, and is not kept."""
    return tuple(RatedSeat(player if player in bots else None, score) for player, score in seats)


async def rate_game(store: Store, ladder: str, game: LadderGameRow, seats: Sequence[tuple[str | None, int]]) -> None:
    """Rate one game played out on `ladder` from the ratings it has now, and keep the new ones."""
    rated = rated_seats(seats, registered(game.seats))
    await store.set_ladder_ratings(ladder, rate(rated, await store.ladder_ratings(ladder)))


def rated_in_order(ended: Iterable[LadderGameRow], seats: Iterable[LadderSeatRow],
                   ) -> list[tuple[int, tuple[RatedSeat, ...]]]:
    """A ladder's games played out (`ended`, with their `seats` as kept), as rated, in the order
    they are rated (game id)."""
    games = {g.game_id: g for g in ended if g.state is LadderGameState.DONE and g.game_id is not None}
    by_game: dict[int, list[LadderSeatRow]] = defaultdict(list)
    for seat in seats:
        by_game[seat.game_id].append(seat)
    return [(game_id, rated_seats(((s.player_id, s.score) for s in by_game[game_id]), registered(games[game_id].seats)))
            for game_id in sorted(game_id for game_id in games if game_id in by_game)]


async def rebuild(store: Store, ladder: str) -> dict[str, Rating]:
    """The ladder's ratings rated again from the stored games (the store is not changed)."""
    ended = await store.ended_ladder_games(ladder, limit=1_000_000)
    return replay([seats for _, seats in rated_in_order(ended, await store.ladder_seats(ladder))])


class Trends:
    """Each bot's rating after each of its games on the ladder, in the order they were rated (the
    rebuild's): what the ladder page draws.  Kept from one call to the next, so that games ended
    since are rated on from where it was (all again when one has a lower id than those seen)."""

    def __init__(self) -> None:
        self._start()

    def _start(self) -> None:
        self.seen: list[int] = []
        self.ratings: dict[str, Rating] = {}
        self.points: dict[str, list[tuple[int, Rating]]] = defaultdict(list)

    def update(self, games: Sequence[tuple[int, Sequence[RatedSeat]]]) -> Mapping[str, list[tuple[int, Rating]]]:
        """Every bot's (game id, rating after it), from `games` (all the ladder's, in id order)."""
        ids = [game_id for game_id, _ in games]
        if ids[:len(self.seen)] != self.seen:
            self._start()
        for game_id, seats in games[len(self.seen):]:
            self.ratings.update(new := rate(seats, self.ratings))
            for player, rating in new.items():
                self.points[player].append((game_id, rating))
        self.seen = ids
        return {player: list(points) for player, points in self.points.items()}  # (the next look may add)
