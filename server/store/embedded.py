"""The embedded default store: one SQLite file (server/store/sqlite.py) on the server's event
loop, as a `Store` (server/store/protocol.py).

A local file in WAL mode answers in microseconds, so each call runs at once (its coroutine
never waits).  Group commit: the decisions that tables accept during one turn of the event
loop are written in one transaction, at the end of the turn or before any socket write,
whichever comes first (`flush`, which the connections' outboxes call before they write): a
decision is still stored before anything it caused is sent, at one commit a turn instead of
one a decision.  A game's end and a table's state flush what is gathered first, so the file
never holds a game's end without every decision before it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from server.finished import GameFinished
from server.game.actions import Action
from server.game.record import GameRecord
from server.rules.config import Rules
from server.ratings import Progress, Rating, Rebuilt
from server.store.rows import GameRow, PastSeat, PlayerGame, PlayerRow, PlayerTotals, SeatRow, TableRow
from server.store.embedded_events import EmbeddedEvents
from server.store.ladder_store import LadderStore
from server.store.sqlite import SqliteFile


class SqliteStore(EmbeddedEvents, LadderStore):
    def __init__(self, file: SqliteFile):
        self.file = file
        self._gathered: list[tuple[int, int, Sequence[tuple[int, Action]]]] = []

    async def _ladder_write(self, query: str, *args: Any) -> int:
        return self.file.db.execute(query, args).rowcount

    async def _ladder_rows(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        return self.file.db.execute(query, args).fetchall()

    # ---- decisions: the group commit -------------------------------------------------

    async def append_decisions(self, game_id: int, first_index: int, decisions: Sequence[tuple[int, Action]]) -> None:
        if not decisions:
            return
        if not self._gathered:
            asyncio.get_running_loop().call_soon(self.flush)
        self._gathered.append((game_id, first_index, decisions))

    def flush(self) -> None:
        if self._gathered:
            batches, self._gathered = self._gathered, []
            self.file.add_decisions_batch(batches)

    async def finish_game(self, game_id: int, final: Mapping[str, Any], result_seq: int | None) -> None:
        self.flush()
        self.file.finish_game(game_id, dict(final), result_seq)

    async def set_table_state(self, table_id: str, state: str, reason: str | None = None) -> None:
        self.flush()
        self.file.set_table_state(table_id, str(state), reason)

    # ---- the rest, at once -------------------------------------------------------------

    async def save_table(self, table_id: str, invite: str, watch: str, rules: Rules,
                         clock: Mapping[str, float] | None, spec: Mapping[str, Any] | None = None) -> None:
        self.file.save_table(table_id, invite, watch, rules, dict(clock) if clock else None, "waiting",
                             dict(spec) if spec is not None else None)

    async def set_session_end(self, table_id: str, ends_at: float) -> None:
        self.file.set_session_end(table_id, ends_at)

    async def set_table_spec(self, table_id: str, spec: Mapping[str, Any]) -> None:
        self.file.set_table_spec(table_id, spec)

    async def set_table_broadcasts(self, table_id: str, count: int) -> None:
        self.file.set_table_broadcasts(table_id, count)

    async def open_tables(self) -> list[TableRow]:
        return self.file.open_tables()

    async def save_seat(self, table_id: str, seat: SeatRow) -> None:
        self.file.save_seat(table_id, seat.seat, seat.name, seat.kind, seat.strategy, seat.token_hash, seat.host,
                            seat.player_id)

    async def remove_seat(self, table_id: str, seat: int) -> None:
        self.file.remove_seat(table_id, seat)

    async def set_seat_left(self, table_id: str, seat: int, left: bool) -> None:
        self.file.set_seat_left(table_id, seat, left)

    async def set_seat_host(self, table_id: str, seat: int) -> None:
        self.file.set_seat_host(table_id, seat)

    async def save_watcher(self, table_id: str, token_hash: str) -> None:
        self.file.save_watcher(table_id, token_hash)

    async def remove_watcher(self, table_id: str, token_hash: str) -> None:
        self.file.remove_watcher(table_id, token_hash)

    async def seat_of_token(self, token_hash: str) -> tuple[str, int] | None:
        return self.file.seat_of_token(token_hash)

    async def watch_of_token(self, token_hash: str) -> str | None:
        return self.file.watch_of_token(token_hash)

    async def past_seat_of_token(self, token_hash: str) -> PastSeat | None:
        return self.file.past_seat_of_token(token_hash)

    async def start_game(self, table_id: str, record: GameRecord) -> int:
        return self.file.start_game(table_id, record)

    async def keep_finished(self, finished: GameFinished) -> None:
        self.file.keep_finished(finished)

    async def game_players(self, game_id: int) -> list[str | None]:
        return self.file.game_players(game_id)

    async def player_games(self, player_id: str, limit: int = 100) -> list[PlayerGame]:
        return self.file.player_games(player_id, limit)

    async def player_totals(self, player_id: str, label: str | None = None) -> PlayerTotals | None:
        return self.file.player_totals(player_id, label)

    async def standings(self, label: str | None = None) -> list[PlayerTotals]:
        return self.file.standings(label)

    async def players_named(self, name: str) -> list[PlayerRow]:
        return self.file.players_named(name)

    async def ratings(self) -> dict[str, Rating]:
        return self.file.ratings()

    async def rebuild_ratings(self, progress: Progress | None = None) -> Rebuilt:
        return self.file.rebuild_ratings(progress)

    async def record(self, game_id: int) -> GameRecord:
        self.flush()  # what was appended is part of the record
        return self.file.record(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        self.flush()  # a game's end is stored after what was appended
        return self.file.game(game_id)

    async def add_player(self, player: PlayerRow, key_hash: str | None) -> PlayerRow:
        return self.file.add_player(player, key_hash)

    async def player_of_key(self, key_hash: str) -> PlayerRow | None:
        return self.file.player_of_key(key_hash)

    async def player(self, player_id: str) -> PlayerRow | None:
        return self.file.player(player_id)

    async def rename_player(self, player_id: str, name: str) -> None:
        self.file.rename_player(player_id, name)

    async def players(self) -> list[PlayerRow]:
        return self.file.players()

    async def healthy(self) -> bool:
        return self.file.healthy()

    def close(self) -> None:
        self.flush()
        self.file.close()

    async def aclose(self) -> None:
        self.close()
