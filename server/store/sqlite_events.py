"""The events' part of the SQLite file (server/store/sqlite.py): SqliteFile takes these methods.
Every call commits at once; a round's tables are written in one transaction."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence

from server.store import event_queries as q
from server.store.event_rows import (
    CLAIM_STALE_AFTER, EventRow, EventSeatRow, EventTableRow, EventTableState, PenaltyRow, RoundAdded, event_row,
    event_seat_row, event_table_row, penalty_row,
)


class SqliteEvents:
    db: sqlite3.Connection

    def add_event(self, event: EventRow) -> None:
        self.db.execute(q.ADD_EVENT, (event.id, event.name, json.dumps(event.spec), event.registration_hash,
                                      event.created))

    def event(self, event_id: str) -> EventRow | None:
        row = self.db.execute(q.EVENT, (event_id,)).fetchone()
        return None if row is None else event_row(row)

    def events(self) -> list[EventRow]:
        return [event_row(row) for row in self.db.execute(q.EVENTS)]

    def event_of_registration(self, registration_hash: str) -> EventRow | None:
        row = self.db.execute(q.EVENT_OF_REGISTRATION, (registration_hash,)).fetchone()
        return None if row is None else event_row(row)

    def set_event_registration(self, event_id: str, registration_hash: str) -> None:
        self.db.execute(q.SET_REGISTRATION, (registration_hash, event_id))

    def table_codes(self, table_id: str) -> tuple[str, str] | None:
        row = self.db.execute(q.TABLE_CODES, (table_id,)).fetchone()
        return None if row is None else (row[0], row[1])

    def table_session_end(self, table_id: str) -> float | None:
        row = self.db.execute(q.TABLE_SESSION_END, (table_id,)).fetchone()
        return None if row is None else row[0]

    def add_event_player(self, event_id: str, player_id: str) -> bool:
        """False: the player was in the event already."""
        return self.db.execute(q.ADD_PLAYER, (event_id, player_id, time.time(), event_id)).rowcount == 1

    def register_event_player(self, event_id: str, player_id: str) -> bool:
        """Added by self-registration; False: in already, or the first round has started."""
        now = time.time()
        return self.db.execute(q.REGISTER_PLAYER, (event_id, player_id, now, event_id, event_id)).rowcount == 1

    def event_players(self, event_id: str) -> list[str]:
        return [row[0] for row in self.db.execute(q.PLAYERS, (event_id,))]

    def add_event_round(self, tables: Sequence[EventTableRow], players: Sequence[str]) -> RoundAdded:
        """A round's tables, all or none, seated from `players` (the event's, as read)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if tables and self.event_players(tables[0].event_id) != list(players):
                self.db.execute("ROLLBACK")
                return RoundAdded.PLAYERS_CHANGED
            for t in tables:
                self.db.execute(q.ADD_TABLE, (t.event_id, t.round, t.table, json.dumps(list(t.seats)), t.state.value,
                                              t.table_id, t.game_id, _sitters(t)))
        except sqlite3.IntegrityError:
            self.db.execute("ROLLBACK")
            return RoundAdded.EXISTS
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        return RoundAdded.ADDED

    def event_tables(self, event_id: str) -> list[EventTableRow]:
        return [event_table_row(row) for row in self.db.execute(q.TABLES, (event_id,))]

    def pending_event_tables(self, stale_before: float | None = None) -> list[EventTableRow]:
        stale = time.time() - CLAIM_STALE_AFTER if stale_before is None else stale_before
        return [event_table_row(row) for row in self.db.execute(q.PENDING_TABLES, (stale,))]

    def player_event_tables(self, player_id: str) -> list[EventTableRow]:
        return [event_table_row(row) for row in self.db.execute(q.PLAYER_TABLES, (f'%"{player_id}"%',))]

    def claim_event_table(self, event_id: str, round_: int, table: int, claim: str = "",
                          now: float | None = None) -> bool:
        """Pending (or claimed long ago, never opened) -> opening, for one server only: True for the one
        that claimed it."""
        now = time.time() if now is None else now
        return self.db.execute(q.CLAIM_TABLE, (claim, now, event_id, round_, table,
                                               now - CLAIM_STALE_AFTER)).rowcount == 1

    def substitute_event_table(self, event_id: str, round_: int, table: int, sitters: Sequence[str]) -> bool:
        """Who sits in each seat now; False: the table is neither pending nor open (being opened or closed:
        try again; or ended)."""
        return self.db.execute(q.SUBSTITUTE, (json.dumps(list(sitters)), event_id, round_, table)).rowcount == 1

    def reopen_event_table(self, event_id: str, round_: int, table: int, reopen: bool) -> None:
        """A table to reseat: pending again (`reopen`: its table closed before its game began) or open."""
        self.db.execute(q.REOPEN_TABLE if reopen else q.KEEP_TABLE, (event_id, round_, table))

    def release_event_table(self, event_id: str, round_: int, table: int, claim: str = "") -> None:
        """Opening -> pending again: the server that claimed it could not open it."""
        self.db.execute(q.RELEASE_TABLE, (event_id, round_, table, claim))

    def event_table_opened(self, event_id: str, round_: int, table: int, table_id: str, claim: str = "") -> bool:
        """False: the claim was taken over by another server (it had gone stale)."""
        return self.db.execute(q.TABLE_OPENED, (table_id, event_id, round_, table, claim)).rowcount == 1

    def event_table_ended(self, table_id: str, game_id: int, abandoned: bool, by_time: bool = False) -> bool:
        """The event table that `table_id` is, ended with `game_id` (`by_time`: ended by its session's
        time); False: it is no event's open table."""
        state = EventTableState.ABANDONED if abandoned else EventTableState.DONE
        return self.db.execute(q.TABLE_ENDED, (state.value, game_id, int(by_time), table_id)).rowcount == 1

    def ask_extra_time(self, event_id: str, round_: int, table: int, seconds: float) -> bool:
        """The organiser asks for `seconds` more at a table in play; False: it is not in play."""
        return self.db.execute(q.ASK_EXTRA, (seconds, event_id, round_, table)).rowcount == 1

    def extra_time_asked(self) -> list[EventTableRow]:
        return [event_table_row(row) for row in self.db.execute(q.EXTRA_ASKED)]

    def take_extra_time(self, event_id: str, round_: int, table: int, seconds: float, table_id: str) -> bool:
        """The extra time asked for (`seconds`, as read) taken by the node that gives it, and kept
        with its table `table_id`, in one transaction: True once."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if self.db.execute(q.TAKE_EXTRA, (event_id, round_, table, seconds)).rowcount != 1:
                return False
            self.db.execute(q.KEEP_EXTRA, (seconds, seconds, table_id))
            return True

    def add_event_penalty(self, event_id: str, penalty: PenaltyRow) -> None:
        self.db.execute(q.ADD_PENALTY, (event_id, penalty.player_id, str(penalty.points), penalty.reason,
                                        penalty.round, penalty.created or time.time()))

    def event_penalties(self, event_id: str) -> list[PenaltyRow]:
        return [penalty_row(row) for row in self.db.execute(q.PENALTIES, (event_id,))]

    def event_results(self, event_id: str) -> list[EventSeatRow]:
        return [event_seat_row(row) for row in self.db.execute(q.RESULTS, (event_id,))]


def _sitters(table: EventTableRow) -> str | None:
    return None if table.sitters is None else json.dumps(list(table.sitters))
