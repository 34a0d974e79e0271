// Routing: which screen the page opens on, from its address.  `/` is the lobby (create a
// table, join or watch with a code), `/join/CODE` asks for a name and takes a seat, and
// `/watch/CODE` watches; a seat this browser kept for the code (or this tab's, on a reload)
// is taken back first.

import type { Msg } from "./connection";
import { MessageType } from "./protocol_names";
import * as seats from "./seats";

export type LinkKind = "join" | "watch";
export interface Route { kind: LinkKind; code: string }

const CODE = /^\/(join|watch)\/([A-Za-z0-9_-]{1,64})\/?$/;

/** The link an address is, or null: the lobby (`/`, or any other path). */
export function route(pathname: string = location.pathname): Route | null {
  const match = CODE.exec(pathname);
  return match ? { kind: match[1] as LinkKind, code: match[2] } : null;
}

/** The code in what was typed or pasted: the code itself, or a whole link. */
export function codeFrom(text: string): string {
  const trimmed = text.trim();
  const match = /\/(?:join|watch)\/([A-Za-z0-9_-]+)\/?$/.exec(trimmed);
  return match ? match[1] : trimmed;
}

/** The link a friend opens to take a seat (`join`) or to watch. */
export function link(kind: LinkKind, code: string): string {
  return `${location.protocol}//${location.host}/${kind}/${code}`;
}

/** What a link asks of the server once connected. */
export function intentFor(kind: LinkKind, code: string): Msg[] {
  return [{ type: kind === "join" ? MessageType.JOIN : MessageType.WATCH, code }];
}

/** The seats this browser kept for a code, the last saved first. */
export function keptFor(kind: LinkKind, code: string): seats.SavedSeat[] {
  return seats.byCode(code).filter((e) => (e.seat === null) === (kind === "watch"))
    .sort((a, b) => b.saved - a.saved);
}

/** Where the page starts: back to a kept seat (the others to try after it, and what to do if
 * none resumes), the name prompt of a join link, watching, or the lobby. */
export type Start =
  | { to: "resume"; seat: seats.SavedSeat; others: seats.SavedSeat[]; fallback: Msg[] | "prompt" | null }
  | { to: "prompt" }
  | { to: "watch"; code: string }
  | { to: "lobby" };

/** Where a page at `here` starts, `mine` the seat this tab held before a reload. */
export function start(here: Route | null, mine: seats.SavedSeat | null): Start {
  if (mine && (!here || mine.codes.includes(here.code))) { // a reload: back to this tab's seat
    return { to: "resume", seat: mine, others: [], fallback: here ? intentFor(here.kind, here.code) : null };
  }
  if (here?.kind === "join") {
    const kept = keptFor("join", here.code);
    // a tab opened again on the link: its seat back, else the name prompt
    return kept.length ? { to: "resume", seat: kept[0], others: kept.slice(1), fallback: "prompt" } : { to: "prompt" };
  }
  if (here?.kind === "watch") return { to: "watch", code: here.code };
  return { to: "lobby" };
}
