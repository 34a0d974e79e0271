// A timed table's session clock (docs/events.md "The session clock") as the bar shows it: the
// time left, counted down from the `left_ms` the server last sent (by this page's own clock, so
// a wrong wall clock does not matter), or that the time is up and which hand is the last.

import type { Msg } from "./connection";

export interface SessionClock {
  session: Msg; // a `table` message's `session`, or a `session` message's
  received: number; // performance.now() when it came
}

/** The bar's words for `clock` at `now` (performance.now()); `handNumber` the hand in play, if
 * known.  Empty for an untimed table. */
export function sessionText(clock: SessionClock | null, now: number, handNumber: number | null): string {
  if (clock === null) return "";
  const s = clock.session;
  if (s.time_up) {
    const last = s.last_hand;
    if (typeof last === "number" && handNumber !== null && last > handNumber) {
      return "time is up: one more hand after this one";
    }
    return "time is up: this hand is the last";
  }
  if (typeof s.left_ms !== "number") return `session: ${Number((s.seconds / 60).toFixed(2))} min from the start`;
  const left = Math.max(0, Math.floor(s.left_ms / 1000 - (now - clock.received) / 1000));
  return `session: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
}
