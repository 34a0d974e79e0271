// The replay viewer: a finished game's document (GET /api/games/ID/replay) or a dropped Tenhou
// log's (web/src/replay_page.ts sends it), drawn hand by hand and step by step.  The table is
// the spectator's: each step's event, in its spectator form, goes into a SeatState as a live
// spectator's does (web/src/seat_state.ts) and the same Board draws it (web/src/table.ts), with
// the step's four concealed hands laid open over it (the document carries them:
// server/replay_document.py).  Keys: ←/→ a step, ↑/↓ or PageUp/PageDown a hand, Home/End the
// hand's first and last step.

import { byId, Child, fill, h } from "./dom";
import { eventLine } from "./log";
import { Choices } from "./offers";
import { HandResult } from "./protocol_names";
import { resultBody, standingsBody } from "./results";
import { Ev, redFivesOf, SeatState, View } from "./seat_state";
import { Board, Extras, OpenHands, roundText } from "./table";
import { tileElement } from "./tiles";

export interface ReplayStep extends OpenHands { event: Ev }

export interface ReplayHand {
  round: string;
  honba: number;
  dealer: number;
  hand_number: number;
  result: Ev | null;
  dora: number[];
  ura: number[];
  steps: ReplayStep[];
}

export interface ReplayDoc {
  format: string;
  names: string[];
  rules: string;
  start: Ev;
  hands: ReplayHand[];
  final: Ev | null;
  players?: Array<string | null>; // each seat's player id (a game of this server's: its names link to their pages)
  source?: string; // a dropped log's kind (mjlog, tenhou6)
  note?: string; // where a dropped log's replay stopped early
}

const LOG_LINES = 5; // the last events said in the middle of the table, as a live table says them
const HASH = /^#hand-(\d+)-step-(\d+)$/; // the address of a step (kept in the address bar)
const ADDRESS_DELAY_MS = 300;

const KEYS: Record<string, (v: ReplayViewer) => void> = {
  ArrowRight: (v) => v.go(v.hand, v.step + 1), ArrowLeft: (v) => v.go(v.hand, v.step - 1),
  ArrowDown: (v) => v.go(v.hand + 1, 0), PageDown: (v) => v.go(v.hand + 1, 0),
  ArrowUp: (v) => v.go(v.hand - 1, 0), PageUp: (v) => v.go(v.hand - 1, 0),
  Home: (v) => v.go(v.hand, 0), End: (v) => v.go(v.hand, Infinity),
};

/** A hand's result in a few words, for the table of contents. */
export function resultLine(result: Ev | null, names: string[]): string {
  if (result === null) return "not finished";
  if (result.type === HandResult.WIN) {
    return (result.wins as Ev[]).map((w) => `${names[w.seat]} ${w.tsumo ? "tsumo" : "ron"} ${w.points}`).join(", ");
  }
  if (result.type === HandResult.EXHAUSTIVE_DRAW) return "exhaustive draw";
  return `abortive draw (${String(result.reason ?? "").replace(/_/g, " ")})`;
}

function plainExtras(open: OpenHands, log: Child[][], players: Array<string | null> | undefined): Extras {
  return { choices: new Choices(), riichiMode: false, selected: null, myClock: "", turnClock: "", away: new Set(),
    programs: new Set(), log, showWaits: false, decision: null, seatToBot: [], open, players };
}

export class ReplayViewer {
  doc: ReplayDoc | null = null;
  hand = 0;
  step = 0;
  private board: Board;
  private red = false;
  private addressTimer: number | null = null;

  constructor(private root: HTMLElement) {
    this.board = new Board(byId("replay-board"));
    this.controls();
  }

  load(doc: ReplayDoc, title: string): void {
    this.doc = doc;
    this.red = redFivesOf(doc.rules, doc.start.overrides as Record<string, unknown> | undefined);
    byId("replay-title").textContent = title;
    byId("replay-note").textContent = doc.note ?? "";
    byId("replay-note").hidden = !doc.note;
    const standings = byId("replay-standings");
    fill(standings, ...(doc.final ? [h("h2", {}, "Final standings"), standingsBody(doc.final, doc.names)] : []));
    this.toc();
    this.root.hidden = false;
    const at = HASH.exec(location.hash);
    this.go(at ? Number(at[1]) - 1 : 0, at ? Number(at[2]) - 1 : 0);
    performance.mark("replay-drawn"); // the first step on the screen (scripts/replay_bench.py reads it)
  }

  /** To step `step` of hand `hand` (each kept within the game: Infinity is the hand's last step). */
  go(hand: number, step: number): void {
    const doc = this.doc;
    if (doc === null || doc.hands.length === 0) return;
    this.hand = Math.max(0, Math.min(doc.hands.length - 1, hand));
    const steps = doc.hands[this.hand].steps;
    this.step = Math.max(0, Math.min(steps.length - 1, step));
    this.draw();
  }

  /** The viewer's keys; true if the key was one of them. */
  key(event: KeyboardEvent): boolean {
    const move = KEYS[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey || this.doc === null) return false;
    move(this);
    return true;
  }

  /** The spectator's view of the game at the current step, from the game's start and the
   * hand's steps, and the log of its last events. */
  position(): { view: View; log: Child[][] } {
    const doc = this.doc as ReplayDoc;
    const state = new SeatState(null);
    state.apply(doc.start);
    const hand = doc.hands[this.hand];
    let log: Child[][] = [];
    for (let i = 0; i <= this.step; i += 1) {
      state.apply(hand.steps[i].event);
      const line = this.step - i < LOG_LINES * 3 ? eventLine(hand.steps[i].event, state.view as View) : null;
      if (line) log = [...log, line].slice(-LOG_LINES);
    }
    const view = state.view as View;
    if (this.step === 0) view.turn = hand.dealer; // dealt: the dealer draws first (a live table's next event)
    const lastOfGame = this.hand === doc.hands.length - 1 && this.step === hand.steps.length - 1;
    if (lastOfGame && doc.final) state.apply(doc.final);
    return { view, log };
  }

  private draw(): void {
    const doc = this.doc as ReplayDoc;
    const hand = doc.hands[this.hand];
    const step = hand.steps[this.step];
    const { view, log } = this.position();
    this.board.draw(view, plainExtras(step, log, doc.players));
    const atEnd = this.step === hand.steps.length - 1;
    Object.assign(this.root.dataset, { hand: String(this.hand), step: String(this.step),
      steps: String(hand.steps.length) });
    byId("replay-position").textContent = `${roundText({ round: hand.round } as View)}, honba ${hand.honba} · hand`
      + ` ${this.hand + 1} of ${doc.hands.length} · step ${this.step + 1} of ${hand.steps.length}`;
    this.wall(view, hand, atEnd);
    const result = byId("replay-result");
    result.hidden = !(atEnd && hand.result);
    fill(result, ...(atEnd && hand.result ? [resultBody(hand.result, doc.names, this.red)] : []));
    byId("replay-toc").querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === this.hand));
    this.keepAddress();
  }

  /** The step's address into the address bar, once the steps stop for a moment (Chromium
   * ignores more than 100 address changes in 10 s, and a key held down makes many more). */
  private keepAddress(): void {
    if (this.addressTimer !== null) window.clearTimeout(this.addressTimer);
    this.addressTimer = window.setTimeout(() => {
      this.addressTimer = null;
      history.replaceState(null, "", `#hand-${this.hand + 1}-step-${this.step + 1}`);
    }, ADDRESS_DELAY_MS);
  }

  /** The dead wall's dora indicators shown so far, and the ura indicators once the hand has ended. */
  private wall(view: View, hand: ReplayHand, atEnd: boolean): void {
    const shown = (tiles: number[]): Child => h("span", { class: "tiles" },
      ...tiles.map((t) => tileElement(t, { red: this.red, classes: ["small"] })));
    fill(byId("replay-wall"), h("span", { class: "label" }, "dora indicators "),
      h("span", { id: "replay-dora" }, shown(view.dora_indicators)),
      h("span", { class: "label" }, " · ura "),
      h("span", { id: "replay-ura" }, atEnd ? shown(hand.ura) : h("span", { class: "dim" }, "(at the hand's end)")));
  }

  private toc(): void {
    const doc = this.doc as ReplayDoc;
    fill(byId("replay-toc"), h("h2", {}, "Hands"), h("ol", {}, ...doc.hands.map((hand, i) => {
      const link = h("button", { type: "button", class: "toc-hand", "data-hand": String(i) },
        h("span", { class: "toc-round" }, `${hand.round}-${hand.honba}`), " ",
        h("span", { class: "toc-result" }, resultLine(hand.result, doc.names)));
      link.addEventListener("click", () => this.go(i, 0));
      return h("li", {}, link);
    })));
  }

  private controls(): void {
    const buttons: Array<[string, string, string, () => void]> = [
      ["replay-prev-hand", "⇤ Hand", "PageUp", () => this.go(this.hand - 1, 0)],
      ["replay-prev", "← Step", "ArrowLeft", () => this.go(this.hand, this.step - 1)],
      ["replay-next", "Step →", "ArrowRight", () => this.go(this.hand, this.step + 1)],
      ["replay-next-hand", "Hand ⇥", "PageDown", () => this.go(this.hand + 1, 0)],
      ["replay-hand-end", "Hand's end", "End", () => this.go(this.hand, Infinity)],
    ];
    fill(byId("replay-controls"), ...buttons.map(([id, label, key, action]) => {
      const el = h("button", { type: "button", id, "aria-keyshortcuts": key, title: key }, label);
      el.addEventListener("click", action);
      return el;
    }), h("span", { id: "replay-position", class: "dim" }));
  }
}
