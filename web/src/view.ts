// The view: the page's DOM around the table (web/src/table.ts draws the table itself): which
// screen shows, the status line and the notice under it, the waiting room, the tab's title,
// the copy buttons, and the game drawn from the model (web/src/model.ts) with the turn said on
// an open result.

import type { LinkState, Msg } from "./connection";
import { byId, fill, h } from "./dom";
import { ResultDialogs } from "./results";
import { seatName } from "./player_links";
import { link } from "./routes";
import type { View } from "./seat_state";
import { Board, Extras } from "./table";
import { WINDS } from "./tiles";

export type Screen = "lobby" | "join" | "waiting" | "table";
const SCREENS: Screen[] = ["lobby", "join", "waiting", "table"];
const TITLE = "riichi mahjong";
const YOUR_TURN_TITLE = "Your turn · riichi mahjong";

export class PageView {
  screen: Screen = "lobby";
  readonly board = new Board(byId("board-root"));
  readonly dialogs = new ResultDialogs(byId<HTMLDialogElement>("result"));

  show(screen: Screen): void {
    this.screen = screen;
    for (const id of SCREENS) byId(id).hidden = id !== screen;
    document.body.dataset.screen = screen;
  }

  status(text: string, state: LinkState | "error" | "info" = "info"): void {
    const el = byId("status");
    el.textContent = text;
    el.dataset.state = state;
  }

  /** A timed table's session clock in the bar (hidden when `text` is empty). */
  sessionClock(text: string): void {
    const el = byId("session-clock");
    if (el.textContent !== text) el.textContent = text;
    el.hidden = text === "";
  }

  /** A one-line notice under the bar (an error, or what became of the seat). */
  notice(text: string, kind: "error" | "info" = "error"): void {
    const el = byId("notice");
    el.textContent = text;
    el.dataset.kind = kind;
    el.hidden = text === "";
  }

  /** The tab's title says it is our turn while the tab is in the background (where the table
   * cannot be seen).  Not in front: each new title costs the browser some milliseconds of its
   * own work (its tab strip and address bar), twice a decision, just as our answer goes out. */
  retitle(ourTurn: boolean): void {
    const title = ourTurn && document.hidden ? YOUR_TURN_TITLE : TITLE;
    if (document.title !== title) document.title = title;
  }

  /** The waiting room of table message `t`: its seats, and the links for the host. */
  showWaiting(t: Msg, watching: boolean): void {
    const you: number | null = t.you ?? null;
    const clock = t.clock ? `${t.clock.per_decision} s a decision + ${t.clock.bank} s bank` : "no clock";
    byId("waiting-title").textContent = watching ? "Watching a table" : "Your table";
    byId("waiting-rules").textContent = `rules ${t.rules} · ${clock} · waiting for four ready seats`;
    const rows = (t.seats as Array<Msg | null>).map((s, seat) => {
      if (s === null) return h("tr", { class: "free" }, h("td", {}, WINDS[seat]), h("td", { class: "dim" }, "(free)"));
      const kind = s.program ? "program" : s.kind;
      return h("tr", { class: seat === you ? "you" : "" }, h("td", {}, WINDS[seat]), h("td", { class: "name" }, seatName(s.name, s.player, "seat-name")),
        h("td", {}, kind), h("td", {}, s.host ? "host" : ""),
        h("td", { class: s.ready ? "ready" : "not-ready" }, s.ready ? "ready" : "not ready"),
        h("td", { class: "away" }, s.connected ? "" : "away"));
    });
    fill(byId("seats"), ...rows);
    const host = you !== null && t.seats[you]?.host;
    byId("links").hidden = !t.invite;
    if (t.invite) {
      (byId<HTMLInputElement>("invite-link")).value = link("join", t.invite);
      (byId<HTMLInputElement>("watch-link")).value = link("watch", t.watch);
      const free = (t.seats as Array<Msg | null>).some((s) => s === null);
      byId("links-bot").textContent = free ? "" : " (a bot's, before the game starts)";
    }
    byId("waiting-note").textContent = watching
      ? "You are watching: the game shows here when all four seats are ready (public events only)."
      : t.invite ? "" : "The host has the links; the game starts when all four seats are ready.";
    byId("ready").hidden = watching;
    byId("add-bot").hidden = !host || !(t.seats as Array<Msg | null>).some((s) => s === null);
    byId("leave").firstChild!.textContent = watching ? "Stop watching " : "Leave ";
  }

  /** The banner that says the page is watching, on the table's screen. */
  watchingBanner(watching: boolean): void {
    byId("watching").hidden = !(watching && this.screen === "table");
  }

  /** The game, and the seq of the last message drawn (the tests read it). */
  drawGame(view: View, extras: Extras, seq: number | null | undefined): void {
    this.board.draw(view, extras);
    this.board.root.dataset.seq = String(seq ?? "");
  }

  /** Say on an open result that it is our turn (`clock`: our time left), or nothing (null). */
  yourTurn(clock: string | null): void {
    this.dialogs.turn(clock === null ? "" : `Your turn${clock ? `, ${clock}` : ""}: close this to play`);
  }
}

/** The link in input `id` copied to the clipboard; its button says so for a moment. */
export function copy(id: string): void {
  const input = byId<HTMLInputElement>(id);
  const done = (): void => {
    const button = input.nextElementSibling;
    if (button) {
      button.textContent = "Copied";
      window.setTimeout(() => { button.textContent = "Copy"; }, 1500);
    }
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, () => undefined);
    return;
  }
  input.select(); // an address that is not this machine's (http): the old way
  try {
    if (document.execCommand("copy")) done();
  } catch {
    // the text stays selected, for the user to copy
  }
}
