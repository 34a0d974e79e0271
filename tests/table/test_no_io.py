"""The table core has no I/O: what goes in and out is plain data, so it can be logged,
relayed to another process and replayed, and the same inputs give the same outputs."""

import ast
import pickle
from pathlib import Path

from server.table.clock import Clock
from server.table.io import Act, AddBot, ClockFired, Disconnect, Join, Ready, Reconnect
from tests.table.driver import Driver, member

ROOT = Path(__file__).resolve().parents[2]
# the core: every module of server/table but its actor (seating.py and base.py included)
CORE = sorted(p.name for p in (ROOT / "server" / "table").glob("*.py") if p.name not in ("actor.py", "__init__.py"))
IO_MODULES = {"asyncio", "socket", "sqlite3", "time", "websockets", "structlog", "selectors", "threading",
              "server.session", "server.app", "server.lobby", "server.membership", "server.table.actor"}
STORE_DATA = "server.store.rows"  # the rows a table is rebuilt from: plain data, the one store module it may read

host, guest = member("host"), member("guest")


def script(d: Driver) -> list:
    """A few minutes of a table: seats, a start, answers, a drop, a resume, clocks running out."""
    out = d(Join(seat=0, host=True), host, at=1.0) + d(Join(), guest, at=2.0) + d(AddBot(), host) + d(AddBot(), host)
    out += d(Ready(), guest, at=3.0) + d(Ready(), host, at=4.0)
    for step in range(30):
        if step == 10:
            out += d(Disconnect(), guest)
        if step == 20:
            out += d(Reconnect(since=5), guest)
        waiting = d.core.game.waiting_for()
        who = host if 0 in waiting else guest if 1 in waiting and d.core.seats[1].member else None
        if who is None:
            out += d(ClockFired(), at=d.core.timer_at)
            continue
        offer = d.last(who, "offer")
        out += d(Act(offer["decision"], offer["actions"][-1]), who, at=d.now + 0.5)
    return out


def imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_same_inputs_at_the_same_times_give_the_same_outputs():
    clock = Clock(per_decision=2, bank=1, absence=60, between_hands=1)
    first, second = script(Driver(clock=clock)), script(Driver(clock=clock))
    assert len(first) > 100 and first == second


def test_every_output_survives_being_sent_to_another_process():
    outputs = script(Driver(clock=Clock(per_decision=2, bank=1, absence=60, between_hands=1)))
    assert pickle.loads(pickle.dumps(outputs)) == outputs


def test_the_table_core_imports_nothing_that_does_io():
    assert {"core.py", "seating.py", "base.py", "io.py"} <= set(CORE)
    for name in CORE:
        names = imported(ROOT / "server" / "table" / name)
        found = {n for n in names if n in IO_MODULES or (n.startswith("server.store") and n != STORE_DATA)}
        assert not found, f"server/table/{name} imports {sorted(found)}"
