// The message handlers: what each server message does to the page (PROTOCOL.md "Server to
// client"): the model takes what it says (web/src/model.ts), the view shows it, and the page
// (web/src/app.ts) saves the seat, answers what a comfort answers, or tries the next kept seat.

import type { App } from "./app";
import type { Msg } from "./connection";
import { h } from "./dom";
import { Action, label } from "./offers";
import * as players from "./player";
import { ByeCode, ErrorCode, EventType, HandResult, MessageType, ServerMessageType, TableState }
  from "./protocol_names";
import { resultBody, standingsBody } from "./results";
import { route } from "./routes";
import * as seats from "./seats";
import { SeatState, View } from "./seat_state";
import { redFives, roundText } from "./table";

type Handler = (app: App, m: Msg) => void;

const HANDLERS: Partial<Record<ServerMessageType, Handler>> = {
  [MessageType.WELCOME]: onWelcome,
  [MessageType.TABLE]: onTable,
  [MessageType.SNAPSHOT]: onSnapshot,
  [MessageType.EVENT]: onEvent,
  [MessageType.OFFER]: onOffer,
  [MessageType.TIMEOUT]: onTimeout,
  [MessageType.RESULT]: onResult,
  [MessageType.CATCHUP]: onCatchup,
  [MessageType.ERROR]: onError,
  [MessageType.BYE]: onBye,
  [MessageType.REMATCH_OFFERED]: onRematchOffered,
  [MessageType.PLAYER]: (app, m) => app.playerKnown({ id: m.id, name: m.name }),
  [MessageType.SESSION]: onSession,
  // left: the page has already gone on; pong: only the heartbeat asks (web/src/connection.ts)
};

/** Do what server message `m` says (a type the page does not know is let be). */
export function handle(app: App, m: Msg): void {
  HANDLERS[m.type as ServerMessageType]?.(app, m);
}

function onWelcome(app: App, m: Msg): void {
  if (m.player) app.playerKnown(m.player);
  if (!m.resumed && app.trying === null) app.page.status(`connected as ${app.conn?.name ?? ""}`, "up");
}

function onCatchup(app: App, m: Msg): void {
  app.page.status(m.replay ? "back at the table: replaying what was missed" : "back at the table", "up");
}

/** A timed table's session clock changed: extra time was given, or the time is up. */
function onSession(app: App, m: Msg): void {
  app.model.keepSession(m.session);
  if (typeof m.extra_ms === "number") app.page.notice(`Extra time: ${Number((m.extra_ms / 60000).toFixed(2))} minutes more`, "info");
  const text = app.model.sessionText();
  if (m.session.time_up) app.page.notice(text.charAt(0).toUpperCase() + text.slice(1), "info");
  app.tick();
}

function onTable(app: App, m: Msg): void {
  const model = app.model;
  if (app.final.game !== null) app.leaveFinal(); // the table of a rematch: the last game is over
  model.table = m;
  model.keepSession(m.session);
  app.fallback = app.trying = null;
  app.others = [];
  if (m.invite) app.codes = [m.invite, m.watch];
  model.watching = m.you === null || m.you === undefined;
  if (m.state === TableState.WAITING || m.state === TableState.PLAYING) app.saveSeat();
  if (m.state === TableState.WAITING) {
    app.page.showWaiting(m, model.watching);
    app.page.show("waiting");
  } else if (m.state === TableState.PLAYING) {
    if (model.state === null) model.state = new SeatState(model.watching ? null : m.you);
    app.page.show("table");
    app.redraw();
  } else if (m.state === TableState.CLOSED) {
    seats.forgetTab();
    app.page.notice("The table has closed.", "info");
    if (!model.view) app.page.show("lobby");
  }
}

function onSnapshot(app: App, m: Msg): void {
  const model = app.model;
  const view = m.view as View;
  const seat = view.you ? view.you.seat : null;
  if (model.state === null || model.state.seat !== seat) model.state = new SeatState(seat);
  model.state.loadSnapshot(view);
  app.saveSeat();
  app.page.show("table");
  app.keepGame();
  app.scheduleRedraw();
}

function onEvent(app: App, m: Msg): void {
  const event = m.event as Msg;
  app.clearOffer(); // the game moved on: what was offered is over
  app.model.apply(event);
  const view = app.model.view;
  if (view) {
    if (event.type === EventType.CALL) app.sounds.play("call");
    if (event.type === EventType.HAND_END) {
      if (event.result.type === HandResult.WIN) app.sounds.play("win");
      app.page.dialogs.show(`${roundText(view)}, honba ${view.honba}`, resultBody(event.result, view.names,
        redFives(view)));
    }
  }
  if (app.page.screen !== "table") app.page.show("table");
  if (performance.getEntriesByName("act", "mark").length) {
    performance.measure("decision-received", "act"); // our answer to the event it caused, received
    app.measurePending = true; // ... and drawn (the next frame)
  }
  app.keepGame();
  app.scheduleRedraw();
}

export function onOffer(app: App, m: Msg): void {
  app.model.offered(m);
  if (app.autoPlay()) return;
  if (app.automatic() === null) app.sounds.play("turn"); // (not for what the page plays once a result is closed)
  app.retitle();
  app.scheduleRedraw();
}

function onTimeout(app: App, m: Msg): void {
  app.clearOffer();
  app.page.notice(`Your time ran out: the server played ${label(m.action as Action)} for you.`, "info");
  app.redraw();
}

function onResult(app: App, m: Msg): void {
  seats.forgetTab();
  if (m.game === app.final.game) return; // sent again to a page that came back for the rematch
  const names: string[] = m.names ?? app.model.view?.names ?? ["seat 0", "seat 1", "seat 2", "seat 3"];
  const player = app.model.ownPlayer() ?? players.knownPlayer()?.id ?? null; // the final screen links its page
  app.page.dialogs.show("Final standings", h("div", { class: "final-body" },
    standingsBody(m.final, names, m.uma ?? null), app.final.ended(m.game, !app.model.watching, player)), true);
  app.page.status("the game is over", "info");
}

function onRematchOffered(app: App, m: Msg): void {
  app.model.rematchInvite = m.invite;
  app.final.offered(m.game, m.by);
  if (app.final.game === m.game) app.page.notice(`${m.by} asked for a rematch: Rematch takes your seat at it.`, "info");
}

function onError(app: App, m: Msg): void {
  const code = m.code as string;
  const page = app.page;
  if (code === ErrorCode.SEAT_IN_USE && app.trying !== null) {
    // the kept seat is another tab's (connected now): another kept seat, else a seat of its own
    if (app.fallback === null) page.notice("This seat is open in another tab or browser now.", "info");
    app.nextKept(false);
    return;
  }
  if (code === ErrorCode.SEAT_LOST) {
    if (app.trying !== null) seats.forget(app.trying.table, app.trying.seat);
    if (app.fallback !== null) {
      app.nextKept(true);
      return;
    }
    app.trying = null;
    page.notice(`The server no longer holds your seat: ${m.message}`);
    page.show("lobby");
    return;
  }
  if (code === ErrorCode.NO_TABLE) {
    page.notice(`${m.message}: check the link, or ask the host for a new one.`);
    app.conn?.close();
    if (page.screen !== "table") page.show(route()?.kind === "join" ? "join" : "lobby");
    return;
  }
  if (code === ErrorCode.WATCH_CODE) {
    page.notice("That is a watch code, not an invite code: watch the table with it instead.");
    if (page.screen !== "table") page.show("lobby");
    return;
  }
  const answered = app.model.answered;
  if (code === ErrorCode.ILLEGAL_ACTION && answered !== null && app.model.offer === null
      && m.decision === answered.decision) {
    onOffer(app, answered); // the server refused the answer and keeps the offer open: so do we
  }
  if (app.final.game !== null) app.final.refused(); // a rematch refused: it may be asked again
  page.notice(`${m.message} (${code})`);
}

function onBye(app: App, m: Msg): void {
  const code = m.code as string;
  const page = app.page;
  if (code === ByeCode.SERVER_RESTARTING) {
    page.status(`${m.reason}: waiting for it to be back…`, "down");
    return;
  }
  if (code !== ByeCode.REPLACED) seats.forgetTab();
  if (code === ByeCode.GAME_OVER) return; // the result came first
  if (code === ByeCode.REPLACED) page.notice("Another tab or device took this seat over.", "info");
  else if (code === ByeCode.SERVER_ENDED) page.notice("The server has ended, and its game with it.", "info");
  else page.notice(`The server says: ${m.reason}`, "info");
  if (!app.model.view) page.show("lobby");
}
