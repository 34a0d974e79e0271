"""The events' part of the embedded store (server/store/embedded.py): the SQLite file's event
methods (server/store/sqlite_events.py) as the Store's coroutines, answered at once."""

from __future__ import annotations

from collections.abc import Sequence

from server.store.event_rows import EventRow, EventSeatRow, EventTableRow, PenaltyRow, RoundAdded
from server.store.sqlite import SqliteFile


class EmbeddedEvents:
    file: SqliteFile

    async def add_event(self, event: EventRow) -> None:
        self.file.add_event(event)

    async def event(self, event_id: str) -> EventRow | None:
        return self.file.event(event_id)

    async def events(self) -> list[EventRow]:
        return self.file.events()

    async def event_of_registration(self, registration_hash: str) -> EventRow | None:
        return self.file.event_of_registration(registration_hash)

    async def set_event_registration(self, event_id: str, registration_hash: str) -> None:
        self.file.set_event_registration(event_id, registration_hash)

    async def table_codes(self, table_id: str) -> tuple[str, str] | None:
        return self.file.table_codes(table_id)

    async def table_session_end(self, table_id: str) -> float | None:
        return self.file.table_session_end(table_id)

    async def add_event_player(self, event_id: str, player_id: str) -> bool:
        return self.file.add_event_player(event_id, player_id)

    async def register_event_player(self, event_id: str, player_id: str) -> bool:
        return self.file.register_event_player(event_id, player_id)

    async def event_players(self, event_id: str) -> list[str]:
        return self.file.event_players(event_id)

    async def add_event_round(self, tables: Sequence[EventTableRow], players: Sequence[str]) -> RoundAdded:
        return self.file.add_event_round(tables, players)

    async def event_tables(self, event_id: str) -> list[EventTableRow]:
        return self.file.event_tables(event_id)

    async def pending_event_tables(self, stale_before: float | None = None) -> list[EventTableRow]:
        return self.file.pending_event_tables(stale_before)

    async def player_event_tables(self, player_id: str) -> list[EventTableRow]:
        return self.file.player_event_tables(player_id)

    async def claim_event_table(self, event_id: str, round_: int, table: int, claim: str = "",
                                now: float | None = None) -> bool:
        return self.file.claim_event_table(event_id, round_, table, claim, now)

    async def substitute_event_table(self, event_id: str, round_: int, table: int, sitters: Sequence[str]) -> bool:
        return self.file.substitute_event_table(event_id, round_, table, sitters)

    async def reopen_event_table(self, event_id: str, round_: int, table: int, reopen: bool) -> None:
        self.file.reopen_event_table(event_id, round_, table, reopen)

    async def release_event_table(self, event_id: str, round_: int, table: int, claim: str = "") -> None:
        self.file.release_event_table(event_id, round_, table, claim)

    async def event_table_opened(self, event_id: str, round_: int, table: int, table_id: str,
                                 claim: str = "") -> bool:
        return self.file.event_table_opened(event_id, round_, table, table_id, claim)

    async def event_table_ended(self, table_id: str, game_id: int, abandoned: bool, by_time: bool = False) -> bool:
        return self.file.event_table_ended(table_id, game_id, abandoned, by_time)

    async def ask_extra_time(self, event_id: str, round_: int, table: int, seconds: float) -> bool:
        return self.file.ask_extra_time(event_id, round_, table, seconds)

    async def extra_time_asked(self) -> list[EventTableRow]:
        return self.file.extra_time_asked()

    async def take_extra_time(self, event_id: str, round_: int, table: int, seconds: float, table_id: str) -> bool:
        return self.file.take_extra_time(event_id, round_, table, seconds, table_id)

    async def add_event_penalty(self, event_id: str, penalty: PenaltyRow) -> None:
        self.file.add_event_penalty(event_id, penalty)

    async def event_penalties(self, event_id: str) -> list[PenaltyRow]:
        return self.file.event_penalties(event_id)

    async def event_results(self, event_id: str) -> list[EventSeatRow]:
        return self.file.event_results(event_id)
