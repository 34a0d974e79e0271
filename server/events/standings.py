"""An event's standings from its finished games and the organiser's penalties.  Pure.

EMA points: each game's result is what the game gives its seats, (score - 30,000 + uma) in
thousands with tied players sharing their places' uma (the `ema2016` preset: the engine's
FinishedSeat.total); a player's total is the sum, penalties added.  The EMA text quoted here
says nothing of a tie in the final standings: tied players share a rank.

Table points: 4/2/1/0 a game, ties split (table_points.py), summed, penalties added; "In case
of a tie in table points, the total number of "regular" points accumulated during all the games
is the tie-breaker" (the site rules): the points won or lost, each game's final score less the
start score.  Equal in both: a shared rank.

A penalty (a chombo among them) is in the scoring's own unit (EMA: thousands of points; table
points: table points), negative to take away; it is added to the player's total once, whatever
the round.  A seat a substitute played for a missing player counts for that player under
SubstituteRule.CREDIT_PLAYER, and not at all (0) under NO_CREDIT.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from server.events.spec import Scoring, SubstituteRule
from server.events.table_points import table_points
from server.spreadsheet import text_cell


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished event game: whose seat it is (the event's player, or a bot
    filler), its final score, the game's result for it in thousands (`total`), and whether a
    substitute played it for the missing player."""

    player: str
    score: int
    total: float
    substitute: bool = False


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    table: int
    game_id: int | None
    seats: tuple[SeatResult, SeatResult, SeatResult, SeatResult]


@dataclass(frozen=True, slots=True)
class Penalty:
    player: str
    points: Fraction  # in the scoring's unit; negative takes away
    reason: str
    round: int | None = None


@dataclass(frozen=True)
class Standing:
    """A player's line: `rank` 1 the best (tied players share one); `total` what ranks them (EMA
    points, or table points) with penalties; `regular` the points won or lost (the table
    points' tie-break); `games` each counted game's (round, its part of `total`)."""

    rank: int
    player: str
    total: Fraction
    regular: int
    penalties: Fraction
    games: tuple[tuple[int, Fraction], ...] = field(default=())


def standings(results: Iterable[TableResult], penalties: Iterable[Penalty], players: Sequence[str],
              scoring: Scoring, substitute: SubstituteRule = SubstituteRule.CREDIT_PLAYER,
              start_score: int = 30000) -> list[Standing]:
    """Every player of `players` (bot fillers are left out), best first."""
    known = set(players)
    games: dict[str, list[tuple[int, Fraction]]] = {p: [] for p in players}
    regular = dict.fromkeys(players, 0)
    for result in sorted(results, key=lambda r: (r.round, r.table)):
        points = _game_points(result, scoring)
        for seat, part in zip(result.seats, points, strict=True):
            if seat.player not in known or (seat.substitute and substitute is SubstituteRule.NO_CREDIT):
                continue
            games[seat.player].append((result.round, part))
            regular[seat.player] += seat.score - start_score
    penalty = dict.fromkeys(players, Fraction(0))
    for one in penalties:
        if one.player not in known:
            raise ValueError(f"a penalty for {one.player}, who is not a player of the event")
        penalty[one.player] += one.points
    lines = [(p, sum((part for _, part in games[p]), Fraction(0)) + penalty[p]) for p in players]
    key = (lambda line: (-line[1], -regular[line[0]])) if scoring is Scoring.TABLE_POINTS \
        else (lambda line: (-line[1],))
    lines.sort(key=lambda line: (*key(line), line[0]))
    table: list[Standing] = []
    for i, (player, total) in enumerate(lines):
        tied = table and key((table[-1].player, table[-1].total)) == key((player, total))
        table.append(Standing(table[-1].rank if tied else i + 1, player, total, regular[player], penalty[player],
                              tuple(games[player])))
    return table


def _game_points(result: TableResult, scoring: Scoring) -> list[Fraction]:
    if scoring is Scoring.TABLE_POINTS:
        return table_points([seat.score for seat in result.seats])
    return [Fraction(str(seat.total)) for seat in result.seats]


def shown(value: Fraction) -> str:
    """A total as people write it: 12.5, -3, 2.33 (thirds of a three-way tie's table points)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text


def standings_csv(lines: Sequence[Standing], rounds: int, names: dict[str, str] | None = None) -> str:
    """The standings as CSV: rank, player, each round's points, penalties, total, regular points."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "player", *(f"round {r}" for r in range(1, rounds + 1)), "penalties", "total",
                     "regular points"])
    for line in lines:
        by_round = dict.fromkeys(range(1, rounds + 1), "")
        for round_, part in line.games:
            by_round[round_] = shown(part)
        writer.writerow([line.rank, text_cell((names or {}).get(line.player, line.player)), *by_round.values(),
                         shown(line.penalties), shown(line.total), line.regular])
    return out.getvalue()

