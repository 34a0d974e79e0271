"""The store in PostgreSQL (`--db postgresql://...`), through asyncpg: the event loop never
waits on the database but in an `await`.

The same tables, columns and text as the SQLite file (server/store/schema.py,
server/store/columns.py).  Group commit: `append_decisions` returns once its decisions are
committed, and the decisions that tables append while a commit is under way go together
in the next one, so a busy server commits many tables' decisions at once.  The table's
actor awaits it before it sends what the decisions caused, which keeps the store's promise
(server/store/protocol.py) with no `flush`.

A database away for seconds (server/store/pg_away.py): each write is held, and tried again
as one transaction until the database takes it; a read that a client waits on is refused at
once (DatabaseAway).  A transaction left idle for IDLE_IN_TRANSACTION is ended by the server
(a node paused in the middle of one would otherwise hold its table's row, and the node that
takes the table over would wait on it for the whole pause); its write is tried again.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any

from server.finished import GameFinished
from server.game.actions import Action
from server.game.record import GameRecord
from server.rules.config import Rules
from server.store.pg_away import Outage
from server.store.columns import (
    GAME_SEAT_COLUMNS, GAME_SEAT_FIELDS, PLAYER_COLUMNS, PLAYER_GAME_COLUMNS, RATED_SEATS, RATING_COLUMNS,
    RECORD_COLUMNS, DecisionBatch, deal_columns, decision_rows, game_row, game_seat_rows, json_text,
    optional_json_text, past_seat, player_game, player_row, record_of, rules_text, seat_row, table_row,
)
from server.store.protocol import Fenced
from server.ratings import (
    Progress, Rating, Rebuilt, grouped, players_of, rate, rated, rebuilt, replay, seats_of,
)
from server.store.rows import GameRow, PastSeat, PlayerGame, PlayerRow, PlayerTotals, SeatRow, TableRow
from server.store.totals import Dialect, in_standing_order, totals, totals_arguments, totals_query
from server.store.schema import migrate_postgres
from server.store.postgres_events import PostgresEvents
from server.store.ladder_store import LadderStore
from server.store.event_queries import numbered

URL_SCHEMES = ("postgresql://", "postgres://")
GIVEN_UP = -1  # the epoch kept for a table whose lease this node lost (no stored epoch is below 1)
IDLE_IN_TRANSACTION = "3s"  # a transaction idle this long is ended by the server (a paused node's)
RATINGS_LOCK = 72738  # the advisory lock that rates one game at a time, on every node (the schema's: 72737)
GAME_SEAT_VALUES = ", ".join(f"${i}" for i in range(1, len(GAME_SEAT_FIELDS) + 1))


def is_postgres_url(db: str) -> bool:
    return db.startswith(URL_SCHEMES)


def shown(url: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, _, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at:
        return url
    user = credentials.partition(":")[0]
    return f"{scheme}://{user}{':***' if ':' in credentials else ''}@{host}"


class PostgresStore(PostgresEvents, LadderStore):
    def __init__(self, pool: Any, url: str):
        self.pool, self.url = pool, url
        self.outage = Outage(renew=pool.expire_connections)
        self._gathered: list[tuple[DecisionBatch, asyncio.Future[None]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._epochs: dict[str, int] = {}  # tables written for under a lease: id -> its epoch (take)
        # a node of several claims each table it makes as it is stored (server/cluster/node.py)
        self.on_new_table: Callable[[str], Awaitable[None]] | None = None

    async def _ladder_write(self, query: str, *args: Any) -> int:
        """The ladders' commands (server/store/ladder_store.py): the rows changed ("UPDATE 1", "INSERT 0 1")."""
        status = await self.outage.held(lambda: self.pool.execute(numbered(query), *args))
        return int(status.rsplit(" ", 1)[-1])

    async def _ladder_rows(self, query: str, *args: Any) -> list[Any]:
        return [tuple(row) for row in await self.outage.asked(lambda: self.pool.fetch(numbered(query), *args))]

    @classmethod
    async def open(cls, url: str, max_connections: int = 8) -> PostgresStore:
        """Connect, and migrate the schema to this version (server/store/schema.py)."""
        import asyncpg  # only for a PostgreSQL store: the embedded default never imports it

        pool = await asyncpg.create_pool(url, min_size=1, max_size=max_connections, command_timeout=30,
                                         server_settings={"idle_in_transaction_session_timeout": IDLE_IN_TRANSACTION})
        try:
            async with pool.acquire() as connection:
                await migrate_postgres(connection, shown(url))
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url)

    # ---- fencing: the tables this node runs under a lease ----------------------------

    async def take(self, table_id: str, epoch: int) -> bool:
        """Write for the table under this lease epoch from now on: the epoch is stored, unless a
        higher one is (then False: another node has taken the table since)."""
        taken = await self.outage.held(lambda: self.pool.fetchval(
            "UPDATE tables SET epoch=$2 WHERE id=$1 AND epoch < $2 RETURNING id", table_id, epoch))
        if taken is None:
            return False
        self._epochs[table_id] = epoch
        return True

    def let_go(self, table_id: str) -> None:
        """No more writes for the table under a lease (it has closed here)."""
        self._epochs.pop(table_id, None)

    def fence(self, table_id: str) -> None:
        """The table's lease is lost: from now on every write for it is refused here (Fenced),
        whatever its actor still has queued, until `let_go` once it has stopped.  (Forgetting
        its epoch at once instead would let those writes through unfenced, into the game
        another node now runs.)"""
        self._epochs[table_id] = GIVEN_UP

    @contextlib.asynccontextmanager
    async def _writing(self, table_id: str) -> AsyncIterator[Any]:
        """A connection in a transaction for writes for a table: if the table is held under a
        lease, the transaction goes on only while the stored epoch is still this node's."""
        epoch = self._epochs.get(table_id)
        if epoch == GIVEN_UP:
            raise Fenced(f"table {table_id}'s lease was lost here: another node runs it now")
        async with self.pool.acquire() as connection, connection.transaction():
            if epoch is not None:
                found = await connection.fetchval("SELECT epoch FROM tables WHERE id=$1 FOR SHARE", table_id)
                if found is not None and found != epoch:
                    raise Fenced(f"table {table_id} is run by epoch {found} now, not {epoch}")
            yield connection

    async def _write(self, table_id: str, query: str, *args: Any) -> None:
        async def attempt() -> None:
            async with self._writing(table_id) as connection:
                await connection.execute(query, *args)
        await self.outage.held(attempt)

    async def _fenced_games(self, connection: Any, game_ids: list[int]) -> set[int]:
        """Those of the games whose tables this node holds but another has taken since (or
        whose lease this node lost: GIVEN_UP matches no stored epoch)."""
        if not self._epochs:
            return set()
        rows = await connection.fetch("SELECT g.id, t.id, t.epoch FROM games g JOIN tables t ON t.id = g.table_id"
                                      " WHERE g.id = ANY($1::bigint[]) FOR SHARE OF t", game_ids)
        return {game_id for game_id, table_id, epoch in rows
                if table_id in self._epochs and epoch != self._epochs[table_id]}

    # ---- decisions: the group commit -------------------------------------------------

    async def append_decisions(self, game_id: int, first_index: int, decisions: Sequence[tuple[int, Action]]) -> None:
        if not decisions:
            return
        committed = asyncio.get_running_loop().create_future()
        self._gathered.append(((game_id, first_index, decisions), committed))
        if self._committer is None:
            self._committer = asyncio.create_task(self._commit_gathered())
        await committed

    async def _commit_gathered(self) -> None:
        try:
            while self._gathered:
                gathered, self._gathered = self._gathered, []
                fenced: set[int] = set()
                try:
                    fenced = await self.outage.held(lambda: self._commit(gathered))
                except Exception as problem:  # noqa: BLE001 - each waiting table is told
                    for _, committed in gathered:
                        if not committed.done():
                            committed.set_exception(problem)
                else:
                    for (game_id, _, _), committed in gathered:
                        if committed.done():
                            continue
                        if game_id in fenced:
                            committed.set_exception(Fenced(f"game {game_id}'s table is run by another node now"))
                        else:
                            committed.set_result(None)
        finally:
            self._committer = None

    async def _commit(self, gathered: list[tuple[DecisionBatch, asyncio.Future[None]]]) -> set[int]:
        """One transaction of the gathered decisions (a try again after a commit whose answer
        was lost finds them there: they are not written twice); the fenced games' left out."""
        async with self.pool.acquire() as connection, connection.transaction():
            fenced = await self._fenced_games(connection, sorted({b[0] for b, _ in gathered}))
            await connection.executemany("INSERT INTO decisions VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                                         decision_rows(batch for batch, _ in gathered if batch[0] not in fenced))
        return fenced

    def flush(self) -> None:
        """Nothing: `append_decisions` returns once its decisions are committed."""

    async def _settled(self) -> None:
        """Wait for a commit under way (a game's end or a table's state follows its decisions)."""
        committer = self._committer
        if committer is not None:
            await asyncio.shield(committer)

    async def finish_game(self, game_id: int, final: Mapping[str, Any], result_seq: int | None) -> None:
        await self._settled()

        async def attempt() -> None:
            async with self.pool.acquire() as connection, connection.transaction():
                if await self._fenced_games(connection, [game_id]):
                    raise Fenced(f"game {game_id}'s table is run by another node now")
                await connection.execute("UPDATE games SET finished=$1, final=$2, result_seq=$3 WHERE id=$4",
                                         time.time(), json_text(dict(final) if final is not None else None),
                                         result_seq, game_id)
        await self.outage.held(attempt)

    async def set_table_state(self, table_id: str, state: str, reason: str | None = None) -> None:
        await self._settled()

        async def attempt() -> None:
            async with self._writing(table_id) as connection:
                await connection.execute("UPDATE tables SET state=$1, updated=$2, reason=$3 WHERE id=$4",
                                         str(state), time.time(), reason, table_id)
                if str(state) not in ("waiting", "playing"):
                    await connection.execute("DELETE FROM watchers WHERE table_id=$1", table_id)
        await self.outage.held(attempt)

    # ---- tables and seats ------------------------------------------------------------

    async def save_table(self, table_id: str, invite: str, watch: str, rules: Rules,
                         clock: Mapping[str, float] | None, spec: Mapping[str, Any] | None = None) -> None:
        now = time.time()
        await self.outage.held(lambda: self.pool.execute(
            "INSERT INTO tables (id, invite_code, watch_code, rules, clock, state, created, updated, spec)"
            " VALUES ($1, $2, $3, $4, $5, 'waiting', $6, $6, $7) ON CONFLICT (id) DO UPDATE SET"
            " state=excluded.state, updated=excluded.updated, rules=excluded.rules, clock=excluded.clock,"
            " spec=excluded.spec", table_id, invite, watch, rules_text(rules),
            json_text(dict(clock) if clock else None), now, optional_json_text(dict(spec) if spec else None)))
        if self.on_new_table is not None:
            await self.on_new_table(table_id)

    # ---- what the nodes of several ask of one another's tables ------------------------

    async def table_of_code(self, code: str, kind: str) -> tuple[str, str, str] | None:
        """(id, invite, watch) of the open table whose `kind` ("invite" or "watch") code this is."""
        column = {"invite": "invite_code", "watch": "watch_code"}[kind]
        row = await self.outage.asked(lambda: self.pool.fetchrow(
            f"SELECT id, invite_code, watch_code FROM tables WHERE {column}=$1"
            " AND state IN ('waiting', 'playing') ORDER BY updated DESC LIMIT 1", code))
        return None if row is None else (row[0], row[1], row[2])

    async def table_codes(self, table_id: str) -> tuple[str, str] | None:
        """(invite, watch) of an open table."""
        row = await self.outage.asked(lambda: self.pool.fetchrow(
            "SELECT invite_code, watch_code FROM tables WHERE id=$1 AND state IN ('waiting', 'playing')", table_id))
        return None if row is None else (row[0], row[1])

    async def open_table_ages(self) -> list[tuple[str, float]]:
        """(id, seconds since it was made) of every open table."""
        now = time.time()
        return [(row[0], now - row[1]) for row in await self.outage.asked(lambda: self.pool.fetch(
            "SELECT id, created FROM tables WHERE state IN ('waiting', 'playing') ORDER BY created"))]

    async def open_table(self, table_id: str) -> TableRow | None:
        """One open table, as open_tables gives each."""
        rows = await self.open_tables(table_id)
        return rows[0] if rows else None

    async def set_session_end(self, table_id: str, ends_at: float) -> None:
        await self._write(table_id, "UPDATE tables SET session_ends=$1 WHERE id=$2", ends_at, table_id)

    async def set_table_spec(self, table_id: str, spec: Mapping[str, Any]) -> None:
        await self._write(table_id, "UPDATE tables SET spec=$1 WHERE id=$2", optional_json_text(dict(spec)), table_id)

    async def set_table_broadcasts(self, table_id: str, count: int) -> None:
        await self._write(table_id, "UPDATE tables SET broadcasts=$1 WHERE id=$2", count, table_id)

    async def open_tables(self, only: str | None = None) -> list[TableRow]:
        out = []
        async with self.pool.acquire() as connection:
            for row in await connection.fetch(
                    "SELECT id, invite_code, watch_code, rules, clock, state, broadcasts, spec, session_ends,"
                    " session_extra FROM tables WHERE state IN ('waiting', 'playing')"
                    " AND ($1::text IS NULL OR id = $1) ORDER BY created", only):
                table_id = row[0]
                seats = [seat_row(*seat) for seat in await connection.fetch(
                    'SELECT seat, name, kind, strategy, token_hash, host, "left", player_id FROM seats'
                    " WHERE table_id=$1 ORDER BY seat", table_id)]
                game_id = await connection.fetchval(
                    "SELECT id FROM games WHERE table_id=$1 AND finished IS NULL ORDER BY id DESC LIMIT 1", table_id)
                watchers = [w for (w,) in await connection.fetch(
                    "SELECT token_hash FROM watchers WHERE table_id=$1", table_id)]
                out.append(table_row(tuple(row), seats, game_id, watchers))
        return out

    async def save_seat(self, table_id: str, seat: SeatRow) -> None:
        # as SQLite's INSERT OR REPLACE: a seat taken afresh has not left
        await self._write(
            table_id, 'INSERT INTO seats (table_id, seat, name, kind, strategy, token_hash, host, "left", player_id)'
            " VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8) ON CONFLICT (table_id, seat) DO UPDATE SET"
            " name=excluded.name, kind=excluded.kind, strategy=excluded.strategy, token_hash=excluded.token_hash,"
            ' host=excluded.host, "left"=0, player_id=excluded.player_id', table_id, seat.seat, seat.name, seat.kind,
            seat.strategy, seat.token_hash, int(seat.host), seat.player_id)

    async def remove_seat(self, table_id: str, seat: int) -> None:
        await self._write(table_id, "DELETE FROM seats WHERE table_id=$1 AND seat=$2", table_id, seat)

    async def set_seat_left(self, table_id: str, seat: int, left: bool) -> None:
        await self._write(table_id, 'UPDATE seats SET "left"=$1 WHERE table_id=$2 AND seat=$3', int(left), table_id,
                          seat)

    async def set_seat_host(self, table_id: str, seat: int) -> None:
        await self._write(table_id, "UPDATE seats SET host=1 WHERE table_id=$1 AND seat=$2", table_id, seat)

    async def save_watcher(self, table_id: str, token_hash: str) -> None:
        await self._write(table_id, "INSERT INTO watchers VALUES ($1, $2) ON CONFLICT DO NOTHING", table_id,
                          token_hash)

    async def remove_watcher(self, table_id: str, token_hash: str) -> None:
        await self._write(table_id, "DELETE FROM watchers WHERE table_id=$1 AND token_hash=$2", table_id, token_hash)

    async def seat_of_token(self, token_hash: str) -> tuple[str, int] | None:
        row = await self.outage.asked(lambda: self.pool.fetchrow(
            "SELECT s.table_id, s.seat FROM seats s JOIN tables t ON t.id = s.table_id"
            " WHERE s.token_hash=$1 AND t.state IN ('waiting', 'playing') ORDER BY t.updated DESC LIMIT 1", token_hash))
        return (row[0], row[1]) if row else None

    async def watch_of_token(self, token_hash: str) -> str | None:
        return await self.outage.asked(lambda: self.pool.fetchval(
            "SELECT w.table_id FROM watchers w JOIN tables t ON t.id = w.table_id"
            " WHERE w.token_hash=$1 AND t.state IN ('waiting', 'playing') ORDER BY t.updated DESC LIMIT 1", token_hash))

    async def past_seat_of_token(self, token_hash: str) -> PastSeat | None:
        return await self.outage.asked(lambda: self._past_seat_of_token(token_hash))

    async def _past_seat_of_token(self, token_hash: str) -> PastSeat | None:
        async with self.pool.acquire() as connection:
            row = await connection.fetchrow(
                "SELECT t.id, t.invite_code, s.seat, t.state, t.reason FROM seats s JOIN tables t ON t.id = s.table_id"
                " WHERE s.token_hash=$1 ORDER BY t.updated DESC LIMIT 1", token_hash)
            if row is None or row[3] in ("waiting", "playing"):
                return None
            game = await connection.fetchrow(
                "SELECT id, final, names, result_seq FROM games WHERE table_id=$1 ORDER BY id DESC LIMIT 1", row[0])
        return past_seat(tuple(row), None if game is None else tuple(game))

    # ---- players -----------------------------------------------------------------------

    async def add_player(self, player: PlayerRow, key_hash: str | None) -> PlayerRow:
        await self.outage.held(lambda: self.pool.execute(
            "INSERT INTO players (id, key_hash, name, kind, created, issued) VALUES ($1, $2, $3, $4, $5, $6)"
            " ON CONFLICT DO NOTHING", player.id, key_hash, player.name, player.kind.value, player.created,
            int(player.issued)))
        stored = await (self.player_of_key(key_hash) if key_hash is not None else self.player(player.id))
        assert stored is not None
        return stored

    async def _one_player(self, where: str, value: str) -> PlayerRow | None:
        row = await self.outage.asked(lambda: self.pool.fetchrow(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE {where}=$1", value))
        return None if row is None else player_row(tuple(row))

    async def player_of_key(self, key_hash: str) -> PlayerRow | None:
        return await self._one_player("key_hash", key_hash)

    async def player(self, player_id: str) -> PlayerRow | None:
        return await self._one_player("id", player_id)

    async def rename_player(self, player_id: str, name: str) -> None:
        await self.outage.held(lambda: self.pool.execute("UPDATE players SET name=$1 WHERE id=$2", name, player_id))

    async def players(self) -> list[PlayerRow]:
        rows = await self.pool.fetch(f"SELECT {PLAYER_COLUMNS} FROM players ORDER BY created, id")
        return [player_row(tuple(row)) for row in rows]

    # ---- games -------------------------------------------------------------------------

    async def start_game(self, table_id: str, record: GameRecord) -> int:
        """Store a new game, dealt from its record's seed or walls (deal_columns); its id."""
        seed, walls = deal_columns(record)

        async def attempt() -> int:
            async with self._writing(table_id) as connection:
                return int(await connection.fetchval(
                    "INSERT INTO games (table_id, seed, walls, rules, names, started) VALUES ($1, $2, $3, $4, $5, $6)"
                    " RETURNING id", table_id, seed, walls, rules_text(record.rules), json_text(record.names),
                    time.time()))
        return await self.outage.held(attempt)

    async def keep_finished(self, finished: GameFinished) -> None:
        """Its seats, and its players' ratings in the same transaction under the ratings' lock:
        games that end at once on several nodes are rated one after the other, each from the
        ratings the one before left."""
        async def attempt() -> None:
            async with self.pool.acquire() as connection, connection.transaction():
                if rated(finished):
                    await connection.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
                await connection.execute("UPDATE games SET labels=$1 WHERE id=$2", json_text(list(finished.labels)),
                                         finished.game_id)
                await connection.executemany(f"INSERT INTO game_seats ({GAME_SEAT_COLUMNS}) VALUES ({GAME_SEAT_VALUES})"
                                             " ON CONFLICT DO NOTHING", game_seat_rows(finished))
                if rated(finished):
                    await self._rate(connection, finished)
        await self.outage.held(attempt)

    async def _rate(self, connection: Any, finished: GameFinished) -> None:
        """Rate a played-out game from its players' ratings now, and give it the next rated_seq
        (under the ratings' lock)."""
        if await connection.fetchval("SELECT rated_seq IS NULL FROM games WHERE id=$1", finished.game_id) is not True:
            return  # no such game, or rated already (a write tried again)
        seats = seats_of(finished)
        current = {p: Rating(mu, sigma, games) for p, mu, sigma, games in await connection.fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = ANY($1::text[])", sorted(players_of(seats)))}
        await self._write_ratings(connection, rate(seats, current))
        await connection.execute("UPDATE games SET rated_seq = (SELECT COALESCE(MAX(rated_seq), 0) + 1 FROM games)"
                                 " WHERE id=$1", finished.game_id)

    @staticmethod
    async def _write_ratings(connection: Any, ratings: Mapping[str, Rating]) -> None:
        await connection.executemany("INSERT INTO ratings VALUES ($1, $2, $3, $4) ON CONFLICT (player_id) DO UPDATE"
                                     " SET mu=excluded.mu, sigma=excluded.sigma, games=excluded.games",
                                     [(p, r.mu, r.sigma, r.games) for p, r in sorted(ratings.items())])

    async def ratings(self) -> dict[str, Rating]:
        rows = await self.outage.asked(lambda: self.pool.fetch(f"SELECT {RATING_COLUMNS} FROM ratings"))
        return {p: Rating(mu, sigma, games) for p, mu, sigma, games in rows}

    async def rebuild_ratings(self, progress: Progress | None = None) -> Rebuilt:
        """Every rating again: the games rated so far replayed with no lock held (the nodes go
        on rating theirs), then, in one transaction under the ratings' lock, any rated
        meanwhile, and every rating written."""
        before = grouped(tuple(row) for row in await self.pool.fetch(RATED_SEATS.format(after="$1"), 0))
        so_far = replay(before.games, progress)
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)
            newer = grouped(tuple(row) for row in await connection.fetch(RATED_SEATS.format(after="$1"), before.last))
            kept = {p: Rating(mu, sigma, n) for p, mu, sigma, n in await connection.fetch(
                f"SELECT {RATING_COLUMNS} FROM ratings")}
            ratings, report = rebuilt(before, so_far, newer, kept)
            await connection.execute("DELETE FROM ratings")
            await self._write_ratings(connection, ratings)
        return report

    async def player_totals(self, player_id: str, label: str | None = None) -> PlayerTotals | None:
        row = await self.outage.asked(lambda: self.pool.fetchrow(
            totals_query(Dialect.POSTGRES, True, label is not None), *totals_arguments(player_id, label)))
        return None if row is None else totals(tuple(row))

    async def standings(self, label: str | None = None) -> list[PlayerTotals]:
        rows = await self.outage.asked(lambda: self.pool.fetch(
            totals_query(Dialect.POSTGRES, False, label is not None), *totals_arguments(None, label)))
        return in_standing_order([totals(tuple(row)) for row in rows])

    async def players_named(self, name: str) -> list[PlayerRow]:
        rows = await self.outage.asked(lambda: self.pool.fetch(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE name=$1 ORDER BY created, id", name))
        return [player_row(tuple(row)) for row in rows]

    async def game_players(self, game_id: int) -> list[str | None]:
        rows = await self.outage.asked(lambda: self.pool.fetch(
            "SELECT player_id FROM game_seats WHERE game_id=$1 ORDER BY seat", game_id))
        return [row[0] for row in rows]

    async def player_games(self, player_id: str, limit: int = 100) -> list[PlayerGame]:
        rows = await self.outage.asked(lambda: self.pool.fetch(
            f"SELECT {PLAYER_GAME_COLUMNS} FROM game_seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.player_id=$1 ORDER BY g.id DESC LIMIT $2", player_id, limit))
        return [player_game(tuple(row)) for row in rows]

    async def record(self, game_id: int) -> GameRecord:
        async with self.pool.acquire() as connection:
            row = await connection.fetchrow(f"SELECT {RECORD_COLUMNS} FROM games WHERE id=$1", game_id)
            if row is None:
                raise KeyError(f"no game {game_id}")
            decisions = await connection.fetch("SELECT seat, action FROM decisions WHERE game_id=$1 ORDER BY idx",
                                               game_id)
        return record_of(*row, [tuple(d) for d in decisions])

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.pool.fetchrow("SELECT id, table_id, names, rules, started, finished, final FROM games"
                                       " WHERE id=$1", game_id)
        return None if row is None else game_row(tuple(row))

    async def games(self, finished: bool | None = True) -> list[GameRow]:
        where = {True: "WHERE finished IS NOT NULL", False: "WHERE finished IS NULL", None: ""}[finished]
        rows = await self.pool.fetch(f"SELECT id, table_id, names, rules, started, finished, final FROM games {where}"
                                     " ORDER BY id")
        return [game_row(tuple(row)) for row in rows]

    # ---- the store itself --------------------------------------------------------------

    async def healthy(self) -> bool:
        if self.outage.away_since is not None:  # (said at once: a paused server is not waited out)
            return False
        try:
            await asyncio.wait_for(self.pool.fetchval("SELECT 1"), 2)
            return True
        except Exception:  # noqa: BLE001 - any failure is "does not answer"
            return False

    def close(self) -> None:
        """Closing waits on the network: use `aclose`; this only ends the connections."""
        self.pool.terminate()

    async def aclose(self) -> None:
        """Close once what was appended is stored; a database that does not answer is not
        waited on for more than a few seconds (its connections are cut)."""
        try:
            await asyncio.wait_for(self._settled(), 5)
            await asyncio.wait_for(self.pool.close(), 5)
        except (asyncio.TimeoutError, OSError):
            self.pool.terminate()
