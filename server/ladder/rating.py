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
from collections.abc import Collection, Iterable, Sequence

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


async def rebuild(store: Store, ladder: str) -> dict[str, Rating]:
    """The ladder's ratings rated again from the stored games (the store is not changed)."""
    games = {g.game_id: g for g in await store.ended_ladder_games(ladder, limit=1_000_000)
             if g.state is LadderGameState.DONE and g.game_id is not None}
    by_game: dict[int, list[LadderSeatRow]] = defaultdict(list)
    for seat in await store.ladder_seats(ladder):
        by_game[seat.game_id].append(seat)
    order = sorted(game_id for game_id in games if game_id in by_game)
    return replay([rated_seats(((s.player_id, s.score) for s in by_game[game_id]), registered(games[game_id].seats))
                   for game_id in order])
