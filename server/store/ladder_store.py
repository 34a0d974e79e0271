"""The ladders' part of both stores (server/ladder/): written once over two primitives each store
gives, `_ladder_write` (a command: the rows it changed) and `_ladder_rows` (a query's rows), so that
the SQLite file and PostgreSQL run the same SQL (server/store/ladder_queries.py)."""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from server.ratings import Rating
from server.store import ladder_queries as q
from server.store.ladder_rows import (
    LadderBotRow, LadderGameRow, LadderGameState, LadderRow, LadderSeatRow, LadderSetRow, bot_row, game_row,
    ladder_row, seat_row, set_row,
)


class LadderStore(ABC):
    """The ladder methods of a store that gives the two primitives below."""

    @abstractmethod
    async def _ladder_write(self, query: str, *args: Any) -> int:
        """Run a command of ladder_queries; the rows it changed."""

    @abstractmethod
    async def _ladder_rows(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        """Run a query of ladder_queries; its rows."""

    async def add_ladder(self, ladder: LadderRow) -> bool:
        """False: a ladder of that name exists already."""
        return await self._ladder_write(q.ADD_LADDER, ladder.name, ladder.rules, ladder.fill, ladder.created) == 1

    async def ladder(self, name: str) -> LadderRow | None:
        rows = await self._ladder_rows(q.LADDER, name)
        return ladder_row(rows[0]) if rows else None

    async def ladders(self) -> list[LadderRow]:
        return [ladder_row(row) for row in await self._ladder_rows(q.LADDERS)]

    async def claim_matcher(self, name: str, node: str, lease: float) -> bool:
        """Whether `node` matches the ladder's bots for the next `lease` seconds (it did, or nobody
        does, or the last one's lease lapsed)."""
        now = time.time()
        return await self._ladder_write(q.CLAIM_MATCHER, node, now + lease, name, node, now) == 1

    async def queue_bot(self, ladder: str, player_id: str, node: str) -> None:
        now = time.time()
        await self._ladder_write(q.QUEUE_BOT, ladder, player_id, now, now, node, now)

    async def touch_bots(self, ladder: str, node: str) -> None:
        """The bots whose connection `node` holds are there now."""
        await self._ladder_write(q.TOUCH_BOTS, time.time(), ladder, node)

    async def bot_gone(self, ladder: str, player_id: str, node: str) -> None:
        """Its connection (on `node`) closed: out of the queue (unless it came back on another node)."""
        await self._ladder_write(q.BOT_GONE, ladder, player_id, node)

    async def drop_bot(self, ladder: str, player_id: str) -> None:
        """Out of the queue, whichever node holds its connection (it did not take the seat it was given)."""
        await self._ladder_write(q.DROP_BOT, ladder, player_id)

    async def ladder_bots(self, ladder: str) -> list[LadderBotRow]:
        return [bot_row(row) for row in await self._ladder_rows(q.BOTS, ladder)]

    async def claim_bot(self, ladder: str, player_id: str) -> bool:
        """Free -> busy: True for the one caller that took it."""
        return await self._ladder_write(q.CLAIM_BOT, ladder, player_id) == 1

    async def free_bot(self, ladder: str, player_id: str) -> None:
        """Busy -> free, queued from now (a bot gone stays gone)."""
        await self._ladder_write(q.FREE_BOT, time.time(), ladder, player_id)

    async def add_ladder_set(self, ladder: str, seed: bytes, entrants: Sequence[str]) -> LadderSetRow:
        """A new set, numbered after the last (the matchmaker's lease holder alone adds them)."""
        await self._ladder_write(q.ADD_SET, ladder, seed.hex(), json.dumps(list(entrants)), time.time(), ladder)
        return set_row((await self._ladder_rows(q.LAST_SET, ladder))[0])

    async def playing_sets(self, ladder: str) -> list[LadderSetRow]:
        return [set_row(row) for row in await self._ladder_rows(q.SETS_PLAYING, ladder)]

    async def ladder_set_done(self, ladder: str, number: int) -> None:
        await self._ladder_write(q.SET_DONE, ladder, number)

    async def claim_ladder_game(self, ladder: str, number: int, rotation: int, seats: Sequence[str]) -> bool:
        """A set's game to open, claimed by its row: False when it exists already."""
        return await self._ladder_write(q.ADD_GAME, ladder, number, rotation, json.dumps(list(seats))) == 1

    async def release_ladder_game(self, ladder: str, number: int, rotation: int) -> None:
        """Its table could not be opened: the claim goes, for a later look."""
        await self._ladder_write(q.DROP_GAME, ladder, number, rotation)

    async def ladder_game_closed(self, table_id: str) -> bool:
        """Its table closed before its game began: the set's game is to be opened again (False: it is
        no ladder's open game)."""
        return await self._ladder_write(q.DROP_OPEN_GAME, table_id) == 1

    async def ladder_game_opened(self, ladder: str, number: int, rotation: int, table_id: str, invite: str) -> None:
        await self._ladder_write(q.GAME_OPENED, table_id, invite, ladder, number, rotation)

    async def ladder_game_ended(self, table_id: str, game_id: int, abandoned: bool) -> LadderGameRow | None:
        """The ladder game of `table_id`, ended; None when it is no ladder's open game."""
        state = LadderGameState.ABANDONED if abandoned else LadderGameState.DONE
        if await self._ladder_write(q.GAME_ENDED, state.value, game_id, time.time(), table_id) != 1:
            return None
        return game_row((await self._ladder_rows(q.GAME_OF_TABLE, table_id))[0])

    async def set_games(self, ladder: str, number: int) -> list[LadderGameRow]:
        return [game_row(row) for row in await self._ladder_rows(q.GAMES_OF_SET, ladder, number)]

    async def open_ladder_games(self, ladder: str) -> list[LadderGameRow]:
        return [game_row(row) for row in await self._ladder_rows(q.OPEN_GAMES, ladder)]

    async def ended_ladder_games(self, ladder: str, limit: int = 20) -> list[LadderGameRow]:
        return [game_row(row) for row in await self._ladder_rows(q.ENDED_GAMES, ladder, limit)]

    async def ladder_seats(self, ladder: str) -> list[LadderSeatRow]:
        """The seats of the ladder's games played out, by game id and seat."""
        return [seat_row(row) for row in await self._ladder_rows(q.SEATS, ladder)]

    async def ladder_ratings(self, ladder: str) -> dict[str, Rating]:
        return {row[0]: Rating(float(row[1]), float(row[2]), int(row[3]))
                for row in await self._ladder_rows(q.RATINGS, ladder)}

    async def set_ladder_ratings(self, ladder: str, ratings: Mapping[str, Rating]) -> None:
        for player_id, rating in ratings.items():
            await self._ladder_write(q.SET_RATING, ladder, player_id, rating.mu, rating.sigma, rating.games)
