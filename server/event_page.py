"""`GET /events/ID` and `GET /events/ID/standings.csv`: an event's page (issue 27), server-rendered
as the standings are (server/html_pages.py): what the event is, each round's tables with their
players in wind order, a table open linked to join (its seats are reserved: only its players
can take them) and to watch, a table ended linked to its game's replay; the standings after the
games played out so far, with the penalties; and the standings as CSV.

Read-only: the organiser acts with `riichi-server event ...` (server/cli/events.py).  A table's
join and watch links show on every node: this node's tables' codes from its lobby, another
node's from the store (a join sent here is handed to the table's node, or the front routes it).
`GET /api/events/ID` is what the self-registration page (web/src/register_page.ts) shows before
it registers: the event's name, rounds and whether registration is still open.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus

import structlog
from websockets.http11 import Response

from server.events import service
from server.events.spec import EventError, EventSpec, Scoring
from server.events.standings import Standing, shown, standings_csv
from server.html_pages import csv_response, html_response, link, not_found, page, player_href, table, text, unavailable
from server.store.event_rows import BOT_PREFIX, EventRow, EventTableRow, EventTableState, PenaltyRow
from server.events.winds import WINDS
from server.store.protocol import Store
from server.table.session import Ending, Session, SessionClock
from server.web import answer

log = structlog.get_logger("riichi.pages")

PATH = re.compile(r"^/events/([0-9a-f]{1,32})(/standings\.csv)?$")
API_PATH = re.compile(r"^/api/events/([0-9a-f]{1,32})$")
Codes = Callable[[str], "tuple[str, str] | None"]  # a table id -> its (invite, watch) codes, if known
LINKED = (EventTableState.OPEN, EventTableState.RESEAT)  # the tables shown with join and watch links
Clocks = Callable[[str], SessionClock | None]  # a table id -> its session clock, if this node runs a timed one


def is_event_path(path: str) -> bool:
    return PATH.match(path) is not None or API_PATH.match(path) is not None


async def table_links(store: Store, rows: Iterable[EventTableRow], here: Codes) -> Codes:
    """The codes of the rows' open tables wherever they run: `here` (this node's lobby) first,
    else the store's (another node's table)."""
    found: dict[str, tuple[str, str] | None] = {}
    for row in rows:
        if row.table_id is not None and row.state in LINKED:
            found[row.table_id] = here(row.table_id) or await store.table_codes(row.table_id)
    return lambda table_id: found.get(table_id)


async def table_clocks(store: Store, rows: Iterable[EventTableRow], spec: EventSpec, here: Clocks) -> Clocks:
    """The session clocks of the rows' open timed tables wherever they run: `here` (this node's
    tables) first, else one made from the end stored with the table (another node's)."""
    found: dict[str, SessionClock | None] = {}
    if spec.session_minutes is None:
        return found.get
    now = time.time()
    for row in rows:
        if row.table_id is not None and row.state in LINKED:
            clock = here(row.table_id)
            if clock is None and (ends := await store.table_session_end(row.table_id)) is not None:
                clock = SessionClock(Session(spec.session_minutes * 60, Ending(spec.ending.value)), ends_at=ends,
                                     time_up=ends <= now)
            found[row.table_id] = clock
    return found.get


class EventPages:
    def __init__(self, store: Store, codes: Codes, clocks: Clocks = lambda _: None):
        self.store, self.codes, self.clocks = store, codes, clocks

    async def respond(self, path: str) -> Response:
        if (api := API_PATH.match(path)) is not None:
            return await self.about(api.group(1))
        match = PATH.match(path)
        assert match is not None
        event_id, as_csv = match.group(1), match.group(2) is not None
        try:
            event, spec = await service.event_of(self.store, event_id)
            lines = await service.event_standings(self.store, event_id)
            names = await self._names(lines, tables := await self.store.event_tables(event_id))
            penalties = await self.store.event_penalties(event_id)
            links = await table_links(self.store, tables, self.codes)
            clocks = await table_clocks(self.store, tables, spec, self.clocks)
        except EventError:
            return not_found("No such event", f"There is no event {text(event_id)} on this server.")
        except Exception:  # noqa: BLE001 - a store that fails one request: the server goes on
            log.exception("event_page_failed", event_id=event_id)
            return unavailable()
        if as_csv:
            return csv_response(standings_csv(lines, spec.rounds, names), f"event-{event_id}-standings.csv")
        return html_response(HTTPStatus.OK, event_page(event, spec, tables, lines, penalties, names, links, clocks))

    async def about(self, event_id: str) -> Response:
        """The event as JSON for the registration page: 404 with a line when there is none."""
        try:
            event, spec = await service.event_of(self.store, event_id)
            started = bool(await self.store.event_tables(event_id))
            players = len(await self.store.event_players(event_id))
        except EventError as missing:
            return answer(HTTPStatus.NOT_FOUND, f"{missing}\n".encode(), "text/plain; charset=utf-8")
        except Exception:  # noqa: BLE001 - a store that fails one request: the server goes on
            log.exception("event_api_failed", event_id=event_id)
            return unavailable()
        body = json.dumps({"id": event.id, "name": event.name, "rules": spec.rules, "rounds": spec.rounds,
                           "players": players, "registration_open": not started}).encode()
        return answer(HTTPStatus.OK, body, "application/json; charset=utf-8")

    async def _names(self, lines: list[Standing], tables: list[EventTableRow]) -> dict[str, str]:
        names: dict[str, str] = {}
        for player in {line.player for line in lines} | {p for t in tables for p in (*t.seats, *t.sitting)}:
            row = None if player.startswith(BOT_PREFIX) else await self.store.player(player)
            names[player] = row.name if row is not None else player
        return names


def event_page(event: EventRow, spec: EventSpec, tables: list[EventTableRow], lines: list[Standing],
               penalties: list[PenaltyRow], names: dict[str, str], codes: Codes,
               clocks: Clocks = lambda _: None) -> str:
    scoring = ("EMA: each game's points with uma, summed" if spec.scoring is Scoring.EMA_POINTS
               else "table points 4/2/1/0 a game, ties split; regular points break ties")
    timing = f"{spec.session_minutes} minutes a session ({spec.ending.value})" if spec.session_minutes else "untimed"
    lead = (f"{spec.rounds} rounds of {text(spec.rules)}; {text(scoring)}; {text(spec.seating.value)} seating;"
            f" {text(timing)}; a substitute's game: {text(spec.substitute.value)}.")
    body = f"<h1>{text(event.name)}</h1><p class=\"lead\">{lead}</p>"
    body += "<h2>Standings</h2>" + _standings(event, spec, lines, names)
    if penalties:
        body += "<h2>Penalties</h2>" + table(("Player", "Points", "Round", "Reason"), [
            (_player(p.player_id, names), shown(p.points), str(p.round or ""), text(p.reason)) for p in penalties],
            name_column=3)
    for round_ in sorted({t.round for t in tables}, reverse=True):
        body += f"<h2>Round {round_}</h2>" + table(("Table", "East", "South", "West", "North", "Game", "Time"), [
            (str(t.table), *(_seat(p, s, names) for p, s in zip(t.seats, t.sitting, strict=True)), _game(t, codes),
             _time(t, spec, clocks)) for t in tables if t.round == round_])
    if not tables:
        body += "<p class=\"none\">No round has started.</p>"
    return page(event.name, body)


async def player_tables(store: Store, player_id: str, codes: Codes) -> str:
    """A player's page's part (server/player_page.py): the event tables waiting for the player, each
    with its event, round, wind and the link that takes the seat."""
    rows = [row for row in await store.player_event_tables(player_id) if player_id in row.sitting]
    if not rows:
        return ""
    codes = await table_links(store, rows, codes)
    cells = []
    for row in rows:
        event = await store.event(row.event_id)
        name = event.name if event is not None else row.event_id
        cells.append((link(f"/events/{row.event_id}", name), str(row.round), str(row.table),
                      WINDS[row.sitting.index(player_id)], _game(row, codes)))
    return "<h2>Your event tables</h2>" + table(("Event", "Round", "Table", "Seat", "Play"), cells, name_column=0)


def _standings(event: EventRow, spec: EventSpec, lines: list[Standing], names: dict[str, str]) -> str:
    csv_link = link(f"/events/{event.id}/standings.csv", "Download as CSV")
    if not lines:
        return f"<p class=\"none\">No players yet. {csv_link}.</p>"
    rounds = range(1, spec.rounds + 1)
    cells = []
    for line in lines:
        by_round = dict(line.games)
        cells.append((str(line.rank), _player(line.player, names),
                      *(shown(by_round[r]) if r in by_round else "" for r in rounds),
                      shown(line.penalties) if line.penalties else "", f"<strong>{shown(line.total)}</strong>",
                      f"{line.regular:+,d}"))
    return table(("#", "Player", *(f"R{r}" for r in rounds), "Penalties", "Total", "Regular points"), cells,
                 name_column=1) + f"<p>{csv_link}.</p>"


def _seat(player: str, sitter: str, names: dict[str, str]) -> str:
    """A seat's player, and who sits in for them if anyone does."""
    if sitter == player:
        return _player(player, names)
    return f"{_player(player, names)} (in for them: {_player(sitter, names)})"


def _player(player: str, names: dict[str, str]) -> str:
    if player.startswith(BOT_PREFIX):
        return "bot"
    return link(player_href(player), names.get(player, player))


def _time(row: EventTableRow, spec: EventSpec, clocks: Clocks) -> str:
    """A timed table's time: left while in play (the tables this node runs), or how it ended."""
    if spec.session_minutes is None:
        return ""
    if row.state is EventTableState.DONE:
        return "ended by time" if row.by_time else "ended by its hands"
    clock = clocks(row.table_id) if row.table_id else None
    if clock is None or clock.ends_at is None:
        return ""
    if clock.time_up:
        return "time is up: the last hand"
    minutes, seconds = divmod(int(clock.left(time.time()) or 0), 60)
    return f"{minutes}:{seconds:02d} left"


def _game(row: EventTableRow, codes: Codes) -> str:
    if row.state is EventTableState.DONE and row.game_id is not None:
        return link(f"/games/{row.game_id}", f"replay of game {row.game_id}")
    if row.state is EventTableState.ABANDONED:
        return "abandoned" + (f" ({link(f'/games/{row.game_id}', f'game {row.game_id}')})" if row.game_id else "")
    found = codes(row.table_id) if row.table_id else None
    if found is not None:
        return f"open: {link(f'/join/{found[0]}', 'join')} · {link(f'/watch/{found[1]}', 'watch')}"
    return text({"pending": "opening soon", "opening": "opening", "open": "open",
                 "reseat": "opening again"}.get(row.state.value, ""))
