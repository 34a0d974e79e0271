"""An event kept in the store: made, players added, a round's tables planned, and standings read
back.  Thin: the seating and the standings are the pure modules'; this reads and writes the rows
(server/store/event_rows.py).  What a round's tables become at a running server is runner.py's:
`start_round` writes them pending, and the server that polls opens them (docs/events.md).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence

from server.events import seating
from server.events.spec import EventError, EventSpec, Seating
from server.events.standings import Penalty, SeatResult, Standing, TableResult, standings
from server.events.winds import seat_round
from server.identity import key_hash
from server.store.event_rows import BOT_PREFIX, EventRow, EventTableRow, EventTableState, PenaltyRow, RoundAdded
from server.store.protocol import Store

ENDED = (EventTableState.DONE, EventTableState.ABANDONED)


def event_label(event_id: str) -> str:
    """The label every game of the event is announced with (GameFinished.labels)."""
    return f"event:{event_id}"


def round_label(event_id: str, round_: int) -> str:
    return f"event:{event_id}:round:{round_}"


async def create_event(store: Store, spec: EventSpec) -> tuple[EventRow, str]:
    """A new event, and its self-registration token (kept only as its hash: shown once)."""
    token = secrets.token_urlsafe(12)
    event = EventRow(secrets.token_hex(4), spec.name, spec.to_data(), key_hash(token), time.time())
    await store.add_event(event)
    return event, token


async def event_of(store: Store, event_id: str) -> tuple[EventRow, EventSpec]:
    """The event and its spec; EventError naming what to do when there is none."""
    event = await store.event(event_id)
    if event is None:
        raise EventError(f"no event {event_id}: `riichi-server event list` shows the events")
    return event, EventSpec.from_data(event.spec)


async def add_player(store: Store, event_id: str, player_id: str) -> bool:
    """The player added to the event (False: in it already)."""
    await event_of(store, event_id)
    if await store.player(player_id) is None:
        raise EventError(f"no player {player_id}: add one with `riichi-server players add NAME`")
    return await store.add_event_player(event_id, player_id)


async def start_round(store: Store, event_id: str, given: Sequence[Sequence[str]] | None = None) -> list[EventTableRow]:
    """The next round's tables, written pending for a server to open: seated by the event's
    method, bots filling the seats left over, winds fair across rounds.  EventError when the
    round before is still in play, every round has started, or the seating cannot be made."""
    for _ in range(SEATING_TRIES):
        rows, players = await _seat_round(store, event_id, given)
        added = await store.add_event_round(rows, players)
        if added is RoundAdded.ADDED:
            return rows
        if added is RoundAdded.EXISTS:
            raise EventError(f"round {rows[0].round} has started already")
    raise EventError("players kept being added while the round was seated: start it again")


SEATING_TRIES = 5  # a player added between reading the players and writing the round: seated again


async def _seat_round(store: Store, event_id: str, given: Sequence[Sequence[str]] | None,
                      ) -> tuple[list[EventTableRow], list[str]]:
    """The next round's tables, and the players read to seat them."""
    _, spec = await event_of(store, event_id)
    tables = await store.event_tables(event_id)
    played = max((t.round for t in tables), default=0)
    if played >= spec.rounds:
        raise EventError(f"every round of the event ({spec.rounds}) has started")
    if any(t.state not in ENDED for t in tables):
        raise EventError(f"round {played} is still in play: start the next once its tables have ended")
    players = await store.event_players(event_id)
    if not players:
        raise EventError("the event has no players: add them with `riichi-server event add ID NAME...`")
    fillers = [f"{BOT_PREFIX}{i}" for i in range(1, -len(players) % 4 + 1)]
    history = [[t.seats for t in tables if t.round == r] for r in range(1, played + 1)]
    round_ = played + 1
    if spec.seating is Seating.GIVEN:
        if given is None:
            raise EventError("the event's seating is given: name each table's four players")
        seated = seating.given(given, players + fillers)
    elif given is not None:
        raise EventError(f"the event's seating is {spec.seating.value}: tables are not given")
    elif spec.seating is Seating.SWISS:
        ranked = [line.player for line in await event_standings(store, event_id)] if played else players
        seated = seating.swiss(ranked + fillers)
    else:
        seed = int.from_bytes(hashlib.sha256(f"{event_id}:{round_}".encode()).digest()[:8], "big")
        seated = seating.shuffled(players + fillers, history, spec.rounds - played, seed)[0]
    rows = [EventTableRow(event_id, round_, n, order)  # type: ignore[arg-type]
            for n, order in enumerate(seat_round(seated, history), 1)]
    return rows, players


SUBSTITUTE_BOT = "bot"  # `substitute`'s `by` for a server bot


async def substitute(store: Store, event_id: str, player_id: str, by: str) -> EventTableRow:
    """`by` (a player's id, or SUBSTITUTE_BOT) sits in for `player_id` at its table not yet ended;
    the game counts for the missing player as the event's substitute rule says.  A table already
    open is closed and opened again by the server with the new seat (if its game has not begun)."""
    await event_of(store, event_id)
    tables = await store.event_tables(event_id)
    waiting = [t for t in tables if player_id in t.seats and t.state not in ENDED]
    if not waiting:
        raise EventError(f"player {player_id} has no table of the event waiting: nothing to sit in for")
    row = waiting[-1]
    if by != SUBSTITUTE_BOT:
        if await store.player(by) is None:
            raise EventError(f"no player {by}: add one with `riichi-server players add NAME`")
        if any(by in t.sitting for t in tables if t.round == row.round and t.state not in ENDED):
            raise EventError(f"player {by} sits at a table of round {row.round} already")
    sitters = list(row.sitting)
    sitters[row.seats.index(player_id)] = by if by != SUBSTITUTE_BOT else f"{BOT_PREFIX}substitute"
    if not await store.substitute_event_table(event_id, row.round, row.table, sitters):
        raise EventError(f"table {row.table} of round {row.round} is being opened or closed: try again in a few"
                         f" seconds")
    return row


MOST_EXTRA_MINUTES = 24 * 60


async def give_extra_time(store: Store, event_id: str, round_: int, table: int, minutes: float) -> EventTableRow:
    """Ask for `minutes` more at a table in play (the node that runs it gives them within its
    poll); EventError when the event is untimed or the table is not in play."""
    _, spec = await event_of(store, event_id)
    if spec.session_minutes is None:
        raise EventError("the event is untimed (no --session-minutes): there is no clock to give time to")
    if not 0 < minutes <= MOST_EXTRA_MINUTES:
        raise EventError(f"minutes: {minutes:g} is not more than 0 and at most {MOST_EXTRA_MINUTES}")
    row = next((t for t in await store.event_tables(event_id) if (t.round, t.table) == (round_, table)), None)
    if row is None:
        raise EventError(f"round {round_} has no table {table}: `riichi-server event tables {event_id}` shows them")
    if not await store.ask_extra_time(event_id, round_, table, minutes * 60):
        raise EventError(f"table {table} of round {round_} is {row.state.value}, not in play: extra time is given"
                         " to a table in play")
    return row


async def add_penalty(store: Store, event_id: str, penalty: PenaltyRow) -> None:
    await event_of(store, event_id)
    if penalty.player_id not in await store.event_players(event_id):
        raise EventError(f"player {penalty.player_id} is not in the event")
    await store.add_event_penalty(event_id, penalty)


async def table_results(store: Store, event_id: str) -> list[TableResult]:
    """The event's games played out, each seat credited to the player the seat was reserved for
    (a substitute's game marked so: a different player held it)."""
    reserved = {(t.round, t.table): t.seats for t in await store.event_tables(event_id)}
    by_table: dict[tuple[int, int, int], list[SeatResult]] = {}
    for row in await store.event_results(event_id):
        owner = reserved[(row.round, row.table)][row.seat]
        substitute = not owner.startswith(BOT_PREFIX) and row.player_id != owner
        by_table.setdefault((row.round, row.table, row.game_id), []).append(
            SeatResult(owner, row.score, row.total if row.total is not None else 0.0, substitute))
    return [TableResult(r, t, game, tuple(seats))  # type: ignore[arg-type]
            for (r, t, game), seats in sorted(by_table.items()) if len(seats) == 4]


async def event_standings(store: Store, event_id: str) -> list[Standing]:
    _, spec = await event_of(store, event_id)
    penalties = [Penalty(p.player_id, p.points, p.reason, p.round) for p in await store.event_penalties(event_id)]
    return standings(await table_results(store, event_id), penalties, await store.event_players(event_id),
                     spec.scoring, spec.substitute, spec.game_rules().start_score)
