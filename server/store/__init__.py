"""Persistence: tables, seats, games and every accepted decision.

rows.py     what is read back, as plain data (and resume tokens' hashes)
sqlite.py   SqliteFile: one SQLite file, synchronous (the commands and the tests read it)
embedded.py SqliteStore: that file on the server's event loop, with the group commit
"""

from server.store.embedded import SqliteStore
from server.store.rows import GameRow, PastSeat, SeatRow, TableRow, token_hash
from server.store.sqlite import SqliteFile

__all__ = ["GameRow", "PastSeat", "SeatRow", "SqliteFile", "SqliteStore", "TableRow", "token_hash"]
