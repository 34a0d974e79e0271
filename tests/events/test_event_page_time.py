"""The event page's table rows for a timed event (docs/events.md 'The session clock'): the time
left on a table in play that this node runs, that its time is up, and whether each ended table
ended by its hands or by time."""

from __future__ import annotations

import asyncio
import re
import time

from server.event_page import event_page, table_clocks
from server.events.spec import EventSpec
from server.store.event_rows import EventRow, EventTableRow, EventTableState
from server.table.session import Session, SessionClock

SEATS = ("p1", "p2", "p3", "p4")


def _rows(page: str) -> dict[int, str]:
    """Each table row's text (tags taken out), by its table number."""
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    cells = [re.sub(r"<[^>]+>", "|", row) for row in rows]
    return {int(m.group(1)): text for text in cells if (m := re.match(r"\|+(\d+)\|", text))}


def test_a_timed_events_tables_show_the_time_left_or_how_they_ended():
    spec = EventSpec("Timed cup", session_minutes=90)
    event = EventRow("e1", spec.name, spec.to_data(), None, 0.0)
    running = SessionClock(Session(5400), ends_at=time.time() + 125.5)
    up = SessionClock(Session(5400), ends_at=time.time() - 1, time_up=True)
    tables = [EventTableRow("e1", 1, 1, SEATS, EventTableState.OPEN, "t1"),
              EventTableRow("e1", 1, 2, SEATS, EventTableState.OPEN, "t2"),
              EventTableRow("e1", 1, 3, SEATS, EventTableState.DONE, "t3", 7, by_time=True),
              EventTableRow("e1", 1, 4, SEATS, EventTableState.DONE, "t4", 8),
              EventTableRow("e1", 1, 5, SEATS, EventTableState.OPEN, "t5")]  # another node's: nothing known here
    clocks = {"t1": running, "t2": up}.get
    rows = _rows(event_page(event, spec, tables, [], [], {}, lambda _: None, clocks))
    assert re.search(r"2:0[45] left", rows[1]), rows[1]
    assert "time is up: the last hand" in rows[2]
    assert "ended by time" in rows[3] and "ended by its hands" in rows[4]
    assert "left" not in rows[5] and "ended" not in rows[5]


def test_an_untimed_events_tables_show_no_time():
    spec = EventSpec("Untimed cup")
    event = EventRow("e1", spec.name, spec.to_data(), None, 0.0)
    tables = [EventTableRow("e1", 1, 1, SEATS, EventTableState.DONE, "t1", 7)]
    assert "ended by" not in event_page(event, spec, tables, [], [], {}, lambda _: None, lambda _: None)


class _Stored:
    """The one store read table_clocks makes: each table's session end as stored with it."""

    def __init__(self, ends: dict[str, float]):
        self.ends = ends

    async def table_session_end(self, table_id: str) -> float | None:
        return self.ends.get(table_id)


def test_another_nodes_timed_table_shows_the_time_left_from_the_end_stored_with_it():
    spec = EventSpec("Timed cup", session_minutes=90)
    event = EventRow("e1", spec.name, spec.to_data(), None, 0.0)
    tables = [EventTableRow("e1", 1, 1, SEATS, EventTableState.OPEN, "t1"),
              EventTableRow("e1", 1, 2, SEATS, EventTableState.OPEN, "t2"),
              EventTableRow("e1", 1, 3, SEATS, EventTableState.OPEN, "t3")]  # not started: no end stored
    store = _Stored({"t1": time.time() + 65.5, "t2": time.time() - 3})
    clocks = asyncio.run(table_clocks(store, tables, spec, lambda _: None))  # type: ignore[arg-type]
    rows = _rows(event_page(event, spec, tables, [], [], {}, lambda _: None, clocks))
    assert re.search(r"1:0[45] left", rows[1]), rows[1]
    assert "time is up" in rows[2] and "left" not in rows[3]
