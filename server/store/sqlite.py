"""One SQLite file (WAL): tables, seats, games and every accepted decision, read and written
synchronously.

The server reaches it through `server.store.embedded.SqliteStore` (the event loop's store,
with the group commit); the commands (`riichi-server games`, `export`) and the tests read
it directly.  A game is rebuilt by replaying its record (the engine is deterministic):
rules, seed or walls, names and the ordered decisions.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from server.game.actions import Action
from server.game.record import GameRecord
from server.finished import GameFinished
from server.store.columns import (
    GAME_SEAT_COLUMNS, GAME_SEAT_FIELDS, PLAYER_COLUMNS, PLAYER_GAME_COLUMNS, RATED_SEATS, RATING_COLUMNS,
    RECORD_COLUMNS, DecisionBatch, deal_columns, decision_rows, game_row, game_seat_rows, json_text,
    optional_json_text, past_seat, player_game, player_row, record_of, rules_text, seat_row, table_row,
)
from server.ratings import (
    Progress, Rating, Rebuilt, grouped, players_of, rate, rated, rebuilt, replay, seats_of,
)
from server.store.rows import GameRow, PastSeat, PlayerGame, PlayerRow, PlayerTotals, TableRow
from server.store.totals import Dialect, in_standing_order, totals, totals_arguments, totals_query
from server.store.schema import migrate_sqlite
from server.store.sqlite_events import SqliteEvents


class SqliteFile(SqliteEvents):
    """The file's tables, seats, watchers, games and decisions; every call commits at once
    except `add_decisions_batch`'s, which commits its rows together."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # WAL with NORMAL survives a killed process (what "nothing acknowledged is lost" needs);
        # only an OS crash or power cut could lose the last commits.
        self.db.execute("PRAGMA synchronous=NORMAL")
        migrate_sqlite(self.db, self.path)  # the schema's versions: server/store/schema.py

    def close(self) -> None:
        self.db.close()

    def healthy(self) -> bool:
        """The database file answers a query."""
        try:
            self.db.execute("SELECT 1 FROM games LIMIT 1").fetchall()
            return True
        except sqlite3.Error:
            return False

    # ---- tables and seats -------------------------------------------------

    def save_table(self, table_id: str, invite: str, watch: str, rules: Any, clock: dict | None, state: str,
                   spec: dict | None = None) -> None:
        """`spec`: what the table was opened from (TableSpec.to_data)."""
        now = time.time()
        self.db.execute(
            "INSERT INTO tables (id, invite_code, watch_code, rules, clock, state, created, updated, spec)"
            " VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET state=excluded.state,"
            " updated=excluded.updated, rules=excluded.rules, clock=excluded.clock, spec=excluded.spec",
            (table_id, invite, watch, rules_text(rules), json_text(clock), state, now, now, optional_json_text(spec)))

    def set_table_state(self, table_id: str, state: str, reason: str | None = None) -> None:
        """`reason`: why a table closed, in words a player who comes back is told."""
        self.db.execute("UPDATE tables SET state=?, updated=?, reason=? WHERE id=?",
                        (state, time.time(), reason, table_id))
        if state not in ("waiting", "playing"):
            self.db.execute("DELETE FROM watchers WHERE table_id=?", (table_id,))

    def set_session_end(self, table_id: str, ends_at: float) -> None:
        """A timed table's session end, wall-clock."""
        self.db.execute("UPDATE tables SET session_ends=? WHERE id=?", (ends_at, table_id))

    def set_table_spec(self, table_id: str, spec: Mapping[str, Any]) -> None:
        self.db.execute("UPDATE tables SET spec=? WHERE id=?", (optional_json_text(dict(spec)), table_id))

    def set_table_broadcasts(self, table_id: str, count: int) -> None:
        """How many table broadcasts the table has sent (stored before the latest is sent)."""
        self.db.execute("UPDATE tables SET broadcasts=? WHERE id=?", (count, table_id))

    def save_watcher(self, table_id: str, token_hash: str) -> None:
        self.db.execute("INSERT OR IGNORE INTO watchers VALUES (?,?)", (table_id, token_hash))

    def remove_watcher(self, table_id: str, token_hash: str) -> None:
        self.db.execute("DELETE FROM watchers WHERE table_id=? AND token_hash=?", (table_id, token_hash))

    def watch_of_token(self, token_hash: str) -> str | None:
        """The id of the table in play that a spectator's resume token watches, if any."""
        row = self.db.execute(
            "SELECT w.table_id FROM watchers w JOIN tables t ON t.id = w.table_id"
            " WHERE w.token_hash=? AND t.state IN ('waiting', 'playing') ORDER BY t.updated DESC LIMIT 1",
            (token_hash,)).fetchone()
        return row[0] if row else None

    def save_seat(self, table_id: str, seat: int, name: str, kind: str, strategy: str | None,
                  token_hash: str | None, host: bool, player_id: str | None = None) -> None:
        self.db.execute("INSERT OR REPLACE INTO seats (table_id, seat, name, kind, strategy, token_hash, host,"
                        " player_id) VALUES (?,?,?,?,?,?,?,?)",
                        (table_id, seat, name, kind, strategy, token_hash, int(host), player_id))

    def set_seat_left(self, table_id: str, seat: int, left: bool) -> None:
        """Whether a seat's player left the game on purpose (and is played for at once)."""
        self.db.execute("UPDATE seats SET left=? WHERE table_id=? AND seat=?", (int(left), table_id, seat))

    def set_seat_host(self, table_id: str, seat: int) -> None:
        """The seat's player hosts the table now (the host left before the game)."""
        self.db.execute("UPDATE seats SET host=1 WHERE table_id=? AND seat=?", (table_id, seat))

    def remove_seat(self, table_id: str, seat: int) -> None:
        self.db.execute("DELETE FROM seats WHERE table_id=? AND seat=?", (table_id, seat))

    def seat_of_token(self, token_hash: str) -> tuple[str, int] | None:
        """The (table id, seat) of a resume token at a table still in play, if any."""
        row = self.db.execute(
            "SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.token_hash=? AND t.state IN ('waiting', 'playing') ORDER BY t.updated DESC LIMIT 1",
            (token_hash,)).fetchone()
        return (row[0], row[1]) if row else None

    def past_seat_of_token(self, token_hash: str) -> PastSeat | None:
        """The seat a resume token held at the table it sat at last, if that table is no longer
        open: what a client that comes back with the token is told (the result, or why)."""
        row = self.db.execute(
            "SELECT t.id, t.invite_code, s.seat, t.state, t.reason FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.token_hash=? ORDER BY t.updated DESC LIMIT 1", (token_hash,)).fetchone()
        if row is None or row[3] in ("waiting", "playing"):
            return None
        game = self.db.execute("SELECT id, final, names, result_seq FROM games WHERE table_id=? ORDER BY id DESC"
                               " LIMIT 1", (row[0],)).fetchone()
        return past_seat(row, game)

    def open_tables(self) -> list[TableRow]:
        """Tables waiting for their game or in play: the ones a restart rebuilds."""
        rows = self.db.execute("SELECT id, invite_code, watch_code, rules, clock, state, broadcasts, spec,"
                               " session_ends, session_extra FROM tables"
                               " WHERE state IN ('waiting', 'playing')").fetchall()
        out = []
        for row in rows:
            tid = row[0]
            seats = [seat_row(*seat) for seat in self.db.execute(
                "SELECT seat, name, kind, strategy, token_hash, host, left, player_id FROM seats WHERE table_id=?"
                " ORDER BY seat", (tid,))]
            game = self.db.execute("SELECT id FROM games WHERE table_id=? AND finished IS NULL ORDER BY id DESC"
                                   " LIMIT 1", (tid,)).fetchone()
            watchers = [h for (h,) in self.db.execute("SELECT token_hash FROM watchers WHERE table_id=?", (tid,))]
            out.append(table_row(row, seats, game[0] if game else None, watchers))
        return out

    # ---- players -----------------------------------------------------------

    def add_player(self, player: PlayerRow, key_hash: str | None) -> PlayerRow:
        """Store a player unless one with that key (keyless: that id) is stored; the one stored."""
        self.db.execute("INSERT OR IGNORE INTO players (id, key_hash, name, kind, created, issued)"
                        " VALUES (?,?,?,?,?,?)", (player.id, key_hash, player.name, player.kind.value, player.created,
                                                  int(player.issued)))
        stored = self.player_of_key(key_hash) if key_hash is not None else self.player(player.id)
        assert stored is not None
        return stored

    def player_of_key(self, key_hash: str) -> PlayerRow | None:
        row = self.db.execute(f"SELECT {PLAYER_COLUMNS} FROM players WHERE key_hash=?", (key_hash,)).fetchone()
        return None if row is None else player_row(row)

    def player(self, player_id: str) -> PlayerRow | None:
        row = self.db.execute(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id=?", (player_id,)).fetchone()
        return None if row is None else player_row(row)

    def rename_player(self, player_id: str, name: str) -> None:
        self.db.execute("UPDATE players SET name=? WHERE id=?", (name, player_id))

    def players(self) -> list[PlayerRow]:
        rows = self.db.execute(f"SELECT {PLAYER_COLUMNS} FROM players ORDER BY created, id")
        return [player_row(row) for row in rows]

    # ---- games and decisions ----------------------------------------------

    def start_game(self, table_id: str, record: GameRecord) -> int:
        """Store a new game, dealt from its record's seed or walls (deal_columns); its id."""
        seed, walls = deal_columns(record)
        cur = self.db.execute("INSERT INTO games (table_id, seed, walls, rules, names, started) VALUES (?,?,?,?,?,?)",
                              (table_id, seed, walls, rules_text(record.rules), json_text(record.names), time.time()))
        return int(cur.lastrowid)

    def add_decisions(self, game_id: int, first_index: int, decisions: Iterable[tuple[int, Action]]) -> None:
        """Write and commit decisions first_index, first_index+1, ... in one transaction."""
        self.add_decisions_batch([(game_id, first_index, decisions)])

    def add_decisions_batch(self, batches: Iterable[DecisionBatch]) -> None:
        """add_decisions for several games at once, (game_id, first_index, decisions) each, in one
        transaction: the group commit writes all the decisions of one event-loop turn so."""
        rows = decision_rows(batches)
        if not rows:
            return
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO decisions VALUES (?,?,?,?)", rows)

    def finish_game(self, game_id: int, final: dict[str, Any] | None, result_seq: int | None = None) -> None:
        """`result_seq`: the seq of the `result` broadcast that told the table (none if abandoned)."""
        self.db.execute("UPDATE games SET finished=?, final=?, result_seq=? WHERE id=?",
                        (time.time(), json_text(final), result_seq, game_id))

    def keep_finished(self, finished: GameFinished) -> None:
        """A finished game's seats, linked to their players, and (played out) its players'
        ratings, in one transaction: one writer at a time rates the games in one order (written
        once: a second time changes nothing)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE games SET labels=? WHERE id=?",
                            (json_text(list(finished.labels)), finished.game_id))
            self.db.executemany(f"INSERT OR IGNORE INTO game_seats ({GAME_SEAT_COLUMNS})"
                                f" VALUES ({', '.join('?' * len(GAME_SEAT_FIELDS))})",
                                game_seat_rows(finished))
            if rated(finished):
                self._rate(finished)

    def _rate(self, finished: GameFinished) -> None:
        """Rate a played-out game from its players' ratings now, and give it the next rated_seq."""
        row = self.db.execute("SELECT rated_seq FROM games WHERE id=?", (finished.game_id,)).fetchone()
        if row is None or row[0] is not None:
            return  # no such game, or rated already
        seats = seats_of(finished)
        players = sorted(players_of(seats))
        current = {p: Rating(mu, sigma, games) for p, mu, sigma, games in self.db.execute(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id IN ({', '.join('?' * len(players))})", players)}
        self._write_ratings(rate(seats, current))
        self.db.execute("UPDATE games SET rated_seq = (SELECT COALESCE(MAX(rated_seq), 0) + 1 FROM games)"
                        " WHERE id=?", (finished.game_id,))

    def _write_ratings(self, ratings: Mapping[str, Rating]) -> None:
        self.db.executemany("INSERT INTO ratings VALUES (?,?,?,?) ON CONFLICT(player_id) DO UPDATE SET"
                            " mu=excluded.mu, sigma=excluded.sigma, games=excluded.games",
                            [(p, r.mu, r.sigma, r.games) for p, r in sorted(ratings.items())])

    def ratings(self) -> dict[str, Rating]:
        """Every rated player's rating."""
        return {p: Rating(mu, sigma, games) for p, mu, sigma, games in self.db.execute(
            f"SELECT {RATING_COLUMNS} FROM ratings")}

    def rebuild_ratings(self, progress: Progress | None = None) -> Rebuilt:
        """Every rating again from the defaults, the rated games replayed in their order: those
        rated so far with no lock held (a server on the file goes on writing), then, in one
        write transaction, any rated meanwhile, and every rating written."""
        before = grouped(self.db.execute(RATED_SEATS.format(after="?"), (0,)))  # (one statement: one snapshot)
        so_far = replay(before.games, progress)
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            newer = grouped(self.db.execute(RATED_SEATS.format(after="?"), (before.last,)))
            ratings, report = rebuilt(before, so_far, newer, self.ratings())
            self.db.execute("DELETE FROM ratings")
            self._write_ratings(ratings)
        return report

    def player_totals(self, player_id: str, label: str | None = None) -> PlayerTotals | None:
        """A player's games played out, added up (None: it has none)."""
        row = self.db.execute(totals_query(Dialect.SQLITE, True, label is not None),
                              totals_arguments(player_id, label)).fetchone()
        return None if row is None else totals(row)

    def standings(self, label: str | None = None) -> list[PlayerTotals]:
        """Every player's totals (of the games with `label`), in the standings' order."""
        return in_standing_order([totals(row) for row in self.db.execute(
            totals_query(Dialect.SQLITE, False, label is not None), totals_arguments(None, label))])

    def players_named(self, name: str) -> list[PlayerRow]:
        """The players who show this name (names are not unique), the oldest first."""
        return [player_row(row) for row in self.db.execute(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE name=? ORDER BY created, id", (name,))]

    def game_players(self, game_id: int) -> list[str | None]:
        return [row[0] for row in self.db.execute(
            "SELECT player_id FROM game_seats WHERE game_id=? ORDER BY seat", (game_id,))]

    def player_games(self, player_id: str, limit: int = 100) -> list[PlayerGame]:
        """A player's finished games, the latest first."""
        return [player_game(row) for row in self.db.execute(
            f"SELECT {PLAYER_GAME_COLUMNS} FROM game_seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.player_id=? ORDER BY g.id DESC LIMIT ?", (player_id, limit))]

    def record(self, game_id: int) -> GameRecord:
        row = self.db.execute(f"SELECT {RECORD_COLUMNS} FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id}")
        return record_of(*row, self.db.execute("SELECT seat, action FROM decisions WHERE game_id=? ORDER BY idx",
                                               (game_id,)))

    def game(self, game_id: int) -> GameRow | None:
        row = self.db.execute("SELECT id, table_id, names, rules, started, finished, final FROM games WHERE id=?",
                              (game_id,)).fetchone()
        return None if row is None else game_row(row)

    def games(self, finished: bool | None = True) -> list[GameRow]:
        where = {True: "WHERE finished IS NOT NULL", False: "WHERE finished IS NULL", None: ""}[finished]
        return [game_row(row) for row in self.db.execute(
            f"SELECT id, table_id, names, rules, started, finished, final FROM games {where} ORDER BY id")]

    def unfinished_games(self) -> list[tuple[int, GameRecord]]:
        """Every game not finished, as (id, record): replay() rebuilds each."""
        return [(g.id, self.record(g.id)) for g in self.games(finished=False)]
