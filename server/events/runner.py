"""A running server's part in events: it opens the tables that `event start-round` wrote
pending (polling the store: the organiser's command needs no way into the server, and of several
nodes the one that claims a table opens it), each with its seats reserved for its players (bots
seated at once) and labelled with the event and round; and it marks each event table's end as
its game is announced (server/finishes.py).

Polling, not a request to the server: the command writes the database the server reads, as
`players add` does, so no organiser's secret has to reach the server's port.  A round starts
within `every` seconds.
"""

from __future__ import annotations

import asyncio
import secrets

import structlog

from protocol.messages import ErrorCode
from server.away import Away
from server.events.service import event_label, round_label
from server.events.spec import EventSpec
from server.finished import GameFinished
from server.lobby import Lobby, LobbyError
from server.store.event_rows import BOT_PREFIX, EventTableRow, EventTableState
from server.store.protocol import Fenced
from server.table.io import ExtraTime, SitIn, Stop
from server.table.seats import TableState
from server.table.session import Ending, Session
from server.table.spec import SeatSpec, TableSpec

log = structlog.get_logger("riichi.events")

POLL_EVERY = 2.0  # seconds between looks for pending event tables


class EventTables:
    def __init__(self, lobby: Lobby, every: float = POLL_EVERY):
        self.lobby, self.every = lobby, every
        # this server's name in its claims (the node's, of several): a claim it never opened goes stale
        self.claimant = f"{lobby.cluster.node if lobby.cluster is not None else 'local'}:{secrets.token_hex(4)}"
        self.unsubscribe = lobby.finishes.subscribe(self.ended, relayed=False)  # the node that ran it writes

    async def run(self) -> None:
        """Open pending event tables every `every` seconds, until cancelled."""
        while True:
            try:
                await self.open_pending()
                await self.give_extra_time()
            except Away:  # the database does not answer now (the store says so itself): the next look
                pass
            except Exception:  # noqa: BLE001 - a bad row must not end the loop
                log.exception("event_tables_failed")
            await asyncio.sleep(self.every)

    async def open_pending(self) -> int:
        """Open the tables pending now, and reseat those a substitute was named for; how many
        this server opened."""
        opened = 0
        specs: dict[str, EventSpec] = {}
        for row in await self.lobby.store.pending_event_tables():
            if row.state is EventTableState.RESEAT:
                await self.reseat(row)
                continue
            if self.lobby.closing or not await self.lobby.store.claim_event_table(row.event_id, row.round, row.table,
                                                                                  self.claimant):
                continue
            if row.event_id not in specs:
                event = await self.lobby.store.event(row.event_id)
                assert event is not None
                specs[row.event_id] = EventSpec.from_data(event.spec)
            try:
                table = self.lobby.open_table(table_spec(row, specs[row.event_id]))
                if not await table.opened():  # (its link is given out once it is stored, and its lease held)
                    raise LobbyError(ErrorCode.INTERNAL, "the table could not be stored")
            except LobbyError as problem:  # (the server stops): another server, or this one's next start, opens it
                log.warning("event_table_not_opened", event_id=row.event_id, round=row.round, table=row.table,
                            why=str(problem))
                await self.lobby.store.release_event_table(row.event_id, row.round, row.table, self.claimant)
                continue
            if not await self.lobby.store.event_table_opened(row.event_id, row.round, row.table, table.id,
                                                             self.claimant):  # too slow: another server took it
                table.put(Stop("another server opened this event table: its page links it", keep=False))
                log.warning("event_table_claim_lost", event_id=row.event_id, round=row.round, table=row.table)
                continue
            log.info("event_table_opened", event_id=row.event_id, round=row.round, table=row.table, id=table.id)
            opened += 1
        return opened

    async def reseat(self, row: EventTableRow) -> None:
        """A substitute was named for an open table: if this node runs it and its game has not
        begun, close it (its row goes back to pending, and the next look opens it with the new
        seat); if its game has begun, the substitute sits in at the missing player's seat (a bot
        at once; a player by the table's link, the seat played for until then) and the row is
        open again."""
        table = self.lobby.tables.get(row.table_id) if row.table_id else None
        if table is None:  # another node's table: that node reseats it
            return
        if table.state is TableState.WAITING:
            table.put(Stop("a substitute sits in at this table: it opens again (the event's page links it)",
                           keep=False))
            await self.lobby.store.reopen_event_table(row.event_id, row.round, row.table, reopen=True)
            log.info("event_table_reseated", event_id=row.event_id, round=row.round, table=row.table)
        else:
            event = await self.lobby.store.event(row.event_id)
            assert event is not None
            for item in sit_ins(row, EventSpec.from_data(event.spec)):
                table.put(item)
            await self.lobby.store.reopen_event_table(row.event_id, row.round, row.table, reopen=False)
            log.info("event_substitute_sits_in", event_id=row.event_id, round=row.round, table=row.table)

    async def give_extra_time(self) -> int:
        """Give the tables this node runs the extra time the organiser asked for (the node that
        runs a table takes it, once, and keeps it with the table in the store before the table is
        told: a node lost after that leaves it to the next; another node's tables are that
        node's); how many were given."""
        given = 0
        for row in await self.lobby.store.extra_time_asked():
            table = self.lobby.tables.get(row.table_id) if row.table_id else None
            try:
                if table is None or not await self.lobby.store.take_extra_time(row.event_id, row.round, row.table,
                                                                                row.extra_asked, table.id):
                    continue
            except Fenced:  # its lease was lost here a moment ago: the node that runs it now gives it
                continue
            table.put(ExtraTime(row.extra_asked))
            log.info("event_extra_time", event_id=row.event_id, round=row.round, table=row.table,
                     seconds=row.extra_asked)
            given += 1
        return given

    async def ended(self, finished: GameFinished) -> None:
        if any(label.startswith("event:") for label in finished.labels):
            abandoned = finished.abandoned is not None
            await self.lobby.store.event_table_ended(finished.table_id, finished.game_id, abandoned, finished.by_time)

    def close(self) -> None:
        self.unsubscribe()


def sit_ins(row: EventTableRow, spec: EventSpec) -> list[SitIn]:
    """Who sits in for a missing player at a game in play: each seat whose sitter is not its own
    player (the table does nothing for one seated already)."""
    return [SitIn(seat, strategy=spec.bot) if sitter.startswith(BOT_PREFIX) else SitIn(seat, player=sitter)
            for seat, (player, sitter) in enumerate(zip(row.seats, row.sitting, strict=True)) if sitter != player]


def table_spec(row: EventTableRow, spec: EventSpec) -> TableSpec:
    """An event table's spec: its seats reserved for its players (or their substitutes) in wind
    order, a bot in each filler's, and the event's session time and ending policy."""
    seats = tuple(SeatSpec.bot(spec.bot) if seat.startswith(BOT_PREFIX) else SeatSpec.reserved(seat)
                  for seat in row.sitting)
    labels = (event_label(row.event_id), round_label(row.event_id, row.round))
    session = (Session(spec.session_minutes * 60, Ending(spec.ending.value))
               if spec.session_minutes is not None else None)
    return TableSpec(spec.rules, seats=seats, labels=labels, session=session)  # type: ignore[arg-type]
