// What the player does outside the table's own clicks and taps: the lobby's and the waiting
// room's forms and buttons, and the keys (docs/web.md "Keys").

import type { App } from "./app";
import type { Msg } from "./connection";
import { byId } from "./dom";
import { Action } from "./offers";
import { MessageType } from "./protocol_names";
import { codeFrom, route } from "./routes";
import * as seats from "./seats";
import { HAND_KEYS, handOrder, SEAT_TO_BOT_KEY } from "./table";
import { copy } from "./view";

/** The lobby's forms (create, join, watch), the join link's name prompt and the waiting room's buttons. */
export function wireForms(app: App): void {
  const nameOf = (id: string): string => {
    const name = (byId<HTMLInputElement>(id)).value.trim() || "player";
    seats.saveName(name);
    app.wantedName = name; // the player's name from now on, if it was another (App.connect)
    return name;
  };
  byId("create").addEventListener("submit", (event) => {
    event.preventDefault();
    const clock = (byId<HTMLSelectElement>("clock")).value;
    // a clock is "per_decision,bank" or "per_decision,bank,absence" in seconds
    const [perDecision, bank, absence] = clock.split(",").map(Number);
    const rounds = Number((byId<HTMLSelectElement>("length")).value);
    const create: Msg = { type: MessageType.CREATE_TABLE, rules: (byId<HTMLSelectElement>("rules")).value,
      ...(rounds === 1 ? { overrides: { rounds } } : {}),
      clock: clock === "none" ? { none: true } : { per_decision: perDecision, bank,
        ...(absence === undefined ? {} : { absence }) } };
    const bots = Number((byId<HTMLSelectElement>("bots")).value);
    const strategy = (byId<HTMLSelectElement>("bot-strategy")).value;
    app.model.watching = false;
    app.codes = [];
    const name = nameOf("name");
    app.connect(name, null, app.named([create, ...Array.from({ length: bots }, () => ({ type: MessageType.ADD_BOT, strategy }))]));
  });
  byId("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = codeFrom((byId<HTMLInputElement>("join-code")).value);
    if (code) app.byLink("join", code, nameOf("name"));
  });
  byId("watch-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = codeFrom((byId<HTMLInputElement>("watch-code")).value);
    if (code) app.byLink("watch", code, nameOf("name"));
  });
  byId("link-join").addEventListener("submit", (event) => {
    event.preventDefault();
    const here = route();
    if (here) app.byLink("join", here.code, nameOf("link-name"));
  });
  byId("player-form").addEventListener("submit", (event) => {
    event.preventDefault();
    app.askPlayer((byId<HTMLInputElement>("name")).value.trim() || "player");
  });
  byId("ready").addEventListener("click", () => app.send({ type: MessageType.READY }));
  byId("add-bot").addEventListener("click", () => app.send({ type: MessageType.ADD_BOT }));
  byId("leave").addEventListener("click", () => app.leave());
  byId("copy-invite").addEventListener("click", () => copy("invite-link"));
  byId("copy-watch").addEventListener("click", () => copy("watch-link"));
}

/** A key pressed anywhere but in a form's field. */
export function key(app: App, event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  // a link reached by Tab (a seat's name: its player's page) opens on Enter; a click leaves none focused
  if (target?.tagName === "A" && event.key === "Enter") return;
  if (app.final.key(event.key)) { // the game's end: its way forward, dialog or not
    event.preventDefault();
    return;
  }
  if (app.page.dialogs.isOpen) return; // the dialog's button has Enter; Escape closes it
  if (app.page.screen === "waiting") {
    const id = { g: "ready", b: "add-bot", Escape: "leave" }[event.key];
    if (id && !byId(id).hidden) {
      event.preventDefault();
      byId(id).click();
    }
    return;
  }
  const model = app.model;
  const view = model.view;
  if (app.page.screen !== "table" || !view) return;
  const count = handOrder(view).length;
  const pressed = event.key;
  let handled = true;
  if (pressed === "ArrowLeft" || pressed === "ArrowRight") {
    const from = model.selected ?? (pressed === "ArrowLeft" ? count : -1);
    model.selected = Math.max(0, Math.min(count - 1, from + (pressed === "ArrowLeft" ? -1 : 1)));
    app.redraw();
  } else if (pressed === "Enter" || pressed === " ") {
    if (model.selected !== null) app.discard(model.selected);
  } else if (HAND_KEYS.includes(pressed) && HAND_KEYS.indexOf(pressed) < count) {
    const index = HAND_KEYS.indexOf(pressed);
    if (model.selected === index) app.discard(index);
    else {
      model.selected = index;
      app.redraw();
    }
  } else if (app.comforts.key(pressed)) {
    app.redraw();
  } else if (pressed === "w" && view.you) {
    model.showWaits = !model.showWaits;
    app.redraw();
  } else if (pressed === SEAT_TO_BOT_KEY && model.view && app.extras(model.view).seatToBot.length) {
    app.seatToBot(app.extras(model.view).seatToBot[0]);
  } else if (pressed === "Escape" && model.choices.byKey("x")) {
    app.act(model.choices.byKey("x") as Action);
  } else if (pressed.length === 1 && model.choices.byKey(pressed)) {
    app.act(model.choices.byKey(pressed) as Action);
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
}
