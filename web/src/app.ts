// The page: it reads server messages from `Connection` (which reconnects by itself) and hands
// each to its handler (web/src/handlers.ts), keeps the game in the table model (model.ts),
// draws it with the view (view.ts, table.ts), and turns clicks, taps and keys (input.ts) into
// `act` messages, as riichi-play does in a terminal.  Where it starts is routes.ts's.

import { AutoAnswer, Comforts } from "./comforts";
import { byId } from "./dom";
import { Connection, LinkState, Msg, Resume } from "./connection";
import * as players from "./player";
import { playerPage } from "./player_links";
import { FinalScreen } from "./final";
import { handle } from "./handlers";
import { key, wireForms } from "./input";
import { TableModel } from "./model";
import { Action, RIICHI } from "./offers";
import { MessageType, TableState } from "./protocol_names";
import { intentFor, keptFor, LinkKind, route, start } from "./routes";
import * as seats from "./seats";
import { Dump, SeatState, View } from "./seat_state";
import { Sounds } from "./sounds";
import { Extras, handOrder } from "./table";
import { PageView } from "./view";

const ANSWER_WAIT_MS = 60;

export class App {
  conn: Connection | null = null;
  model = new TableModel();
  page = new PageView();
  codes: string[] = [];
  fallback: Msg[] | "prompt" | null = null; // a link's join or watch (or its name prompt) if no kept seat resumes
  trying: seats.SavedSeat | null = null; // the kept seat being resumed
  others: seats.SavedSeat[] = []; // more kept seats to try (another tab may hold the first)
  keepTimer: number | null = null;
  drawPending = false;
  measurePending = false; // our answer's event is drawn next: time it
  answerTimer: number | null = null; // drawing the answered offer if its event is late
  comforts: Comforts;
  sounds = new Sounds();
  final: FinalScreen;
  wantedName: string | null = null; // a name typed in a form: the player's from the next welcome

  constructor() {
    const board = this.page.board;
    board.onTile = (i, pointer) => this.tileChosen(i, pointer);
    board.onAction = (i) => { const b = this.model.choices.buttons[i]; if (b) this.act(b.action); };
    board.onWaits = () => { this.model.showWaits = !this.model.showWaits; this.redraw(); };
    board.onSeatToBot = (seat) => this.seatToBot(seat);
    const dialogs = this.page.dialogs;
    dialogs.onResultsRead = () => { this.send({ type: MessageType.RESULT_CLOSED }); }; // the next hand waits for it
    byId("result").addEventListener("close", () => this.autoPlay()); // what a comfort held while it was open
    dialogs.onFinalClosed = () => this.final.closed();
    this.final = new FinalScreen(byId("final-bar"), { lobby: () => this.toLobby(), rematch: () => this.rematch() });
    this.comforts = new Comforts(byId("comforts"));
    this.sounds.enabled = this.comforts.on("sound");
    this.comforts.onChange = (name, on) => {
      if (name === "sound") this.sounds.set(on);
      else this.autoPlay(); // switched on while asked: it answers at once
    };
    wireForms(this);
    document.addEventListener("keydown", (event) => key(this, event));
    window.addEventListener("pagehide", () => this.keepGame(true));
    document.addEventListener("visibilitychange", () => this.retitle());
    window.setInterval(() => this.tick(), 250);
  }

  // ---- starting and resuming ----------------------------------------------------------

  start(): void {
    seats.prune();
    players.takeKeyFromLink();
    const known = players.knownPlayer();
    this.ownPage(known); // as the last welcome said: asked again below
    const name = known?.name ?? seats.savedName();
    (byId<HTMLInputElement>("name")).value = name;
    (byId<HTMLInputElement>("link-name")).value = name;
    const where = start(route(), seats.tabSeat());
    if (where.to === "resume") {
      this.others = where.others;
      this.resume(where.seat, where.fallback);
    } else if (where.to === "prompt") {
      this.prompt();
    } else if (where.to === "watch") {
      this.byLink("watch", where.code, name || "spectator");
    } else {
      this.page.show("lobby");
      this.askPlayer(null);
    }
  }

  /** What a form asks of the server, after a rename when a name other than the player's was typed. */
  named(intent: Msg[]): Msg[] {
    const known = players.knownPlayer();
    const wanted = this.wantedName;
    this.wantedName = null;
    return wanted !== null && known !== null && known.name !== wanted
      ? [{ type: MessageType.RENAME, name: wanted }, ...intent] : intent;
  }

  /** Who this browser's player is (`rename`: rename it first), asked on a connection of its own
   * that closes once answered: the lobby shows the name, or why the server refuses the key. */
  askPlayer(rename: string | null): void {
    const ask: Connection = new Connection(rename ?? (seats.savedName() || "player"), seats.clientId(), {
      message: (m) => {
        if (m.type === MessageType.WELCOME && m.player) this.playerKnown(m.player);
        if (m.type === MessageType.PLAYER) this.playerKnown({ id: m.id, name: m.name });
        if (m.type === MessageType.ERROR) this.page.notice(m.message);
        if (m.type !== MessageType.WELCOME || rename === null) ask.close();
      },
      link: () => undefined,
    });
    ask.open(rename === null ? [] : [{ type: MessageType.RENAME, name: rename }]);
  }

  /** The player as the server says it is now: shown in the lobby and the join prompt. */
  playerKnown(player: players.Player): void {
    players.rememberPlayer(player);
    (byId<HTMLInputElement>("name")).value = player.name;
    (byId<HTMLInputElement>("link-name")).value = player.name;
    byId("player-said").textContent = `You play as ${player.name}.`;
    this.ownPage(player);
  }

  /** The lobby's link to the player's own page, once the player's id is known. */
  ownPage(player: players.Player | null): void {
    const link = byId<HTMLAnchorElement>("own-page");
    link.hidden = player === null;
    if (player !== null) link.href = playerPage(player.id);
  }

  prompt(): void {
    this.page.show("join");
    byId("link-name").focus();
  }

  /** Open a link: back to a seat this browser kept for the code (not another tab's), else a new one. */
  byLink(kind: LinkKind, code: string, name: string): void {
    this.codes = [code];
    this.model.watching = kind === "watch";
    const intent = this.named(intentFor(kind, code));
    const kept = keptFor(kind, code);
    if (kept.length) {
      this.others = kept.slice(1);
      this.resume(kept[0], intent);
      return;
    }
    this.connect(name, null, intent);
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
      else this.page.show("lobby");
      return;
    }
    this.codes = fallback.filter((msg) => typeof msg.code === "string").map((msg) => msg.code); // (not a rename's)
    if (session) fallback.forEach((msg) => this.send(msg));
    else this.conn?.helloAgain(null, fallback);
  }

  resume(entry: seats.SavedSeat, fallback: Msg[] | "prompt" | null): void {
    this.trying = entry;
    this.codes = entry.codes;
    this.model.watching = entry.seat === null;
    this.fallback = fallback;
    this.page.status("reconnecting to your seat…", "down");
    // The game as this tab had drawn it (a reload): resumed from its seq, only what was missed
    // is sent.  Without it (a tab opened again) the server sends a snapshot.
    const kept = seats.tabGame(entry.table, entry.seat);
    let since: number | null = null;
    if (kept) {
      this.model.state = SeatState.restore(kept.state as Dump);
      since = kept.since;
      this.page.show("table");
      this.redraw();
    }
    this.connect(seats.savedName() || "player", { token: entry.token, since }, []);
  }

  connect(name: string, resume: Resume | null, intent: Msg[]): void {
    this.conn?.close();
    const conn = new Connection(name, seats.clientId(), {
      message: (m) => { if (this.conn === conn) handle(this, m); },
      link: (state, text) => { if (this.conn === conn) this.linkChanged(state, text); },
    }, resume);
    this.conn = conn;
    conn.open(intent);
  }

  linkChanged(state: LinkState, text: string): void {
    if (state === "ended" && this.model.view?.final) text = "the game is over";
    this.page.status(text, state);
    if (state === "down" || state === "gone") this.clearOffer(); // the server sends the open offer again
    if (state === "gone") this.page.notice(`${text}. Keep this page open: it comes back by itself.`);
    if (state === "up") this.page.notice("");
  }

  leave(): void {
    this.send({ type: MessageType.LEAVE });
    seats.forgetTab();
    this.conn?.close();
    this.conn = null;
    this.model.table = null;
    history.replaceState(null, "", "/");
    this.page.show("lobby");
  }

  // ---- keeping the seat and the game for a reload ---------------------------------------

  saveSeat(): void {
    const t = this.model.table;
    const conn = this.conn;
    if (!t || !conn || !conn.token || (t.state !== TableState.WAITING && t.state !== TableState.PLAYING)) return;
    const seat = t.you ?? null;
    if (seat === null && !this.model.watching) return;
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
    const t = this.model.table;
    const since = this.conn?.since;
    const state = this.model.state;
    if (!t || !state?.view || since === null || since === undefined || t.state !== TableState.PLAYING) return;
    seats.saveGame({ table: t.table, seat: this.model.watching ? null : t.you, since, state: state.dump() });
  }

  // ---- the game's end ---------------------------------------------------------------

  /** The final screen's Rematch: on the connection the game was played on, or (if it has
   * closed since) on a new one with the same resume token, which the server knows held a seat. */
  rematch(): void {
    const game = this.final.game;
    if (game === null) return;
    const message: Msg = { type: MessageType.REMATCH, game };
    this.model.watching = false;
    this.codes = this.model.rematchInvite ? [this.model.rematchInvite] : [];
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
    this.model.table = null;
    this.leaveFinal();
    this.page.notice("");
    this.page.show("lobby");
  }

  /** Nothing of the game that ended stays: its dialogs, its table, its way forward. */
  leaveFinal(): void {
    this.final.reset(); // first: closing the final dialog then puts nothing back under the table
    while (this.page.dialogs.isOpen) this.page.dialogs.close();
    this.model.forgetGame();
    this.page.status("", "info");
    this.retitle();
    history.replaceState(null, "", "/");
  }

  // ---- drawing -----------------------------------------------------------------------

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
    const view = this.model.view;
    this.page.watchingBanner(this.model.watching);
    if (!view) return;
    this.page.drawGame(view, this.extras(view), this.conn?.since);
    if (this.measurePending) {
      this.measurePending = false;
      performance.measure("decision", "act"); // from our answer to the event it caused, drawn
      performance.clearMarks("act");
    }
    this.page.yourTurn(this.model.offer ? this.model.clockText() : null);
  }

  extras(view: View): Extras {
    return this.model.extras(view, this.automatic() !== null);
  }

  tick(): void {
    this.page.sessionClock(this.page.screen === "table" ? this.model.sessionText() : "");
    const view = this.model.view;
    if (!view || this.page.screen !== "table") return;
    if (this.model.offer !== null && this.autoPlay()) return; // a result closed since the offer came
    if (this.model.offerDeadline !== null || this.model.table?.clock) {
      this.page.board.drawClocks(view, this.extras(view));
    }
    if (this.model.offer) this.page.yourTurn(this.model.clockText());
  }

  retitle(): void {
    this.page.retitle(this.model.offer !== null);
  }

  // ---- answering ----------------------------------------------------------------------

  /** What a comfort answers to the open offer by itself (web/src/comforts.ts), if anything. */
  automatic(): AutoAnswer | null {
    return this.model.automatic(this.comforts.settings);
  }

  /** Answer the open offer if a comfort does, but not under an open result: the player, who
   * cannot play under it, would not see what the page played (tick tries again). */
  autoPlay(): boolean {
    const auto = this.page.dialogs.isOpen ? null : this.automatic();
    if (auto === null || this.model.offer === null) return false;
    this.model.autoDecision = this.model.offer.decision;
    this.comforts.answered(auto.by);
    this.act(auto.action);
    return true;
  }

  clearOffer(): void {
    if (this.model.offer === null) return;
    this.model.clearOffer();
    this.retitle();
  }

  send(message: Msg): boolean {
    if (this.conn && this.conn.send(message)) return true;
    this.page.notice("Not connected: that was not sent. The page reconnects by itself; try again then.");
    return false;
  }

  act(action: Action): void {
    const model = this.model;
    if (action.type === RIICHI.type) {
      model.riichiMode = !model.riichiMode;
      this.redraw();
      return;
    }
    if (model.offer === null) return;
    const message = { type: MessageType.ACT, decision: model.offer.decision, action };
    performance.clearMarks("act");
    performance.mark("act");
    if (!this.send(message)) return;
    model.answered = model.offer;
    this.clearOffer();
    // Not drawn now: the event this answer causes comes back within a millisecond or two and
    // is drawn with it.  Drawing here (or at the next frame, which comes first) kept the page
    // busy for 5-15 ms before it could read that event, and drew the table twice.
    this.answerTimer = window.setTimeout(() => { this.answerTimer = null; this.scheduleRedraw(); }, ANSWER_WAIT_MS);
  }

  /** Host only: hand an away player's seat to a bot (`add_bot` with the seat, as riichi-play's
   * key B); the server refuses it until the player has been away for the clock's `absence`. */
  seatToBot(seat: number): void {
    const name = this.model.view?.names[seat] ?? `seat ${seat}`;
    if (this.send({ type: MessageType.ADD_BOT, seat })) this.page.notice(`Asked for a bot in ${name}'s seat.`, "info");
  }

  /** A tile of the hand was clicked or tapped: a mouse discards it, a touch first chooses it. */
  tileChosen(index: number, pointer: string): void {
    if (pointer !== "mouse" && this.model.selected !== index) {
      this.model.selected = index;
      this.redraw();
      return;
    }
    this.model.selected = index;
    this.discard(index);
  }

  discard(index: number): void {
    const model = this.model;
    const view = model.view;
    if (!view || !model.offer || !model.choices.canDiscard) {
      this.redraw();
      return;
    }
    const tile = handOrder(view)[index];
    const action = tile === undefined ? null : model.choices.discardFor(tile, model.riichiMode);
    if (action === null) {
      this.page.notice(model.riichiMode ? "That tile cannot be discarded with riichi."
        : "That tile cannot be discarded now.", "info");
      return;
    }
    this.page.notice("");
    this.act(action);
  }
}
