"""Where finished games are announced: a small typed publish and subscribe of `GameFinished`
(server/finished.py), one per lobby.

A table's actor publishes each game's end once it is stored; a node of several also
publishes the games that other nodes finished, as it hears them (`relayed`).  A subscriber
says whether it hears those too: the store writes the games of its own node only (each game
is written once, by the node that ran it), the standings want every node's.  A subscriber
that fails is logged, and the others are still told.  The table that publishes awaits its
subscribers (the store's write among them) before it closes: one that does slow work hands
it to a task of its own.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog

from server.finished import GameFinished

log = structlog.get_logger("riichi.finishes")

Subscriber = Callable[[GameFinished], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class _Subscription:
    callback: Subscriber
    relayed: bool


class Finishes:
    def __init__(self) -> None:
        self._subscriptions: list[_Subscription] = []

    def subscribe(self, callback: Subscriber, relayed: bool = True) -> Callable[[], None]:
        """Call `callback` (a function or a coroutine function) with every game finished here,
        and with `relayed` those that other nodes finished too; returns the unsubscribe."""
        subscription = _Subscription(callback, relayed)
        self._subscriptions.append(subscription)
        return lambda: self._subscriptions.remove(subscription)

    async def publish(self, finished: GameFinished, relayed: bool = False) -> None:
        """Tell every subscriber, in the order they subscribed (`relayed`: another node finished it)."""
        for subscription in list(self._subscriptions):
            if relayed and not subscription.relayed:
                continue
            try:
                answer = subscription.callback(finished)
                if inspect.isawaitable(answer):
                    await answer
            except Exception:  # noqa: BLE001 - one subscriber must not keep the game from the others
                log.exception("finish_subscriber_failed", game=finished.game_id, table=finished.table_id)
