"""Each player's rating and its uncertainty (issue 25), updated from every game played out.

The model is OpenSkill's Plackett-Luce (the `openskill` package): it rates a whole ranking
of four at once, as one observation, where Elo and Glicko see pairs; and it keeps an
uncertainty (sigma) per player, so that a new player's first games move its rating far and
a regular's move it little.  It is open source (MIT; TrueSkill, which does the same job,
is patented and trademarked) and fast enough to rebuild every game ever played in seconds.
Seats that end on the same score share a rank (`ranks`).

A rating is `mu` ± `sigma`; players are sorted by its conservative `ordinal`, mu - 3 sigma,
which rises as the server grows sure of a player.

Games are rated one at a time in one global order (`rated_seq`, given by the store as it
rates each game, serialised across the nodes of a service), each from the ratings that the
games before left: `replay` of the rated games in that order from the defaults gives the
same values, float for float (`riichi-server ratings --rebuild`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.finished import GameFinished

# The model's parameters, named here so that no default of a later openskill changes a rating.
MU = 25.0
SIGMA = MU / 3


@functools.cache
def model() -> Any:
    """The Plackett-Luce model (imported on first use: a store's rows need `Rating`, not openskill)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=SIGMA / 2, tau=MU / 300)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: `mu` the estimate, `sigma` its uncertainty, `games` how many rated it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating players are sorted by: mu less three sigma."""
        return self.mu - 3 * self.sigma


DEFAULT = Rating()


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """What rating needs of one seat of a played-out game."""

    player_id: str | None  # None: a seat with no player takes the default rating, and is not kept
    score: int


def ranks(scores: Sequence[int]) -> list[int]:
    """Each seat's rank, 1 the best: seats that end on the same score share a rank, whatever
    place the rules' tie-break gave them (see tests/test_ratings.py for why)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def rated(finished: GameFinished) -> bool:
    """Whether a game changes ratings: only one played out (an abandoned game has no result)."""
    return finished.abandoned is None and all(s.place is not None for s in finished.seats)


def seats_of(finished: GameFinished) -> tuple[RatedSeat, ...]:
    return tuple(RatedSeat(s.player_id, s.score) for s in finished.seats)


def players_of(seats: Iterable[RatedSeat]) -> set[str]:
    """The players whose ratings a game reads."""
    return {s.player_id for s in seats if s.player_id is not None}


def rate(seats: Sequence[RatedSeat], current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of a played-out game's players, from their `current` ones (a player
    missing there has the default).  A player who held more than one of its seats (the
    server's bot strategies often do) is what the others are measured against, unchanged:
    its seats would each say something different of one player."""
    if len(seats) < 2:
        return {}  # (no stored game is: nobody to be measured against)
    ids = [s.player_id for s in seats]
    before = [current.get(i, DEFAULT) if i is not None else DEFAULT for i in ids]
    teams = [[model().rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model().rate(teams, ranks=ranks([s.score for s in seats]))
    return {i: Rating(team[0].mu, team[0].sigma, r.games + 1)
            for i, r, team in zip(ids, before, after) if i is not None and ids.count(i) == 1}


Progress = Callable[[int, int], None]  # told (games rated so far, games in all) now and then
PROGRESS_EVERY = 1000


def replay(games: Sequence[Sequence[RatedSeat]], progress: Progress | None = None,
           start: Mapping[str, Rating] | None = None) -> dict[str, Rating]:
    """Every player's rating after these games, rated in order from the defaults (or from
    `start`, the ratings the games before them left)."""
    ratings: dict[str, Rating] = dict(start or {})
    for done, seats in enumerate(games, 1):
        ratings.update(rate(seats, ratings))
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == len(games)):
            progress(done, len(games))
    return ratings


def changed(before: Mapping[str, Rating], after: Mapping[str, Rating]) -> int:
    """How many players' ratings differ (one kept and not rebuilt, or the other way, counts)."""
    return sum(before.get(p) != after.get(p) for p in set(before) | set(after))


def shown(rating: Rating) -> str:
    """A rating as players read it: mu ± sigma, one decimal ("not rated" before any game rated it)."""
    return f"{rating.mu:.1f} ± {rating.sigma:.1f}" if rating.games else "not rated"



@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What `ratings --rebuild` did: games rated again, players rated, ratings that differed."""

    games: int
    players: int
    changed: int


@dataclass(frozen=True, slots=True)
class RatedGames:
    """Rated games' seats, in the order they were rated, and the last one's rated_seq (0: none)."""

    games: list[list[RatedSeat]]
    last: int


def grouped(rows: Iterable[Sequence[Any]]) -> RatedGames:
    """The rated games from (rated_seq, player_id, score) rows in rated_seq and seat order."""
    games: list[list[RatedSeat]] = []
    last = 0
    for seq, player_id, score in rows:
        if seq != last:
            games.append([])
            last = seq
        games[-1].append(RatedSeat(player_id, score))
    return RatedGames(games, last)


def rebuilt(before: RatedGames, so_far: dict[str, Rating], newer: RatedGames,
            kept: Mapping[str, Rating]) -> tuple[dict[str, Rating], Rebuilt]:
    """A rebuild's end: `so_far` (the ratings `before` gave, replayed with no lock held) carried
    on over the `newer` games rated since (read under the lock), and how they differ from those `kept`."""
    ratings = replay(newer.games, start=so_far)
    return ratings, Rebuilt(len(before.games) + len(newer.games), len(ratings), changed(kept, ratings))
