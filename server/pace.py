"""A fair share of the event loop per client address, and per table within an address.

All tables run on one event loop.  Tables of the server's bots play as fast as the loop
lets them when nothing waits for a person: a clock of `per_decision: 0` plays a seat
whose player does not answer at once, and a client program that answers at once has
the bots answer at once too.  Twenty such tables from one address held the loop at 93%
and a normal table's median latency went from 1.4 to 35 ms.

So the time a table spends handling its inputs (the engine, its bots, encoding what it
sends) is charged to the address that created it, and while more than one address has
tables at work, an address that has used more than `share` of the loop's time (with a
`burst` of credit) waits before its tables take their next input.  This bounds what one
address can take whatever it does (a clock of 0, a client that answers at once, many
tables), and leaves any table from a playing person untouched: a table at a human pace
uses well under 1% of the loop.  A floor per table on the bots' pace would not: twenty
tables multiply it, and a client answering at once has the bots answer at once.  An
address alone on the server is not held back (there is nobody to be fair to).

Within an address the share is the tables': players behind one NAT (or one load balancer
that does not say who is behind it) share an address with whatever else comes from
there.  When the address has used its share, its tables that have an input wait in one
line, and each time its credit is back the one of them that has used the least of the
loop lately goes next (one at a time: the next goes when that one's step is charged, or
after HOLD if its step awaits its store or anything else for longer).  A table at a
person's pace has used next to nothing, so it goes first, after at most the step in hand,
where it used to draw lots with the address's busiest tables for every input (a brisk
normal table beside a farm of clockless bots, scripts/flood_bench.py: 1.0 ms median alone,
55 ms with the farm and 3.1 s at p99; now 4.9 and 62 ms).  The busy tables share what is
left among themselves.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Hashable

# The credit an address may spend in one go: what its tables may hold the loop for in a row
# before they wait, so other tables' latency at worst grows by about this much.
BURST = 0.05  # seconds
ACTIVE = 1.0  # seconds since its last charge in which an address counts as having tables at work
# How long a table's use of the loop counts for its place in its address's line: what it used
# this long ago counts for 1/e of what it used just now.
RECENT = 1.0  # seconds
# A step may await its store (PostgreSQL's commit) or a slow client: the table let go from its
# line holds the others of its address back for at most this long before the next goes too.
HOLD = 0.5  # seconds


class Line:
    """The tables of one address waiting for its credit, and the one let go until it is charged."""

    __slots__ = ("waiting", "going", "timer")

    def __init__(self) -> None:
        self.waiting: dict[Hashable, asyncio.Future[None]] = {}
        self.going: Hashable | None = None
        self.timer: asyncio.TimerHandle | None = None


class AddressShare:
    """A token bucket of loop seconds per address, refilled at `share` a second up to `burst`;
    a line per address in debt, in order of each table's recent use."""

    def __init__(self, share: float, burst: float = BURST, clock: Callable[[], float] = time.monotonic):
        self.share, self.burst, self.clock = share, burst, clock
        self.credit: dict[str, float] = {}
        self.stamp: dict[str, float] = {}  # when each address's credit was last brought up to date
        self.used: dict[Hashable, tuple[float, float]] = {}  # a table's recent use of the loop, and when
        self.lines: dict[str, Line] = {}

    def _refilled(self, address: str, now: float) -> float:
        credit = self.credit.get(address, self.burst)
        return min(self.burst, credit + (now - self.stamp.get(address, now)) * self.share)

    def recent_use(self, table: Hashable, now: float | None = None) -> float:
        """The loop seconds `table` used lately, what it used RECENT ago counting 1/e."""
        used, at = self.used.get(table, (0.0, 0.0))
        now = self.clock() if now is None else now
        return used * math.exp(-(now - at) / RECENT) if used else 0.0

    def charge(self, address: str, seconds: float, table: Hashable | None = None) -> None:
        """`seconds` of loop time spent for `table` of `address`; if it was the one let go from
        its address's line, the next may go."""
        now = self.clock()
        self.credit[address] = self._refilled(address, now) - seconds
        self.stamp[address] = now
        if table is not None:
            self.used[table] = (self.recent_use(table, now) + seconds, now)
            line = self.lines.get(address)
            if line is not None and line.going == table:
                line.going = None
                self._next(address)  # (which cancels the HOLD timer)
        if len(self.stamp) > 4096 or len(self.used) > 4096:
            self._forget_idle(now)

    def delay(self, address: str) -> float:
        """Seconds the tables of `address` wait before their next input (0: go on now)."""
        credit = self.credit.get(address)
        if credit is None or credit >= 0:
            return 0.0
        now = self.clock()
        credit = self._refilled(address, now)
        if credit >= 0 or not self._contended(address, now):
            return 0.0
        return -credit / self.share

    async def turn(self, address: str, table: Hashable) -> None:
        """Wait until `table` of `address` may take its next input; then it must be charged
        (`charge` with the table), even for a step that failed, or its line stops."""
        line = self.lines.get(address)
        if line is None and self.delay(address) == 0.0:
            return
        if line is None:
            line = self.lines[address] = Line()
        going = line.waiting[table] = asyncio.get_running_loop().create_future()
        self._next(address)
        try:
            await going
        except asyncio.CancelledError:
            if line.waiting.get(table) is going:
                del line.waiting[table]
            elif line.going == table:  # let go and cancelled before it stepped: the next goes instead
                line.going = None
                self._next(address)
            raise

    def _next(self, address: str) -> None:
        """Let the line's next table go if the address's credit is back, or set a timer for then."""
        line = self.lines.get(address)
        if line is None or line.going is not None:
            return
        if line.timer is not None:
            line.timer.cancel()
            line.timer = None
        if not line.waiting:
            del self.lines[address]
            return
        wait = self.delay(address)
        if wait:
            line.timer = asyncio.get_running_loop().call_later(wait, self._next, address)
            return
        now = self.clock()
        if not self._contended(address, now):  # nobody else at work: nobody to be fair to
            for going in line.waiting.values():
                going.set_result(None)
            del self.lines[address]
            return
        table = min(line.waiting, key=lambda t: self.recent_use(t, now))
        line.going = table
        line.waiting.pop(table).set_result(None)
        line.timer = asyncio.get_running_loop().call_later(HOLD, self._held_too_long, address, table)

    def _held_too_long(self, address: str, table: Hashable) -> None:
        line = self.lines.get(address)
        if line is not None and line.going == table:
            line.timer = None
            line.going = None
            self._next(address)

    def _contended(self, address: str, now: float) -> bool:
        return any(a != address and now - at < ACTIVE for a, at in self.stamp.items())

    def _forget_idle(self, now: float) -> None:
        """Addresses idle long enough to be full again, and tables whose use no longer counts,
        take no memory."""
        full = self.burst / self.share if self.share else 0.0
        for address in [a for a, at in self.stamp.items() if now - at > max(ACTIVE, full)]:
            if address not in self.lines:
                del self.stamp[address]
                self.credit.pop(address, None)
        for table in [t for t, (_, at) in self.used.items() if now - at > 20 * RECENT]:
            del self.used[table]
