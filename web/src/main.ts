// The page: `/` the lobby (create a table, join or watch with a code), `/join/CODE` asks for a
// name and takes a seat, `/watch/CODE` watches.  It reads server messages from `Connection`
// (which reconnects by itself), keeps the game in a `SeatState`, draws it with `Board`, and
// turns clicks, taps and keys into `act` messages, as riichi-play does in a terminal.

import { autoAnswer, AutoAnswer, Comforts } from "./comforts";
import { byId, Child, fill, h } from "./dom";
import { Connection, LinkState, Msg, Resume } from "./connection";
import { FinalScreen } from "./final";
import { eventLine } from "./log";
import { Action, Choices, choices, label, RIICHI } from "./offers";
import { resultBody, ResultDialogs, standingsBody } from "./results";
import * as seats from "./seats";
import { Dump, SeatState, View } from "./seat_state";
import { Sounds } from "./sounds";
import { Board, Extras, HAND_KEYS, handOrder, redFives, roundText, SEAT_TO_BOT_KEY, toPlay } from "./table";
import { prepareTileBacks, WINDS } from "./tiles";

type Screen = "lobby" | "join" | "waiting" | "table";
const CODE = /^\/(join|watch)\/([A-Za-z0-9_-]{1,64})\/?$/;
const LOG_LINES = 5;
const TITLE = "riichi mahjong";
const YOUR_TURN_TITLE = "Your turn · riichi mahjong";
const ANSWER_WAIT_MS = 60;
const NO_CHOICES = new Choices(); // an answer's event drawn by then, or the table without the offer

function codeFrom(text: string): string {
  const trimmed = text.trim();
  const match = /\/(?:join|watch)\/([A-Za-z0-9_-]+)\/?$/.exec(trimmed);
  return match ? match[1] : trimmed;
}

function link(kind: "join" | "watch", code: string): string {
  return `${location.protocol}//${location.host}/${kind}/${code}`;
}

class App {
  conn: Connection | null = null;
  table: Msg | null = null;
  state: SeatState | null = null;
  offer: Msg | null = null;
  answered: Msg | null = null; // the offer last answered, until the game moves on
  offerDeadline: number | null = null;
  choices = new Choices();
  riichiMode = false;
  selected: number | null = null;
  showWaits = false;
  watching = false;
  codes: string[] = [];
  fallback: Msg[] | "prompt" | null = null; // a link's join or watch (or its name prompt) if no kept seat resumes
  trying: seats.SavedSeat | null = null; // the kept seat being resumed
  others: seats.SavedSeat[] = []; // more kept seats to try (another tab may hold the first)
  turnSeat: number | null = null;
  turnStarted = 0;
  log: Child[][] = [];
  board: Board;
  dialogs: ResultDialogs;
  screen: Screen = "lobby";
  keepTimer: number | null = null;
  drawPending = false;
  measurePending = false; // our answer's event is drawn next: time it
  answerTimer: number | null = null; // drawing the answered offer if its event is late
  comforts: Comforts;
  sounds = new Sounds();
  final: FinalScreen;
  rematchInvite: string | null = null; // the rematch another player of the game asked for
  autoDecision: number | null = null; // the decision a comfort answered last (refused: the player answers it)

  constructor() {
    this.board = new Board(byId("board-root"));
    this.board.onTile = (i, pointer) => this.tileChosen(i, pointer);
    this.board.onAction = (i) => { const b = this.choices.buttons[i]; if (b) this.act(b.action); };
    this.board.onWaits = () => { this.showWaits = !this.showWaits; this.redraw(); };
    this.board.onSeatToBot = (seat) => this.seatToBot(seat);
    this.dialogs = new ResultDialogs(byId<HTMLDialogElement>("result"));
    this.dialogs.onResultsRead = () => { this.send({ type: "result_closed" }); }; // the next hand waits for it
    byId("result").addEventListener("close", () => this.autoPlay()); // what a comfort held while it was open
    this.dialogs.onFinalClosed = () => this.final.closed();
    this.final = new FinalScreen(byId("final-bar"), { lobby: () => this.toLobby(), rematch: () => this.rematch() });
    this.comforts = new Comforts(byId("comforts"));
    this.sounds.enabled = this.comforts.on("sound");
    this.comforts.onChange = (name, on) => {
      if (name === "sound") this.sounds.set(on);
      else this.autoPlay(); // switched on while asked: it answers at once
    };
    this.wireForms();
    document.addEventListener("keydown", (event) => this.key(event));
    window.addEventListener("pagehide", () => this.keepGame(true));
    document.addEventListener("visibilitychange", () => this.retitle());
    window.setInterval(() => this.tick(), 250);
  }

  // ---- starting -----------------------------------------------------------------

  start(): void {
    seats.prune();
    const route = CODE.exec(location.pathname);
    const mine = seats.tabSeat();
    const name = seats.savedName();
    (byId<HTMLInputElement>("name")).value = name;
    (byId<HTMLInputElement>("link-name")).value = name;
    if (mine && (!route || mine.codes.includes(route[2]))) {
      this.resume(mine, route ? this.intentFor(route[1], route[2]) : null); // a reload: back to this tab's seat
      return;
    }
    if (route && route[1] === "join") {
      const kept = this.keptFor("join", route[2]);
      if (kept.length) { // a tab opened again on the link: its seat back, else the name prompt
        this.others = kept.slice(1);
        this.resume(kept[0], "prompt");
        return;
      }
      this.prompt();
      return;
    }
    if (route && route[1] === "watch") {
      this.byLink("watch", route[2], name || "spectator");
      return;
    }
    this.show("lobby");
  }

  intentFor(kind: string, code: string): Msg[] {
    return [{ type: kind === "join" ? "join" : "watch", code }];
  }

  prompt(): void {
    this.show("join");
    byId("link-name").focus();
  }

  /** The seats this browser kept for a code, the last saved first. */
  keptFor(kind: "join" | "watch", code: string): seats.SavedSeat[] {
    return seats.byCode(code).filter((e) => (e.seat === null) === (kind === "watch"))
      .sort((a, b) => b.saved - a.saved);
  }

  /** Open a link: back to a seat this browser kept for the code (not another tab's), else a new one. */
  byLink(kind: "join" | "watch", code: string, name: string): void {
    this.codes = [code];
    this.watching = kind === "watch";
    const kept = this.keptFor(kind, code);
    if (kept.length) {
      this.others = kept.slice(1);
      this.resume(kept[0], this.intentFor(kind, code));
      return;
    }
    this.connect(name, null, this.intentFor(kind, code));
  }

  /** The kept seat being tried does not resume: the next one, else the fallback.  `session`: the
   * connection already has a (new) session, after `seat_lost`; else it may say hello again. */
  nextKept(session: boolean): void {
    const next = this.others.shift();
    if (next) {
      if (session) {
        this.resume(next, this.fallback);
      } else {
        this.trying = next;
        this.codes = next.codes;
        this.conn?.helloAgain({ token: next.token, since: null }, []);
      }
      return;
    }
    const fallback = this.fallback;
    this.fallback = this.trying = null;
    if (fallback === null || fallback === "prompt") {
      this.conn?.close();
      this.conn = null;
      if (fallback === "prompt") this.prompt();
      else this.show("lobby");
      return;
    }
    this.codes = [fallback[0].code];
    if (session) fallback.forEach((msg) => this.send(msg));
    else this.conn?.helloAgain(null, fallback);
  }

  resume(entry: seats.SavedSeat, fallback: Msg[] | "prompt" | null): void {
    this.trying = entry;
    this.codes = entry.codes;
    this.watching = entry.seat === null;
    this.fallback = fallback;
    this.status("reconnecting to your seat…", "down");
    // The game as this tab had drawn it (a reload): resumed from its seq, only what was missed
    // is sent.  Without it (a tab opened again) the server sends a snapshot.
    const kept = seats.tabGame(entry.table, entry.seat);
    let since: number | null = null;
    if (kept) {
      this.state = SeatState.restore(kept.state as Dump);
      since = kept.since;
      this.show("table");
      this.redraw();
    }
    this.connect(seats.savedName() || "player", { token: entry.token, since }, []);
  }

  connect(name: string, resume: Resume | null, intent: Msg[]): void {
    this.conn?.close();
    const conn = new Connection(name, seats.clientId(), {
      message: (m) => { if (this.conn === conn) this.handle(m); },
      link: (state, text) => { if (this.conn === conn) this.linkChanged(state, text); },
    }, resume);
    this.conn = conn;
    conn.open(intent);
  }

  wireForms(): void {
    const nameOf = (id: string): string => {
      const name = (byId<HTMLInputElement>(id)).value.trim() || "player";
      seats.saveName(name);
      return name;
    };
    byId("create").addEventListener("submit", (event) => {
      event.preventDefault();
      const clock = (byId<HTMLSelectElement>("clock")).value;
      // a clock is "per_decision,bank" or "per_decision,bank,absence" in seconds
      const [perDecision, bank, absence] = clock.split(",").map(Number);
      const rounds = Number((byId<HTMLSelectElement>("length")).value);
      const create: Msg = { type: "create_table", rules: (byId<HTMLSelectElement>("rules")).value,
        ...(rounds === 1 ? { overrides: { rounds } } : {}),
        clock: clock === "none" ? { none: true } : { per_decision: perDecision, bank,
          ...(absence === undefined ? {} : { absence }) } };
      const bots = Number((byId<HTMLSelectElement>("bots")).value);
      const strategy = (byId<HTMLSelectElement>("bot-strategy")).value;
      this.watching = false;
      this.codes = [];
      this.connect(nameOf("name"), null, [create, ...Array.from({ length: bots }, () => ({ type: "add_bot", strategy }))]);
    });
    byId("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const code = codeFrom((byId<HTMLInputElement>("join-code")).value);
      if (code) this.byLink("join", code, nameOf("name"));
    });
    byId("watch-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const code = codeFrom((byId<HTMLInputElement>("watch-code")).value);
      if (code) this.byLink("watch", code, nameOf("name"));
    });
    byId("link-join").addEventListener("submit", (event) => {
      event.preventDefault();
      const route = CODE.exec(location.pathname);
      if (route) this.byLink("join", route[2], nameOf("link-name"));
    });
    byId("ready").addEventListener("click", () => this.send({ type: "ready" }));
    byId("add-bot").addEventListener("click", () => this.send({ type: "add_bot" }));
    byId("leave").addEventListener("click", () => this.leave());
    byId("copy-invite").addEventListener("click", () => copy("invite-link"));
    byId("copy-watch").addEventListener("click", () => copy("watch-link"));
  }

  leave(): void {
    this.send({ type: "leave" });
    seats.forgetTab();
    this.conn?.close();
    this.conn = null;
    this.table = null;
    history.replaceState(null, "", "/");
    this.show("lobby");
  }

  // ---- screens and lines --------------------------------------------------------------

  show(screen: Screen): void {
    this.screen = screen;
    for (const id of ["lobby", "join", "waiting", "table"]) byId(id).hidden = id !== screen;
    document.body.dataset.screen = screen;
  }

  status(text: string, state: LinkState | "error" | "info" = "info"): void {
    const el = byId("status");
    el.textContent = text;
    el.dataset.state = state;
  }

  /** A one-line notice under the bar (an error, or what became of the seat). */
  notice(text: string, kind: "error" | "info" = "error"): void {
    const el = byId("notice");
    el.textContent = text;
    el.dataset.kind = kind;
    el.hidden = text === "";
  }

  linkChanged(state: LinkState, text: string): void {
    if (state === "ended" && this.state?.view?.final) text = "the game is over";
    this.status(text, state);
    if (state === "down" || state === "gone") this.clearOffer(); // the server sends the open offer again
    if (state === "gone") this.notice(`${text}. Keep this page open: it comes back by itself.`);
    if (state === "up") this.notice("");
  }

  // ---- messages -------------------------------------------------------------------

  handle(m: Msg): void {
    switch (m.type) {
      case "welcome": return this.onWelcome(m);
      case "table": return this.onTable(m);
      case "snapshot": return this.onSnapshot(m);
      case "event": return this.onEvent(m);
      case "offer": return this.onOffer(m);
      case "timeout": return this.onTimeout(m);
      case "result": return this.onResult(m);
      case "left": return undefined;
      case "catchup":
        this.status(m.replay ? "back at the table: replaying what was missed" : "back at the table", "up");
        return undefined;
      case "error": return this.onError(m);
      case "bye": return this.onBye(m);
      case "rematch_offered": return this.onRematchOffered(m);
      default: return undefined;
    }
  }

  onWelcome(m: Msg): void {
    if (!m.resumed && this.trying === null) this.status(`connected as ${this.conn?.name ?? ""}`, "up");
  }

  saveSeat(): void {
    const t = this.table;
    const conn = this.conn;
    if (!t || !conn || !conn.token || (t.state !== "waiting" && t.state !== "playing")) return;
    const seat = t.you ?? null;
    if (seat === null && !this.watching) return;
    seats.save({ token: conn.token, table: t.table, seat, codes: this.codes, saved: Date.now() });
  }

  /** Keep the game as drawn, with its seq, for a reload (at most twice a second, and on leaving). */
  keepGame(now = false): void {
    if (!now) {
      if (this.keepTimer === null) this.keepTimer = window.setTimeout(() => this.keepGame(true), 500);
      return;
    }
    if (this.keepTimer !== null) window.clearTimeout(this.keepTimer);
    this.keepTimer = null;
    const t = this.table;
    const since = this.conn?.since;
    if (!t || !this.state?.view || since === null || since === undefined || t.state !== "playing") return;
    seats.saveGame({ table: t.table, seat: this.watching ? null : t.you, since, state: this.state.dump() });
  }

  onTable(m: Msg): void {
    if (this.final.game !== null) this.leaveFinal(); // the table of a rematch: the last game is over
    this.table = m;
    this.fallback = this.trying = null;
    this.others = [];
    if (m.invite) this.codes = [m.invite, m.watch];
    this.watching = m.you === null || m.you === undefined;
    if (m.state === "waiting" || m.state === "playing") this.saveSeat();
    if (m.state === "waiting") {
      this.showWaiting(m);
      this.show("waiting");
    } else if (m.state === "playing") {
      if (this.state === null) this.state = new SeatState(this.watching ? null : m.you);
      this.show("table");
      this.redraw();
    } else if (m.state === "closed") {
      seats.forgetTab();
      this.notice("The table has closed.", "info");
      if (!this.state?.view) this.show("lobby");
    }
  }

  onSnapshot(m: Msg): void {
    const view = m.view as View;
    const seat = view.you ? view.you.seat : null;
    if (this.state === null || this.state.seat !== seat) this.state = new SeatState(seat);
    this.state.loadSnapshot(view);
    this.saveSeat();
    this.show("table");
    this.keepGame();
    this.scheduleRedraw();
  }

  onEvent(m: Msg): void {
    const event = m.event as Msg;
    if (this.state === null) this.state = new SeatState(this.table && !this.watching ? this.table.you : null);
    this.state.apply(event);
    this.clearOffer();
    this.answered = null;
    const view = this.state.view;
    if (view) {
      const line = eventLine(event, view);
      if (event.type === "hand_start") this.log = []; // the log is about this hand
      if (line) this.log = [...this.log, line].slice(-LOG_LINES);
      if (event.type === "hand_start") this.selected = null;
      if (event.type === "draw" || event.type === "call" || event.type === "hand_start") {
        this.turnSeat = view.turn;
        this.turnStarted = performance.now();
      }
      if (event.type === "call") this.sounds.play("call");
      if (event.type === "hand_end") {
        if (event.result.type === "win") this.sounds.play("win");
        this.dialogs.show(`${roundText(view)}, honba ${view.honba}`, resultBody(event.result, view.names,
          redFives(view)));
      }
    }
    if (this.screen !== "table") this.show("table");
    if (performance.getEntriesByName("act", "mark").length) {
      performance.measure("decision-received", "act"); // our answer to the event it caused, received
      this.measurePending = true; // ... and drawn (the next frame)
    }
    this.keepGame();
    this.scheduleRedraw();
  }

  onOffer(m: Msg): void {
    this.offer = m;
    this.answered = null;
    this.offerDeadline = typeof m.deadline_ms === "number" ? performance.now() + m.deadline_ms : null;
    this.choices = choices(m.actions as Action[], this.state?.view ? redFives(this.state.view) : false);
    this.riichiMode = false;
    const order = this.state?.view ? handOrder(this.state.view) : [];
    const drawn = this.state?.view?.you?.drawn;
    if (this.choices.canDiscard && drawn !== null && drawn !== undefined) this.selected = order.indexOf(drawn);
    if (this.autoPlay()) return;
    if (this.automatic() === null) this.sounds.play("turn"); // (not for what the page plays once a result is closed)
    this.retitle();
    this.scheduleRedraw();
  }

  /** What a comfort answers to the open offer by itself (web/src/comforts.ts), if anything. */
  automatic(): AutoAnswer | null {
    const offer = this.offer;
    if (offer === null || offer.decision === this.autoDecision) return null; // (refused once: the player's)
    return autoAnswer(offer.actions as Action[], this.choices, this.state?.view?.you?.drawn ?? null,
      this.comforts.settings);
  }

  /** Answer the open offer if a comfort does, but not under an open result: the player, who
   * cannot play under it, would not see what the page played (tick tries again). */
  autoPlay(): boolean {
    const auto = this.dialogs.isOpen ? null : this.automatic();
    if (auto === null || this.offer === null) return false;
    this.autoDecision = this.offer.decision;
    this.comforts.answered(auto.by);
    this.act(auto.action);
    return true;
  }

  onTimeout(m: Msg): void {
    this.clearOffer();
    this.notice(`Your time ran out: the server played ${label(m.action as Action)} for you.`, "info");
    this.redraw();
  }

  onResult(m: Msg): void {
    seats.forgetTab();
    if (m.game === this.final.game) return; // sent again to a page that came back for the rematch
    const names: string[] = m.names ?? this.state?.view?.names ?? ["seat 0", "seat 1", "seat 2", "seat 3"];
    this.dialogs.show("Final standings", h("div", { class: "final-body" }, standingsBody(m.final, names, m.uma ?? null),
      this.final.ended(m.game, !this.watching)), true);
    this.status("the game is over", "info");
  }

  onRematchOffered(m: Msg): void {
    this.rematchInvite = m.invite;
    this.final.offered(m.game, m.by);
    if (this.final.game === m.game) this.notice(`${m.by} asked for a rematch: Rematch takes your seat at it.`, "info");
  }

  /** The final screen's Rematch: on the connection the game was played on, or (if it has
   * closed since) on a new one with the same resume token, which the server knows held a seat. */
  rematch(): void {
    const game = this.final.game;
    if (game === null) return;
    const message: Msg = { type: "rematch", game };
    this.watching = false;
    this.codes = this.rematchInvite ? [this.rematchInvite] : [];
    if (this.conn !== null && this.conn.connected) {
      this.conn.send(message);
      return;
    }
    const token = this.conn?.token ?? null;
    this.connect(seats.savedName() || "player", token === null ? null : { token, since: null }, [message]);
  }

  /** The final screen's Back to the lobby. */
  toLobby(): void {
    this.conn?.close();
    this.conn = null;
    this.table = null;
    this.leaveFinal();
    this.notice("");
    this.show("lobby");
  }

  /** Nothing of the game that ended stays: its dialogs, its table, its way forward. */
  leaveFinal(): void {
    this.final.reset(); // first: closing the final dialog then puts nothing back under the table
    while (this.dialogs.isOpen) this.dialogs.close();
    this.state = null;
    this.log = [];
    this.rematchInvite = null;
    this.status("", "info");
    this.autoDecision = null; // decision ids count from 1 again in the next game
    this.clearOffer();
    this.selected = null;
    this.turnSeat = null;
    history.replaceState(null, "", "/");
  }

  onError(m: Msg): void {
    const code = m.code as string;
    if (code === "seat_in_use" && this.trying !== null) {
      // the kept seat is another tab's (connected now): another kept seat, else a seat of its own
      if (this.fallback === null) this.notice("This seat is open in another tab or browser now.", "info");
      this.nextKept(false);
      return;
    }
    if (code === "seat_lost") {
      if (this.trying !== null) seats.forget(this.trying.table, this.trying.seat);
      if (this.fallback !== null) {
        this.nextKept(true);
        return;
      }
      this.trying = null;
      this.notice(`The server no longer holds your seat: ${m.message}`);
      this.show("lobby");
      return;
    }
    if (code === "no_table") {
      this.notice(`${m.message}: check the link, or ask the host for a new one.`);
      this.conn?.close();
      if (this.screen !== "table") this.show(CODE.exec(location.pathname)?.[1] === "join" ? "join" : "lobby");
      return;
    }
    if (code === "watch_code") {
      this.notice("That is a watch code, not an invite code: watch the table with it instead.");
      if (this.screen !== "table") this.show("lobby");
      return;
    }
    if (code === "illegal_action" && this.answered !== null && this.offer === null
        && m.decision === this.answered.decision) {
      this.onOffer(this.answered); // the server refused the answer and keeps the offer open: so do we
    }
    if (this.final.game !== null) this.final.refused(); // a rematch refused: it may be asked again
    this.notice(`${m.message} (${code})`);
  }

  onBye(m: Msg): void {
    const code = m.code as string;
    if (code === "server_restarting") {
      this.status(`${m.reason}: waiting for it to be back…`, "down");
      return;
    }
    if (code !== "replaced") seats.forgetTab();
    if (code === "game_over") return; // the result came first
    if (code === "replaced") this.notice("Another tab or device took this seat over.", "info");
    else if (code === "server_ended") this.notice("The server has ended, and its game with it.", "info");
    else this.notice(`The server says: ${m.reason}`, "info");
    if (!this.state?.view) this.show("lobby");
  }

  // ---- the waiting room --------------------------------------------------------------

  showWaiting(t: Msg): void {
    const you: number | null = t.you ?? null;
    const clock = t.clock ? `${t.clock.per_decision} s a decision + ${t.clock.bank} s bank` : "no clock";
    byId("waiting-title").textContent = this.watching ? "Watching a table" : "Your table";
    byId("waiting-rules").textContent = `rules ${t.rules} · ${clock} · waiting for four ready seats`;
    const rows = (t.seats as Array<Msg | null>).map((s, seat) => {
      if (s === null) return h("tr", { class: "free" }, h("td", {}, WINDS[seat]), h("td", { class: "dim" }, "(free)"));
      const kind = s.program ? "program" : s.kind;
      return h("tr", { class: seat === you ? "you" : "" }, h("td", {}, WINDS[seat]), h("td", { class: "name" }, s.name),
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
    byId("waiting-note").textContent = this.watching
      ? "You are watching: the game shows here when all four seats are ready (public events only)."
      : t.invite ? "" : "The host has the links; the game starts when all four seats are ready.";
    byId("ready").hidden = this.watching;
    byId("add-bot").hidden = !host || !(t.seats as Array<Msg | null>).some((s) => s === null);
    byId("leave").firstChild!.textContent = this.watching ? "Stop watching " : "Leave ";
  }

  // ---- the game ---------------------------------------------------------------------

  /** Draw once before the next frame is painted, however many messages came meanwhile (a burst
   * of bots' moves is drawn once); a tab in the background gets no frames, and a timer instead. */
  scheduleRedraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    const go = (): void => {
      if (this.drawPending) this.redraw();
    };
    requestAnimationFrame(go);
    window.setTimeout(go, 250);
  }

  redraw(): void {
    this.drawPending = false;
    if (this.answerTimer !== null) window.clearTimeout(this.answerTimer);
    this.answerTimer = null;
    const view = this.state?.view;
    byId("watching").hidden = !(this.watching && this.screen === "table");
    if (!view) return;
    this.board.draw(view, this.extras(view));
    this.board.root.dataset.seq = String(this.conn?.since ?? ""); // the last message drawn (the tests read it)
    if (this.measurePending) {
      this.measurePending = false;
      performance.measure("decision", "act"); // from our answer to the event it caused, drawn
      performance.clearMarks("act");
    }
    this.dialogs.turn(this.offer ? `Your turn${this.clockText() ? `, ${this.clockText()}` : ""}: close this to play`
      : "");
  }

  extras(view: View): Extras {
    const seatsInfo = (this.table?.seats ?? []) as Array<Msg | null>;
    const away = new Set<number>();
    const programs = new Set<number>();
    seatsInfo.forEach((s, i) => {
      if (s && s.kind === "human" && !s.connected) away.add(i);
      if (s && (s.kind === "bot" || s.program)) programs.add(i);
    });
    const you = this.table?.you;
    const hosting = !this.watching && typeof you === "number" && seatsInfo[you]?.host === true && !view.final;
    // an offer a comfort answers once the result over the table is closed: nothing to choose meanwhile
    const choices = this.automatic() !== null ? NO_CHOICES : this.choices;
    return { choices, riichiMode: this.riichiMode, selected: this.selected, myClock: this.clockText(),
      turnClock: this.turnClock(view), away, programs, log: this.log, showWaits: this.showWaits,
      decision: this.offer ? this.offer.decision : null, seatToBot: hosting ? [...away].sort() : [] };
  }

  /** Host only: hand an away player's seat to a bot (`add_bot` with the seat, as riichi-play's
   * key B); the server refuses it until the player has been away for the clock's `absence`. */
  seatToBot(seat: number): void {
    const name = this.state?.view?.names[seat] ?? `seat ${seat}`;
    if (this.send({ type: "add_bot", seat })) this.notice(`Asked for a bot in ${name}'s seat.`, "info");
  }

  clockText(): string {
    if (this.offerDeadline === null) return "";
    return `${Math.max(0, Math.ceil((this.offerDeadline - performance.now()) / 1000))} s`;
  }

  /** Another seat's clock, estimated from when its turn began (each seat is sent only its own). */
  turnClock(view: View): string {
    const clock = this.table?.clock;
    if (!clock || this.turnSeat === null || !toPlay(view, this.turnSeat)) return "";
    if (view.you && this.turnSeat === view.you.seat) return "";
    const left = clock.per_decision - Math.max(0, (performance.now() - this.turnStarted) / 1000);
    return left >= 0 ? `${Math.ceil(left)} s` : "on bank";
  }

  tick(): void {
    const view = this.state?.view;
    if (!view || this.screen !== "table") return;
    if (this.offer !== null && this.autoPlay()) return; // a result closed since the offer came
    if (this.offerDeadline !== null || this.table?.clock) this.board.drawClocks(view, this.extras(view));
    if (this.offer) this.dialogs.turn(`Your turn${this.clockText() ? `, ${this.clockText()}` : ""}: close this to play`);
  }

  /** The tab's title says it is our turn while the tab is in the background (where the table
   * cannot be seen).  Not in front: each new title costs the browser some milliseconds of its
   * own work (its tab strip and address bar), twice a decision, just as our answer goes out. */
  retitle(): void {
    const title = this.offer !== null && document.hidden ? YOUR_TURN_TITLE : TITLE;
    if (document.title !== title) document.title = title;
  }

  clearOffer(): void {
    if (this.offer === null) return;
    this.offer = null;
    this.retitle();
    this.offerDeadline = null;
    this.choices = new Choices();
    this.riichiMode = false;
  }

  send(message: Msg): boolean {
    if (this.conn && this.conn.send(message)) return true;
    this.notice("Not connected: that was not sent. The page reconnects by itself; try again then.");
    return false;
  }

  act(action: Action): void {
    if (action.type === RIICHI.type) {
      this.riichiMode = !this.riichiMode;
      this.redraw();
      return;
    }
    if (this.offer === null) return;
    const message = { type: "act", decision: this.offer.decision, action };
    performance.clearMarks("act");
    performance.mark("act");
    if (!this.send(message)) return;
    this.answered = this.offer;
    this.clearOffer();
    // Not drawn now: the event this answer causes comes back within a millisecond or two and
    // is drawn with it.  Drawing here (or at the next frame, which comes first) kept the page
    // busy for 5-15 ms before it could read that event, and drew the table twice.
    this.answerTimer = window.setTimeout(() => { this.answerTimer = null; this.scheduleRedraw(); }, ANSWER_WAIT_MS);
  }

  /** A tile of the hand was clicked or tapped: a mouse discards it, a touch first chooses it. */
  tileChosen(index: number, pointer: string): void {
    if (pointer !== "mouse" && this.selected !== index) {
      this.selected = index;
      this.redraw();
      return;
    }
    this.selected = index;
    this.discard(index);
  }

  discard(index: number): void {
    const view = this.state?.view;
    if (!view || !this.offer || !this.choices.canDiscard) {
      this.redraw();
      return;
    }
    const tile = handOrder(view)[index];
    const action = tile === undefined ? null : this.choices.discardFor(tile, this.riichiMode);
    if (action === null) {
      this.notice(this.riichiMode ? "That tile cannot be discarded with riichi." : "That tile cannot be discarded now.",
        "info");
      return;
    }
    this.notice("");
    this.act(action);
  }

  key(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (this.final.key(event.key)) { // the game's end: its way forward, dialog or not
      event.preventDefault();
      return;
    }
    if (this.dialogs.isOpen) return; // the dialog's button has Enter; Escape closes it
    if (this.screen === "waiting") {
      const id = { g: "ready", b: "add-bot", Escape: "leave" }[event.key];
      if (id && !byId(id).hidden) {
        event.preventDefault();
        byId(id).click();
      }
      return;
    }
    if (this.screen !== "table" || !this.state?.view) return;
    const view = this.state.view;
    const count = handOrder(view).length;
    const key = event.key;
    let handled = true;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const from = this.selected ?? (key === "ArrowLeft" ? count : -1);
      this.selected = Math.max(0, Math.min(count - 1, from + (key === "ArrowLeft" ? -1 : 1)));
      this.redraw();
    } else if (key === "Enter" || key === " ") {
      if (this.selected !== null) this.discard(this.selected);
    } else if (HAND_KEYS.includes(key) && HAND_KEYS.indexOf(key) < count) {
      const index = HAND_KEYS.indexOf(key);
      if (this.selected === index) this.discard(index);
      else {
        this.selected = index;
        this.redraw();
      }
    } else if (this.comforts.key(key)) {
      this.redraw();
    } else if (key === "w" && view.you) {
      this.showWaits = !this.showWaits;
      this.redraw();
    } else if (key === SEAT_TO_BOT_KEY && this.state.view && this.extras(this.state.view).seatToBot.length) {
      this.seatToBot(this.extras(this.state.view).seatToBot[0]);
    } else if (key === "Escape" && this.choices.byKey("x")) {
      this.act(this.choices.byKey("x") as Action);
    } else if (key.length === 1 && this.choices.byKey(key)) {
      this.act(this.choices.byKey(key) as Action);
    } else {
      handled = false;
    }
    if (handled) event.preventDefault();
  }
}

function copy(id: string): void {
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

prepareTileBacks();
new App().start();
