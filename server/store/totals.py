"""The players' games played out, added up per player in one query (the player pages and the
standings, issue 25), written once for SQLite and PostgreSQL: only the placeholders and how
a game's labels are searched differ.

Only `game_seats` rows count, and they are written when a game ends, so nothing of a game in
play is ever in a total; an abandoned game (no place) is not either.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

from server.game.seat_stats import SeatStats
from server.ratings import DEFAULT, Rating
from server.store.columns import STATS_COLUMNS
from server.store.rows import PlayerTotals


class Dialect(Enum):
    SQLITE = "sqlite"
    POSTGRES = "postgres"

    def placeholder(self, n: int) -> str:
        return "?" if self is Dialect.SQLITE else f"${n}"

    def has_label(self, placeholder: str) -> str:
        """The condition that game `g` has the label given at `placeholder` (its labels: JSON text)."""
        if self is Dialect.SQLITE:
            return f"EXISTS (SELECT 1 FROM json_each(g.labels) WHERE json_each.value = {placeholder})"
        return f"jsonb_exists(g.labels::jsonb, {placeholder})"


_PLACES = ", ".join(f"SUM(CASE WHEN s.place = {p} THEN 1 ELSE 0 END)" for p in range(1, 5))
_STATS = ", ".join(f"COALESCE(SUM(s.{column}), 0)" for column in STATS_COLUMNS)


def totals_query(dialect: Dialect, player: bool, label: bool) -> str:
    """The query of every player's totals (`player`: one player's, its id the first argument;
    `label`: only games with a label, the next argument).  Its rows: `totals` reads them.
    The seats are added up first, then joined to their players and ratings (once a player,
    not once a seat); the games are read only for a label."""
    where = ["s.player_id IS NOT NULL", "s.place IS NOT NULL"]
    n = 0
    if player:
        n += 1
        where.append(f"s.player_id = {dialect.placeholder(n)}")
    if label:
        n += 1
        where.append(dialect.has_label(dialect.placeholder(n)))
    games = " JOIN games g ON g.id = s.game_id" if label else ""
    added = (f"SELECT s.player_id AS player_id, MAX(s.name) AS seat_name, COUNT(*) AS games, {_PLACES},"
             f" SUM(s.place), SUM(s.score), SUM(s.total), {_STATS} FROM game_seats s{games}"
             f" WHERE {' AND '.join(where)} GROUP BY s.player_id")
    return ("SELECT a.*, r.mu, r.sigma, r.games, p.name FROM (" + added + ") a"
            " LEFT JOIN players p ON p.id = a.player_id LEFT JOIN ratings r ON r.player_id = a.player_id")


def totals_arguments(player_id: str | None, label: str | None) -> tuple[str, ...]:
    return tuple(a for a in (player_id, label) if a is not None)


def totals(row: Sequence[Any]) -> PlayerTotals:
    """A player's totals from a row of `totals_query`."""
    player_id, seat_name, games, p1, p2, p3, p4, place_sum, score_sum, total = row[:10]
    hands, wins, deal_ins, riichi, called, mu, sigma, rated_games, name = row[10:]
    rating = DEFAULT if mu is None else Rating(mu, sigma, rated_games)
    return PlayerTotals(player_id, name or seat_name, int(games), (int(p1), int(p2), int(p3), int(p4)), int(place_sum),
                        int(score_sum), float(total or 0.0),
                        SeatStats(int(hands), int(wins), int(deal_ins), int(riichi), int(called)), rating)


def in_standing_order(rows: Sequence[PlayerTotals]) -> list[PlayerTotals]:
    """The standings' order: the rating's ordinal, highest first; then more games; then by id."""
    return sorted(rows, key=lambda t: (-t.rating.ordinal, -t.games, t.player_id))
