"""A timed table's session clock as riichi-play's status line shows it (docs/events.md 'The
session clock'): the time left, counted down from the `left_ms` the server last sent (by this
machine's monotonic clock, so a wrong wall clock does not matter), or that the time is up and
which hand is the last."""

from __future__ import annotations

from typing import Any


def session_text(session: dict[str, Any] | None, received: float, now: float, hand_number: int | None) -> str:
    """The status line's words for `session` (a `table` message's or a `session` message's
    map), received at `received` and shown at `now` (monotonic seconds); `hand_number` the hand
    in play, if known.  Empty for an untimed table."""
    if not session:
        return ""
    if session.get("time_up"):
        last = session.get("last_hand")
        if last is not None and hand_number is not None and last > hand_number:
            return "time is up: one more hand after this one"
        return "time is up: this hand is the last"
    left_ms = session.get("left_ms")
    if left_ms is None:
        return f"session: {session['seconds'] / 60:g} min from the start"
    left = max(0, int(left_ms / 1000 - (now - received)))
    minutes, seconds = divmod(left, 60)
    return f"session: {minutes}:{seconds:02d} left"
