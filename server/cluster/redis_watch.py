"""Whether this node reaches Redis now (issue 24: "a node must ride out a Redis outage of
seconds").  A PING every second, answered within a second or counted a failure: the node
knows Redis is away within about two seconds of it going, says so once in its log
(`redis_away`) and on /healthz, and once Redis answers again (`redis_back`, with how long
it was away) the node's relays are resumed (Cluster.redis_back).

Every Redis call a client's request waits on (a resume, a join by code) goes through
`RedisWatch.ask`: bounded to a couple of seconds, and refused at once while Redis is known
to be away, with `RedisAway`, which the client is told as `unavailable` (try again soon)
instead of waiting out a socket timeout and getting `internal`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import structlog

from server.away import Away
from server.stopping import stop_tasks

log = structlog.get_logger("riichi.cluster")

T = TypeVar("T")
EVERY = 1.0  # seconds between PINGs
ANSWER_WITHIN = 1.0  # seconds a PING may take before it counts as unanswered
ASK_WITHIN = 2.0  # seconds a request's Redis call may take before the request is refused


class RedisAway(Away):
    """Redis does not answer now; args[0] says so in one line, for the client."""


def redis_trouble(problem: BaseException) -> bool:
    """Whether an exception is Redis not answering (a timeout, a lost connection), rather
    than a fault of the caller's."""
    try:
        import redis.exceptions
    except ImportError:  # pragma: no cover - the cluster always has redis installed
        return isinstance(problem, (TimeoutError, OSError))
    return isinstance(problem, (TimeoutError, OSError, Away, redis.exceptions.ConnectionError,
                                redis.exceptions.TimeoutError))


class RedisWatch:
    def __init__(self, redis: Any, on_back: Callable[[float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.redis, self.on_back, self.clock = redis, on_back, clock
        self.away_since: float | None = None  # this clock, when Redis was first missed
        self.outages = 0  # outages seen, for /metrics and the tests
        self._task: asyncio.Task[None] | None = None

    @property
    def up(self) -> bool:
        return self.away_since is None

    def problem(self) -> str | None:
        """Why Redis cannot be counted on now, in one line (None: it answers)."""
        if self.away_since is None:
            return None
        return f"redis does not answer (for {self.clock() - self.away_since:.0f} s)"

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run(), name="redis-watch")

    async def stop(self) -> None:
        if self._task is not None:
            await stop_tasks([self._task], log)

    async def run(self) -> None:
        while True:
            await self.check()
            await asyncio.sleep(EVERY)

    async def check(self) -> bool:
        """One PING: whether Redis answered it in time (and the watch's state updated)."""
        try:
            async with asyncio.timeout(ANSWER_WITHIN):
                await self.redis.ping()
        except Exception as problem:  # noqa: BLE001 - any failure is "does not answer"
            self.missed(problem)
            return False
        self.answered()
        return True

    def missed(self, problem: BaseException | None = None) -> None:
        if self.away_since is None:
            self.away_since = self.clock()
            self.outages += 1
            log.warning("redis_away", error=str(problem or "") or type(problem).__name__)

    def answered(self) -> None:
        if self.away_since is not None:
            away, self.away_since = self.clock() - self.away_since, None
            log.info("redis_back", away_s=round(away, 1))
            if self.on_back is not None:
                self.on_back(away)

    async def ask(self, call: Callable[[], Awaitable[T]]) -> T:
        """`call()` (a Redis call a client's request waits on), or RedisAway at once while
        Redis is away, or when it does not answer within ASK_WITHIN seconds."""
        if self.away_since is not None:
            raise RedisAway(self.problem())
        try:
            async with asyncio.timeout(ASK_WITHIN):
                return await call()
        except Exception as problem:
            if not redis_trouble(problem):
                raise
            self.missed(problem)
            raise RedisAway(self.problem()) from None
