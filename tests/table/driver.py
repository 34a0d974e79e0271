"""Drives a table core by hand, with no event loop: inputs in at chosen times, outputs read back.

`Driver` answers the core's `StartGame` as the server's actor does (with a fixed seed, so
games are the same every run) and keeps every output; `to(member)` is what that member was
sent, in order, as the actor would deliver it.
"""

from __future__ import annotations

from typing import Any

from server.table.clock import Clock
from server.table.core import TableCore
from server.table.io import AddBot, Broadcast, GameStarted, Input, Join, Member, Output, Ready, Send, StartGame, Watch
from server.table.spec import TableSpec

SEED = bytes(range(32))


def member(name: str, player_id: str | None = None) -> Member:
    return Member(f"m-{name}", f"token-{name}", name, player_id=player_id)


class Driver:
    def __init__(self, rules: str = "tenhou", clock: Clock | None = None, history: int = 256,
                 spec: TableSpec | None = None):
        """A table of `rules` and `clock` with four open seats, or one opened from `spec`."""
        spec = spec if spec is not None else TableSpec(rules, clock=clock)
        self.core, self.out = TableCore.new("t1", "invite-code", "watch-code", spec, history)
        self.now = 0.0
        self.games = 0
        self.out = self._started(self.out)  # (a spec of four bots starts its game at once)

    def __call__(self, item: Input, who: Member | None = None, at: float | None = None) -> list[Output]:
        """Hand the core one input (at `at`, else the current time); its outputs."""
        if at is not None:
            self.now = at
        out = self._started(self.core.handle(item, who, self.now))
        self.out += out
        return out

    def _started(self, out: list[Output]) -> list[Output]:
        """The outputs, and the game's first ones after a StartGame (its seed, else SEED; none
        for a game dealt from the spec's walls, as the actor stores it)."""
        for o in list(out):
            if isinstance(o, StartGame):
                self.games += 1
                seed = None if o.walls is not None else o.seed or SEED
                out += self.core.handle(GameStarted(self.games, seed), None, self.now)
        return out

    def to(self, who: Member, outputs: list[Output] | None = None) -> list[dict[str, Any]]:
        """The messages `who` was sent (in `outputs`, else in everything so far)."""
        return [o.message for o in (self.out if outputs is None else outputs)
                if (isinstance(o, Send) and o.member == who.id) or (isinstance(o, Broadcast) and who.id in o.members)]

    def last(self, who: Member, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.to(who)) if m["type"] == kind)


def two_players_and_two_bots(d: Driver, host: Member, guest: Member, *watchers: Member) -> Driver:
    """The host in seat 0, the guest in seat 1, two bots, `watchers` watching: the game started."""
    d(Join(seat=0, host=True), host)
    d(Join(seat=1), guest)
    for watcher in watchers:
        d(Watch(), watcher)
    d(AddBot(), host)
    d(AddBot(), host)
    d(Ready(), guest)
    d(Ready(), host)
    return d


def of(kind: type, outputs: list[Output]) -> list[Any]:
    return [o for o in outputs if isinstance(o, kind)]
