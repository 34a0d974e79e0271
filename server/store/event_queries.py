"""The events' SQL (schema step 14), written once with `?` for each argument; `numbered` gives
PostgreSQL's $1, $2, ... form.  Both stores run these and nothing else for events."""

from __future__ import annotations

import re

from server.store.event_rows import EVENT_COLUMNS, EVENT_SEAT_COLUMNS, EVENT_TABLE_COLUMNS, PENALTY_COLUMNS

ADD_EVENT = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
EVENT = f"SELECT {EVENT_COLUMNS} FROM events WHERE id = ?"
EVENTS = f"SELECT {EVENT_COLUMNS} FROM events ORDER BY created, id"
EVENT_OF_REGISTRATION = f"SELECT {EVENT_COLUMNS} FROM events WHERE registration_hash = ?"
SET_REGISTRATION = "UPDATE events SET registration_hash = ? WHERE id = ?"
# an open table's links, for any node's pages (the table may run on another)
TABLE_CODES = "SELECT invite_code, watch_code FROM tables WHERE id = ?"
# a timed table's session end (wall-clock), for any node's event page
TABLE_SESSION_END = "SELECT session_ends FROM tables WHERE id = ?"
# the next seq is counted in the insert itself: a player added twice is added once
ADD_PLAYER = ("INSERT INTO event_players (event_id, player_id, seq, added)"
              " SELECT ?, ?, COUNT(*), ? FROM event_players WHERE event_id = ? ON CONFLICT DO NOTHING")
# ... by self-registration: only while the event's first round has not started
REGISTER_PLAYER = ("INSERT INTO event_players (event_id, player_id, seq, added)"
                   " SELECT ?, ?, COUNT(*), ? FROM event_players WHERE event_id = ?"
                   " HAVING NOT EXISTS (SELECT 1 FROM event_tables WHERE event_id = ?) ON CONFLICT DO NOTHING")
PLAYERS = "SELECT player_id FROM event_players WHERE event_id = ? ORDER BY seq, player_id"
# PostgreSQL: a transaction that adds a player or a round holds its event's row, so that the two
# are one after the other (SQLite's writers are, by BEGIN IMMEDIATE)
LOCK_EVENT = "SELECT id FROM events WHERE id = ? FOR UPDATE"
ADD_TABLE = ("INSERT INTO event_tables (event_id, round, table_no, seats, state, table_id, game_id, sitters)"
             " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
TABLES = f"SELECT {EVENT_TABLE_COLUMNS} FROM event_tables WHERE event_id = ? ORDER BY round, table_no"
# the tables a server has work with: to open, or (reseat) to close and open again, or claimed by a server
# that never opened them (claimed before the argument: it stopped between the claim and the open)
PENDING_TABLES = (f"SELECT {EVENT_TABLE_COLUMNS} FROM event_tables WHERE state IN ('pending', 'reseat')"
                  " OR (state = 'opening' AND (claimed IS NULL OR claimed < ?)) ORDER BY event_id, round, table_no")
# one server's claim (its name, the time): of a pending table, or of one whose claim is older than the last argument
CLAIM_TABLE = ("UPDATE event_tables SET state = 'opening', claim = ?, claimed = ? WHERE event_id = ? AND round = ?"
               " AND table_no = ? AND (state = 'pending' OR (state = 'opening' AND (claimed IS NULL OR claimed < ?)))")
# a substitute named: who sits in each seat; an open table is to be opened again with them
SUBSTITUTE = ("UPDATE event_tables SET sitters = ?, state = CASE WHEN state = 'pending' THEN 'pending'"
              " ELSE 'reseat' END WHERE event_id = ? AND round = ? AND table_no = ? AND state IN ('pending', 'open')")
# the table closed before its game began: pending again, to be opened afresh (or back to open: it began)
REOPEN_TABLE = ("UPDATE event_tables SET state = 'pending', table_id = NULL WHERE event_id = ? AND round = ?"
                " AND table_no = ? AND state = 'reseat'")
KEEP_TABLE = ("UPDATE event_tables SET state = 'open' WHERE event_id = ? AND round = ? AND table_no = ?"
              " AND state = 'reseat'")
RELEASE_TABLE = ("UPDATE event_tables SET state = 'pending' WHERE event_id = ? AND round = ? AND table_no = ?"
                 " AND state = 'opening' AND claim = ?")
# opened by the server of the claim, if that claim still holds (a claim gone stale may have been taken over)
TABLE_OPENED = ("UPDATE event_tables SET state = 'open', table_id = ? WHERE event_id = ? AND round = ?"
                " AND table_no = ? AND state = 'opening' AND claim = ?")
TABLE_ENDED = ("UPDATE event_tables SET state = ?, game_id = ?, by_time = ? WHERE table_id = ?"
               " AND state IN ('open', 'reseat')")
# the session clock's extra time: asked for by the organiser, taken (the amount read) by the node running the table
ASK_EXTRA = ("UPDATE event_tables SET extra_asked = extra_asked + ? WHERE event_id = ? AND round = ? AND table_no = ?"
             " AND state IN ('open', 'reseat')")
EXTRA_ASKED = (f"SELECT {EVENT_TABLE_COLUMNS} FROM event_tables WHERE extra_asked > 0 AND state IN ('open', 'reseat')"
               " ORDER BY event_id, round, table_no")
TAKE_EXTRA = ("UPDATE event_tables SET extra_asked = 0 WHERE event_id = ? AND round = ? AND table_no = ?"
              " AND extra_asked = ?")
# ... and, in the same transaction, kept with the table (its end moved once there is one)
KEEP_EXTRA = "UPDATE tables SET session_extra = session_extra + ?, session_ends = session_ends + ? WHERE id = ?"
# the tables not yet ended that a player sits at (the JSON holds each id in quotes: '%"ID"%')
PLAYER_TABLES = (f"SELECT {EVENT_TABLE_COLUMNS} FROM event_tables WHERE state IN ('pending', 'opening', 'open',"
                 " 'reseat') AND COALESCE(sitters, seats) LIKE ? ORDER BY event_id, round, table_no")
ADD_PENALTY = f"INSERT INTO event_penalties (event_id, {PENALTY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
PENALTIES = f"SELECT {PENALTY_COLUMNS} FROM event_penalties WHERE event_id = ? ORDER BY id"
RESULTS = (f"SELECT {EVENT_SEAT_COLUMNS} FROM event_tables t JOIN game_seats s ON s.game_id = t.game_id"
           " WHERE t.event_id = ? AND t.state = 'done' ORDER BY t.round, t.table_no, s.seat")


def numbered(query: str) -> str:
    """`?` as PostgreSQL's $1, $2, ... in order (none of these queries has a ? in a string)."""
    count = iter(range(1, query.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", query)
