"""A fair share of the event loop per client address.

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
"""

from __future__ import annotations

import time

# The credit an address may spend in one go: what its tables may hold the loop for in a row
# before they wait, so other tables' latency at worst grows by about this much.
BURST = 0.05  # seconds
ACTIVE = 1.0  # seconds since its last charge in which an address counts as having tables at work


class AddressShare:
    """A token bucket of loop seconds per address, refilled at `share` a second up to `burst`."""

    def __init__(self, share: float, burst: float = BURST):
        self.share, self.burst = share, burst
        self.credit: dict[str, float] = {}
        self.stamp: dict[str, float] = {}  # when each address's credit was last brought up to date

    def _refilled(self, address: str, now: float) -> float:
        credit = self.credit.get(address, self.burst)
        return min(self.burst, credit + (now - self.stamp.get(address, now)) * self.share)

    def charge(self, address: str, seconds: float) -> None:
        """`seconds` of loop time spent for a table of `address`."""
        now = time.monotonic()
        self.credit[address] = self._refilled(address, now) - seconds
        self.stamp[address] = now
        if len(self.stamp) > 4096:
            self._forget_idle(now)

    def delay(self, address: str) -> float:
        """Seconds a table of `address` waits before its next input (0: go on now)."""
        credit = self.credit.get(address)
        if credit is None or credit >= 0:
            return 0.0
        now = time.monotonic()
        credit = self._refilled(address, now)
        if credit >= 0 or not self._contended(address, now):
            return 0.0
        return -credit / self.share

    def _contended(self, address: str, now: float) -> bool:
        return any(a != address and now - at < ACTIVE for a, at in self.stamp.items())

    def _forget_idle(self, now: float) -> None:
        """Addresses idle long enough to be full again take no memory."""
        full = self.burst / self.share if self.share else 0.0
        for address in [a for a, at in self.stamp.items() if now - at > max(ACTIVE, full)]:
            del self.stamp[address]
            self.credit.pop(address, None)
