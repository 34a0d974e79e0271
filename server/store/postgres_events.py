"""The events' part of the PostgreSQL store (server/store/postgres.py): PostgresStore takes
these methods.  Writes wait out a database that is away (Outage.held); reads ask once."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from server.store import event_queries as q
from server.store.event_queries import numbered
from server.store.event_rows import (
    CLAIM_STALE_AFTER, EventRow, EventSeatRow, EventTableRow, EventTableState, PenaltyRow, RoundAdded, event_row,
    event_seat_row, event_table_row, penalty_row,
)
from server.store.pg_away import Outage


def _changed(status: str) -> int:
    """The rows an asyncpg command's status ("UPDATE 1", "INSERT 0 1") says it changed."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresEvents:
    pool: Any
    outage: Outage
    _writing: Callable[[str], AbstractAsyncContextManager[Any]]  # PostgresStore's: a fenced write transaction

    async def _event_write(self, query: str, *args: Any) -> str:
        return await self.outage.held(lambda: self.pool.execute(numbered(query), *args))

    async def _event_rows(self, query: str, *args: Any) -> list[Any]:
        return [tuple(row) for row in await self.outage.asked(lambda: self.pool.fetch(numbered(query), *args))]

    async def add_event(self, event: EventRow) -> None:
        await self._event_write(q.ADD_EVENT, event.id, event.name, json.dumps(event.spec), event.registration_hash,
                          event.created)

    async def event(self, event_id: str) -> EventRow | None:
        rows = await self._event_rows(q.EVENT, event_id)
        return event_row(rows[0]) if rows else None

    async def events(self) -> list[EventRow]:
        return [event_row(row) for row in await self._event_rows(q.EVENTS)]

    async def event_of_registration(self, registration_hash: str) -> EventRow | None:
        rows = await self._event_rows(q.EVENT_OF_REGISTRATION, registration_hash)
        return event_row(rows[0]) if rows else None

    async def set_event_registration(self, event_id: str, registration_hash: str) -> None:
        await self._event_write(q.SET_REGISTRATION, registration_hash, event_id)

    async def table_codes(self, table_id: str) -> tuple[str, str] | None:
        rows = await self._event_rows(q.TABLE_CODES, table_id)
        return (rows[0][0], rows[0][1]) if rows else None

    async def table_session_end(self, table_id: str) -> float | None:
        rows = await self._event_rows(q.TABLE_SESSION_END, table_id)
        return rows[0][0] if rows else None

    async def add_event_player(self, event_id: str, player_id: str) -> bool:
        return _changed(await self._event_write(q.ADD_PLAYER, event_id, player_id, time.time(), event_id)) == 1

    async def register_event_player(self, event_id: str, player_id: str) -> bool:
        async def attempt() -> bool:
            async with self.pool.acquire() as connection, connection.transaction():
                await connection.execute(numbered(q.LOCK_EVENT), event_id)
                return _changed(await connection.execute(numbered(q.REGISTER_PLAYER), event_id, player_id, time.time(),
                                                         event_id, event_id)) == 1
        return await self.outage.held(attempt)

    async def event_players(self, event_id: str) -> list[str]:
        return [row[0] for row in await self._event_rows(q.PLAYERS, event_id)]

    async def add_event_round(self, tables: Sequence[EventTableRow], players: Sequence[str]) -> RoundAdded:
        import asyncpg  # only for a PostgreSQL store

        async def attempt() -> RoundAdded:
            try:
                async with self.pool.acquire() as connection, connection.transaction():
                    if tables:
                        await connection.execute(numbered(q.LOCK_EVENT), tables[0].event_id)
                        read = await connection.fetch(numbered(q.PLAYERS), tables[0].event_id)
                        if [row[0] for row in read] != list(players):
                            return RoundAdded.PLAYERS_CHANGED
                    await connection.executemany(numbered(q.ADD_TABLE), [
                        (t.event_id, t.round, t.table, json.dumps(list(t.seats)), t.state.value, t.table_id,
                         t.game_id, None if t.sitters is None else json.dumps(list(t.sitters))) for t in tables])
            except asyncpg.UniqueViolationError:
                return RoundAdded.EXISTS
            return RoundAdded.ADDED
        return await self.outage.held(attempt)

    async def event_tables(self, event_id: str) -> list[EventTableRow]:
        return [event_table_row(row) for row in await self._event_rows(q.TABLES, event_id)]

    async def pending_event_tables(self, stale_before: float | None = None) -> list[EventTableRow]:
        stale = time.time() - CLAIM_STALE_AFTER if stale_before is None else stale_before
        return [event_table_row(row) for row in await self._event_rows(q.PENDING_TABLES, stale)]

    async def player_event_tables(self, player_id: str) -> list[EventTableRow]:
        return [event_table_row(row) for row in await self._event_rows(q.PLAYER_TABLES, f'%"{player_id}"%')]

    async def claim_event_table(self, event_id: str, round_: int, table: int, claim: str = "",
                                now: float | None = None) -> bool:
        now = time.time() if now is None else now
        return _changed(await self._event_write(q.CLAIM_TABLE, claim, now, event_id, round_, table,
                                                now - CLAIM_STALE_AFTER)) == 1

    async def substitute_event_table(self, event_id: str, round_: int, table: int, sitters: Sequence[str]) -> bool:
        return _changed(await self._event_write(q.SUBSTITUTE, json.dumps(list(sitters)), event_id, round_, table)) == 1

    async def reopen_event_table(self, event_id: str, round_: int, table: int, reopen: bool) -> None:
        await self._event_write(q.REOPEN_TABLE if reopen else q.KEEP_TABLE, event_id, round_, table)

    async def release_event_table(self, event_id: str, round_: int, table: int, claim: str = "") -> None:
        await self._event_write(q.RELEASE_TABLE, event_id, round_, table, claim)

    async def event_table_opened(self, event_id: str, round_: int, table: int, table_id: str,
                                 claim: str = "") -> bool:
        return _changed(await self._event_write(q.TABLE_OPENED, table_id, event_id, round_, table, claim)) == 1

    async def event_table_ended(self, table_id: str, game_id: int, abandoned: bool, by_time: bool = False) -> bool:
        state = EventTableState.ABANDONED if abandoned else EventTableState.DONE
        return _changed(await self._event_write(q.TABLE_ENDED, state.value, game_id, int(by_time), table_id)) == 1

    async def ask_extra_time(self, event_id: str, round_: int, table: int, seconds: float) -> bool:
        return _changed(await self._event_write(q.ASK_EXTRA, float(seconds), event_id, round_, table)) == 1

    async def extra_time_asked(self) -> list[EventTableRow]:
        return [event_table_row(row) for row in await self._event_rows(q.EXTRA_ASKED)]

    async def take_extra_time(self, event_id: str, round_: int, table: int, seconds: float, table_id: str) -> bool:
        async def attempt() -> bool:
            async with self._writing(table_id) as connection:  # (fenced: the table's lease holder alone)
                if _changed(await connection.execute(numbered(q.TAKE_EXTRA), event_id, round_, table,
                                                     float(seconds))) != 1:
                    return False
                await connection.execute(numbered(q.KEEP_EXTRA), float(seconds), float(seconds), table_id)
                return True
        return await self.outage.held(attempt)

    async def add_event_penalty(self, event_id: str, penalty: PenaltyRow) -> None:
        await self._event_write(q.ADD_PENALTY, event_id, penalty.player_id, str(penalty.points), penalty.reason,
                          penalty.round, penalty.created or time.time())

    async def event_penalties(self, event_id: str) -> list[PenaltyRow]:
        return [penalty_row(row) for row in await self._event_rows(q.PENALTIES, event_id)]

    async def event_results(self, event_id: str) -> list[EventSeatRow]:
        return [event_seat_row(row) for row in await self._event_rows(q.RESULTS, event_id)]
