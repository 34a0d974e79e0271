"""Persistence: tables, seats, games and every accepted decision.

rows.py     what is read back, as plain data (and resume tokens' hashes)
sqlite.py   SqliteFile: one SQLite file, synchronous (the commands and the tests read it)
embedded.py SqliteStore: that file on the server's event loop, with the group commit
postgres.py PostgresStore: the same store in PostgreSQL (asyncpg), the group commit awaited
columns.py  the rows as columns, the same text in both databases
schema.py   the schema's numbered versions, migrated on opening
opening.py  which store a --db names
"""

from server.store.embedded import SqliteStore
from server.store.rows import GameRow, PastSeat, SeatRow, TableRow, token_hash
from server.store.sqlite import SqliteFile

__all__ = ["GameRow", "PastSeat", "SeatRow", "SqliteFile", "SqliteStore", "TableRow", "token_hash"]
