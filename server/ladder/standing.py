"""A ladder's table of bots, from what the store keeps: each registered bot's rating on the
ladder (mu, and its 95% interval mu ± 1.96 sigma; sorted by mu - 3 sigma as the server's
ratings are), the games it played out there and its average place.  Plain data."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from server.ladder.sets import is_fill
from server.ratings import DEFAULT, Rating
from server.store.ladder_rows import BotState, LadderBotRow, LadderSeatRow

Z95 = 1.96  # a 95% interval is mu ± 1.96 sigma


@dataclass(frozen=True, slots=True)
class BotLine:
    player_id: str
    rating: Rating
    games: int  # played out on the ladder
    average_place: float | None
    state: BotState | None  # None: no longer registered

    @property
    def interval(self) -> tuple[float, float]:
        return self.rating.mu - Z95 * self.rating.sigma, self.rating.mu + Z95 * self.rating.sigma


def lines(ratings: Mapping[str, Rating], seats: Iterable[LadderSeatRow], bots: Iterable[LadderBotRow],
          entrants: Iterable[str]) -> list[BotLine]:
    """Every bot that registered (`bots`) or played (`entrants` of the sets), best first."""
    places: dict[str, list[int]] = defaultdict(list)
    for seat in seats:
        if seat.player_id is not None and seat.place is not None:
            places[seat.player_id].append(seat.place)
    states = {bot.player_id: bot.state for bot in bots}
    players = {p for p in (*states, *entrants) if not is_fill(p)}
    made = [BotLine(p, ratings.get(p, DEFAULT), len(places[p]),
                    sum(places[p]) / len(places[p]) if places[p] else None, states.get(p)) for p in players]
    return sorted(made, key=lambda line: (-line.rating.ordinal, line.player_id))
