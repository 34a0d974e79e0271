"""Which node runs a table: a lease in Redis that the node renews, with an epoch that fences
its writes (issue 16, "Ownership that cannot split").

A table's lease is one Redis key, `riichi:lease:TABLE`, holding `NODE:EPOCH` and expiring
after `ttl` seconds unless renewed; `riichi:epoch:TABLE` counts the claims, so every claim
of a table has an epoch higher than the one before.  Claiming, renewing and releasing are
each one Lua script, so no two nodes can both see a table as free, and a node renews or
releases only the lease it holds.

A node must stop running a table before its lease can have run out in Redis, even when it
cannot reach Redis to hear so: the keeper (`LeaseKeeper`) counts each lease valid until the
moment its last successful renewal *was sent* plus the ttl, less a margin, and tells the
node a lease is lost as soon as that time passes without a renewal, or a renewal is refused.
A node that was paused past that moment (and so could not even look at its clock) is
stopped by the fence instead: the new owner has written its higher epoch into the
database, and every write of the old one checks its epoch there
(server/store/postgres.py, `Fenced`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import structlog

from server.stopping import stop_tasks

log = structlog.get_logger("riichi.leases")

_CLAIM = """
if redis.call('exists', KEYS[1]) == 1 then return false end
local epoch = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
return epoch
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def lease_key(table_id: str) -> str:
    return f"riichi:lease:{table_id}"


def epoch_key(table_id: str) -> str:
    return f"riichi:epoch:{table_id}"


@dataclass(frozen=True)
class Holder:
    node: str
    epoch: int


class Leases:
    """One node's leases, on a `redis.asyncio.Redis` client."""

    def __init__(self, redis: Any, node: str, ttl: float = 10.0):
        if ":" in node:
            raise ValueError(f"a node id has no ':' in it: {node!r}")
        self.redis, self.node, self.ttl = redis, node, ttl
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    @property
    def _ttl_ms(self) -> int:
        return max(1, int(self.ttl * 1000))

    async def claim(self, table_id: str) -> int | None:
        """The epoch of a new lease on the table for this node, or None while another holds one."""
        epoch = await self._claim(keys=[lease_key(table_id), epoch_key(table_id)], args=[self.node, self._ttl_ms])
        return None if epoch is None else int(epoch)

    async def renew(self, table_id: str, epoch: int) -> bool:
        """Another ttl for this node's lease of that epoch; False if it no longer holds it."""
        return (await self.renew_many({table_id: epoch}))[table_id]

    async def renew_many(self, held: dict[str, int]) -> dict[str, bool]:
        """renew() for each table -> epoch, all in one round trip to Redis (a pipeline)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id, epoch in held.items():
                await self._renew(keys=[lease_key(table_id)], args=[f"{self.node}:{epoch}", self._ttl_ms], client=pipe)
            answers = await pipe.execute()
        return {table_id: bool(answer) for table_id, answer in zip(held, answers)}

    async def release(self, table_id: str, epoch: int) -> bool:
        """Give the lease up (a node stopping on purpose), so another may claim it at once."""
        return bool(await self._release(keys=[lease_key(table_id)], args=[f"{self.node}:{epoch}"]))

    async def holder(self, table_id: str) -> Holder | None:
        """Who holds the table's lease now, if anyone."""
        value = await self.redis.get(lease_key(table_id))
        if value is None:
            return None
        node, _, epoch = (value.decode() if isinstance(value, bytes) else value).rpartition(":")
        return Holder(node, int(epoch))


class LeaseKeeper:
    """Renews a node's leases every ttl/3 and says (`on_lost(table_id, epoch)`) when one is
    lost: refused, or not renewed in time to be sure it still holds.  `margin`: how long
    before the lease could run out in Redis the node stops counting on it."""

    def __init__(self, leases: Leases, on_lost: Callable[[str, int], None], margin: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.leases, self.on_lost, self.clock = leases, on_lost, clock
        self.margin = leases.ttl / 5 if margin is None else margin
        self.held: dict[str, tuple[int, float]] = {}  # table id -> (epoch, valid until, by this clock)
        self.renewals = 0  # successful renewals, for /metrics
        self._task: asyncio.Task[None] | None = None

    def hold(self, table_id: str, epoch: int, claimed_at: float) -> None:
        """Keep renewing a lease claimed at `claimed_at` (this clock, before the claim was sent)."""
        self.held[table_id] = (epoch, claimed_at + self.leases.ttl - self.margin)

    def valid(self, table_id: str) -> bool:
        held = self.held.get(table_id)
        return held is not None and self.clock() < held[1]

    async def drop(self, table_id: str) -> None:
        """Stop holding a table on purpose (it finished, or the node stops): released at once."""
        held = self.held.pop(table_id, None)
        if held is not None:
            try:
                await self.leases.release(table_id, held[0])
            except Exception:  # noqa: BLE001 - then it runs out by itself
                log.warning("lease_release_failed", table=table_id)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run(), name="lease-keeper")

    async def stop(self) -> None:
        if self._task is not None:
            await stop_tasks([self._task], log)

    async def run(self) -> None:
        every = self.leases.ttl / 3
        while True:
            await self.renew_all()
            await asyncio.sleep(every)

    async def renew_all(self) -> None:
        """One round: renew every lease still sure to be held, in one round trip waited on no
        longer than the soonest of them is sure to be held; then count each renewed, refused,
        or (no answer, and its time up) lost."""
        sent = self.clock()
        asked = {table_id: (epoch, until) for table_id, (epoch, until) in list(self.held.items()) if sent < until}
        answers: dict[str, bool] = {}
        if asked:
            try:
                answers = await asyncio.wait_for(self.leases.renew_many({t: e for t, (e, _) in asked.items()}),
                                                 min(until for _, until in asked.values()) - sent)
            except Exception as problem:  # noqa: BLE001 - timed out, or Redis unreachable: no answer
                log.warning("lease_renewal_failed", tables=len(asked), error=str(problem) or type(problem).__name__)
        for table_id, (epoch, _) in list(self.held.items()):
            ours = table_id in asked and asked[table_id][0] == epoch  # (not held again meanwhile)
            self._settle(table_id, epoch, answers.get(table_id) if ours else None, sent)

    def _settle(self, table_id: str, epoch: int, renewed: bool | None, sent: float) -> None:
        """renewed: True, renewed; False, refused (another holds it); None, no answer."""
        if renewed:
            self.renewals += 1
            self.held[table_id] = (epoch, sent + self.leases.ttl - self.margin)
        elif renewed is False or not self.valid(table_id):
            del self.held[table_id]
            log.warning("lease_lost", table=table_id, epoch=epoch, refused=renewed is False)
            self.on_lost(table_id, epoch)
        # no answer while time is left: the next round tries again
