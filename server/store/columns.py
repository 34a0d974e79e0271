"""How the store's rows are written as columns and read back, the same for every database:
JSON text for rules, clocks, names, finals and actions, a seed as hex, a game's given walls
as JSON.  SQLite and PostgreSQL hold the same text, so a record means the same in either."""

from __future__ import annotations

import json
from dataclasses import astuple
from collections.abc import Iterable, Sequence
from typing import Any

from server.finished import GameFinished
from server.game.actions import Action, action_from_data, action_to_data
from server.game.record import GameRecord
from server.game.seat_stats import SeatStats
from server.rules.config import Rules, rules_from_data, rules_to_data
from server.store.rows import GameRow, PastSeat, PlayerGame, PlayerKind, PlayerRow, SeatRow, TableRow

OPEN_STATES = ("waiting", "playing")  # a table in one of these is rebuilt by a restart

DecisionBatch = tuple[int, int, Iterable[tuple[int, Action]]]  # (game id, first index, (seat, action)s)


def rules_text(rules: Rules) -> str:
    return json.dumps(rules_to_data(rules))


def json_text(value: Any) -> str:
    return json.dumps(value)


def decision_rows(batches: Iterable[DecisionBatch]) -> list[tuple[int, int, int, str]]:
    """(game id, index, seat, action) rows of decisions given as batches."""
    return [(game_id, first_index + i, seat, json.dumps(action_to_data(action)))
            for game_id, first_index, decisions in batches for i, (seat, action) in enumerate(decisions)]


# A game dealt from given walls has no seed: its `seed` column (NOT NULL since schema step 1,
# which SQLite cannot relax without copying the table) holds this, and `walls` the walls.
NO_SEED = ""
RECORD_COLUMNS = "seed, walls, rules, names"  # record_of's columns of `games`, in order


def deal_columns(record: GameRecord) -> tuple[str, str | None]:
    """A new game's (seed, walls) columns: its seed as hex and no walls, or NO_SEED and its
    walls as JSON (a list of 136 tile ids a hand).  ValueError for a record with both or
    neither: a stored game must replay from exactly what it was dealt from."""
    if (record.seed is None) == (record.walls is None):
        has = "both a seed and walls" if record.seed is not None else "neither a seed nor walls"
        raise ValueError(f"a game is stored with its seed or its walls, and this record has {has}")
    if record.walls is not None:
        return NO_SEED, json.dumps([list(wall) for wall in record.walls], separators=(",", ":"))
    assert record.seed is not None
    return record.seed.hex(), None


def record_of(seed: str, walls: str | None, rules: str, names: str,
              decisions: Iterable[tuple[int, str]]) -> GameRecord:
    """A game's record from its row's RECORD_COLUMNS and its decisions' (seat, action) in
    order: dealt from its walls if it has them (then it has no seed), else from its seed."""
    dealt = json.loads(walls) if walls is not None else None
    return GameRecord(rules_from_data(json.loads(rules)), None if dealt is not None else bytes.fromhex(seed), dealt,
                      json.loads(names), [(seat, action_from_data(json.loads(action))) for seat, action in decisions])


def optional_json_text(value: Any) -> str | None:
    """JSON text, or NULL for None."""
    return None if value is None else json.dumps(value)


def seat_row(seat: int, name: str, kind: str, strategy: str | None, token: str | None, host: int,
             left: int, player_id: str | None) -> SeatRow:
    return SeatRow(seat, name, kind, strategy, token, bool(host), bool(left), player_id)


PLAYER_COLUMNS = "id, name, kind, issued, created"  # a player_row's, in order


def player_row(columns: Sequence[Any]) -> PlayerRow:
    """A player from (id, name, kind, issued, created)."""
    player_id, name, kind, issued, created = columns
    return PlayerRow(player_id, name, PlayerKind(kind), bool(issued), created)


def table_row(columns: Sequence[Any], seats: list[SeatRow], game_id: int | None,
              watchers: Iterable[str]) -> TableRow:
    """A table from (id, invite_code, watch_code, rules, clock, state, broadcasts, spec, session_ends,
    session_extra)."""
    table_id, invite, watch, rules, clock, state, broadcasts, spec, session_ends, session_extra = columns
    return TableRow(table_id, invite, watch, json.loads(rules), json.loads(clock), state, seats, game_id,
                    tuple(watchers), broadcasts, json.loads(spec) if spec else None, session_ends,
                    float(session_extra or 0.0))


STATS_COLUMNS = ("hands", "wins", "deal_ins", "riichi", "called")  # SeatStats' fields, in order
# game_seat_rows' columns, in order
GAME_SEAT_FIELDS = ("game_id", "seat", "player_id", "name", "kind", "score", "place", "uma", "total", *STATS_COLUMNS)
GAME_SEAT_COLUMNS = ", ".join(GAME_SEAT_FIELDS)


def game_seat_rows(finished: GameFinished) -> list[tuple[Any, ...]]:
    """A finished game's `game_seats` rows, GAME_SEAT_COLUMNS each (the counts NULL where unknown)."""
    return [(finished.game_id, s.seat, s.player_id, s.name, s.kind.value, s.score, s.place, s.uma, s.total,
             *(astuple(s.stats) if s.stats is not None else (None,) * len(STATS_COLUMNS)))
            for s in finished.seats]


def seat_stats_of(columns: Sequence[Any]) -> SeatStats | None:
    """A seat's counts from its STATS_COLUMNS (None: kept before they were)."""
    return None if columns[0] is None else SeatStats(*columns)


RATING_COLUMNS = "player_id, mu, sigma, games"  # a `ratings` row's, in order
# The seats of the games rated after the one of rated_seq {after} (a placeholder), as (rated_seq,
# player_id, score) in the order they were rated (server/ratings.py grouped)
RATED_SEATS = ("SELECT g.rated_seq, s.player_id, s.score FROM games g JOIN game_seats s ON s.game_id = g.id"
               " WHERE g.rated_seq > {after} ORDER BY g.rated_seq, s.seat")


# What player_game reads, in order, from `game_seats s JOIN games g`.
PLAYER_GAME_COLUMNS = ("g.id, g.table_id, s.seat, s.name, s.score, s.place, s.uma, s.total, g.finished, g.labels, "
                       + ", ".join(f"s.{column}" for column in STATS_COLUMNS))


def player_game(columns: Sequence[Any]) -> PlayerGame:
    game_id, table_id, seat, name, score, place, uma, total, finished, labels = columns[:10]
    return PlayerGame(game_id, table_id, seat, name, score, place, uma, total, finished, place is None,
                      tuple(json.loads(labels)) if labels else (), seat_stats_of(columns[10:]))


def past_seat(table: Sequence[Any], game: Sequence[Any] | None) -> PastSeat:
    """A past seat from (table id, invite, seat, state, reason) and its table's last game's
    (id, final, names, result_seq), if one started."""
    table_id, invite, seat, state, reason = table
    if game is None:
        return PastSeat(table_id, invite, seat, state, reason, None, None, None, None)
    game_id, final, names, result_seq = game
    return PastSeat(table_id, invite, seat, state, reason, game_id, json.loads(final) if final else None,
                    json.loads(names), result_seq)


def game_row(columns: Sequence[Any]) -> GameRow:
    """A game from (id, table_id, names, rules, started, finished, final)."""
    game_id, table_id, names, rules, started, finished, final = columns
    return GameRow(game_id, table_id, json.loads(names), json.loads(rules).get("preset", "?"), started, finished,
                   json.loads(final) if final else None)
