// The table: the four seats around the middle (ponds with the riichi discard turned and
// called tiles marked, melds with where each called tile came from, scores, riichi, who is
// away), the round's information in the middle (round, counters, sticks, dora indicators,
// tiles left, whose turn, the last events), and our hand with the drawn tile apart.  Each
// part is drawn again only when what it shows has changed.

import { append, Child, fill, h } from "./dom";
import { Choices } from "./offers";
import { redFivesOf, View } from "./seat_state";
import { seatName } from "./player_links";
import { backElement, doraKind, kindElement, tileElement, WINDS } from "./tiles";
import { CallMeld, Phase } from "./protocol_names";

export const HAND_KEYS = "1234567890-=[]";
const POSITIONS = ["bottom", "right", "top", "left"] as const; // seen from the seat at the bottom
const POND_ROW = 6;
const POT_DRAWN = 5; // sticks drawn in the pot; more are counted
const ROUND_WINDS: Record<string, string> = { E: "East", S: "South", W: "West", N: "North" };

export interface Extras {
  choices: Choices;
  riichiMode: boolean;
  selected: number | null; // index in the hand's order
  myClock: string; // our time left while we hold an offer ("" otherwise)
  turnClock: string; // the seat to play's estimated time left (another seat's)
  away: Set<number>; // seats whose player is disconnected or left
  programs: Set<number>; // seats played by a program (a server bot or a client that said so)
  log: Child[][];
  showWaits: boolean;
  decision: number | null; // the open offer's decision id
  seatToBot: number[]; // the seats of away players we (the host) may hand to a bot
  open?: OpenHands; // a finished game's replay: every seat's concealed tiles, face up
  players?: Array<string | null>; // each seat's player id (its name links to the player's page)
}

/** Every seat's concealed tiles (a drawn tile included) and drawn tile: the replay's. */
export interface OpenHands { hands: number[][]; drawn: Array<number | null> }

/** The host's key for handing an away player's seat to a bot (riichi-play's too). */
export const SEAT_TO_BOT_KEY = "B";

export function redFives(view: View): boolean {
  return redFivesOf(view.rules, view.overrides);
}

export function seatWind(view: View, seat: number): string {
  return WINDS[(seat - view.dealer + 4) % 4];
}

export function roundText(view: View): string {
  const name = String(view.round);
  return `${ROUND_WINDS[name.charAt(0)] ?? name.charAt(0)} ${name.slice(1)}`;
}

/** The seat is known to be deciding: its turn after a draw or a call (nobody is told who may
 * call a discard). */
export function toPlay(view: View, seat: number): boolean {
  return view.phase === Phase.TURN && view.turn === seat && !view.final;
}

/** Our hand sorted, with the drawn tile last (shown apart). */
export function handOrder(view: View): number[] {
  const you = view.you;
  if (!you) return [];
  const hand = you.hand.slice().sort((a, b) => a - b);
  if (you.drawn !== null && hand.includes(you.drawn)) {
    hand.splice(hand.indexOf(you.drawn), 1);
    hand.push(you.drawn);
  }
  return hand;
}

/** Parts of the page drawn only when their signature changes. */
class Part {
  private sig = "";

  constructor(readonly el: HTMLElement) {}

  draw(sig: string, build: () => Child[]): void {
    if (sig === this.sig) return;
    this.sig = sig;
    fill(this.el, ...build());
  }
}

interface SeatParts { box: HTMLElement; head: Part; concealed: Part; melds: Part; pond: Part }

export class Board {
  readonly root: HTMLElement;
  private seats: SeatParts[] = [];
  private center: Part;
  private hand: Part;
  private myMelds: Part;
  private actions: Part;
  private waitsLine: Part;
  private awayLine: Part;
  private bottom = 0; // the seat drawn at the bottom (ours, or seat 0 for a spectator)
  onTile: (index: number, pointer: string) => void = () => undefined;
  onAction: (index: number) => void = () => undefined;
  onWaits: () => void = () => undefined;
  onSeatToBot: (seat: number) => void = () => undefined;
  private pointer = "mouse";

  constructor(root: HTMLElement) {
    this.root = root;
    const board = h("div", { class: "board", id: "board" });
    for (const pos of POSITIONS) {
      const parts = {
        box: h("div", { class: `seat pos-${pos}`, "data-pos": pos }),
        head: new Part(h("div", { class: "seat-head" })),
        concealed: new Part(h("div", { class: "concealed" })),
        melds: new Part(h("div", { class: "melds" })),
        pond: new Part(h("div", { class: "pond" })),
      };
      parts.box.append(parts.head.el, parts.concealed.el, parts.pond.el, parts.melds.el);
      this.seats.push(parts);
      board.append(parts.box);
    }
    this.center = new Part(h("div", { class: "center", id: "center" }));
    board.append(this.center.el);
    this.myMelds = new Part(h("div", { class: "melds", id: "my-melds" }));
    this.hand = new Part(h("div", { class: "hand", id: "hand", role: "group", "aria-label": "your hand" }));
    this.actions = new Part(h("div", { class: "actions", id: "actions" }));
    this.waitsLine = new Part(h("div", { class: "waits-line", id: "waits" }));
    this.awayLine = new Part(h("div", { class: "away-line", id: "seat-to-bot" }));
    const me = h("div", { class: "me", id: "me" }, this.hand.el, this.myMelds.el);
    root.replaceChildren(board, me, this.actions.el, this.waitsLine.el, this.awayLine.el);
    // a touch chooses a tile with a first tap and discards it with a second; a mouse click discards
    root.addEventListener("pointerdown", (event) => { this.pointer = event.pointerType || "mouse"; }, true);
  }

  draw(view: View, x: Extras): void {
    const me = view.you ? view.you.seat : null;
    this.bottom = me ?? 0;
    const red = redFives(view);
    this.root.classList.toggle("watching", me === null);
    for (let i = 0; i < 4; i += 1) this.drawSeat(view, (this.bottom + i) % 4, this.seats[i], x, red, me);
    this.drawCenter(view, x, red);
    this.drawHand(view, x, red);
    this.drawActions(view, x);
    this.drawWaits(view, x);
    this.drawSeatToBot(view, x);
  }

  /** Only the clocks (every tick). */
  drawClocks(view: View, x: Extras): void {
    for (let i = 0; i < 4; i += 1) {
      const seat = (this.bottom + i) % 4;
      const clock = this.seats[i].head.el.querySelector(".turn");
      if (clock) clock.textContent = this.turnText(view, seat, x);
    }
    const mine = this.actions.el.querySelector(".my-clock");
    if (mine) mine.textContent = x.myClock;
  }

  private turnText(view: View, seat: number, x: Extras): string {
    const me = view.you ? view.you.seat : null;
    if (seat === me && x.myClock) return `▶ ${x.myClock}`;
    if (toPlay(view, seat)) return seat === me ? "▶ your turn" : `▶ ${x.turnClock || "to play"}`;
    return "";
  }

  private drawSeat(view: View, seat: number, parts: SeatParts, x: Extras, red: boolean, me: number | null): void {
    const sp = view.seats[seat];
    const playing = toPlay(view, seat) || (seat === me && x.myClock !== "");
    parts.box.classList.toggle("to-play", playing);
    parts.box.dataset.seat = String(seat);
    const wind = seatWind(view, seat);
    const player = x.players?.[seat] ?? null;
    const head = [seat, wind, view.names[seat], player, view.scores[seat], sp.riichi, x.away.has(seat),
      x.programs.has(seat), seat === view.dealer, seat === me, playing];
    parts.head.draw(JSON.stringify(head), () => [
      h("span", { class: seat === view.dealer ? "wind dealer" : "wind", title: `${wind}${seat === view.dealer
        ? " (dealer)" : ""}` }, wind.charAt(0)),
      seatName(view.names[seat], player, seat === me ? "name you" : "name"),
      x.programs.has(seat) ? h("span", { class: "badge bot", title: "played by a program" }, "bot") : null,
      h("span", { class: "score" }, view.scores[seat]),
      sp.riichi ? h("span", { class: "badge riichi" }, "riichi") : null,
      sp.riichi ? stickElement("riichi-stick", `${view.names[seat]}'s riichi stick`) : null,
      x.away.has(seat) ? h("span", { class: "badge away", title: "disconnected: the server plays for this seat" },
        "away") : null,
      h("span", { class: "turn" }, this.turnText(view, seat, x)),
    ]);
    if (x.open) {
      const hand = x.open.hands[seat];
      const drawn = x.open.drawn[seat];
      parts.concealed.draw(JSON.stringify([hand, drawn]), () => openHand(hand, drawn, red));
    } else {
      const size = seat === me ? 0 : view.hand_sizes[seat];
      parts.concealed.draw(String(size), () => Array.from({ length: size }, () => backElement(["small"])));
    }
    const meldsHere = seat === me ? [] : sp.melds;
    parts.melds.draw(JSON.stringify([meldsHere, view.dealer]), () => meldsHere.map((m) => meldElement(view, seat, m,
      red)));
    if (seat === me) this.myMelds.draw(JSON.stringify([sp.melds, view.dealer]), () => sp.melds.map((m) =>
      meldElement(view, seat, m, red)));
    const last = view.last_discard !== null && view.turn === seat && view.phase !== Phase.TURN
      ? sp.discards.length - 1 : -1;
    parts.pond.draw(JSON.stringify([sp.discards, sp.claimed, sp.riichi_index, last]), () => pond(view, seat, red, last));
  }

  private drawCenter(view: View, x: Extras, red: boolean): void {
    const turn = view.final ? "the game is over" : view.phase === Phase.TURN
      ? `turn: ${view.you && view.turn === view.you.seat ? "you" : view.names[view.turn]}`
      : view.phase === Phase.CALLS ? `${view.names[view.turn]} discarded` : `${view.names[view.turn]} declared a kong`;
    const sig = JSON.stringify([view.round, view.honba, view.sticks, view.dora_indicators, view.tiles_left, turn,
      x.log.length, x.log.map((line) => line.map((c) => (c instanceof Node ? c.textContent : c)).join(""))]);
    this.center.draw(sig, () => [
      h("div", { class: "round" }, roundText(view)),
      h("div", { class: "counters" }, `honba ${view.honba} · sticks ${view.sticks}`),
      view.sticks ? h("div", { class: "pot", title: `${view.sticks} riichi stick${view.sticks === 1 ? "" : "s"} on the`
        + " table" }, ...Array.from({ length: Math.min(view.sticks, POT_DRAWN) }, () => stickElement("pot-stick")),
      view.sticks > POT_DRAWN ? h("span", { class: "pot-count" }, `×${view.sticks}`) : null) : null,
      h("div", { class: "dora" }, h("span", { class: "label" }, "dora"),
        h("span", { class: "tiles" }, ...view.dora_indicators.map((t) => tileElement(t, { red, classes: ["small"] }))),
        h("span", { class: "label" }, "→"),
        h("span", { class: "tiles" }, ...view.dora_indicators.map((t) => kindElement(doraKind(t), ["small"])))),
      h("div", { class: "left" }, `tiles left ${view.tiles_left}`),
      h("div", { class: "turn-line" }, turn),
      h("ul", { class: "log" }, ...x.log.map((line) => {
        const li = h("li");
        append(li, line);
        return li;
      })),
    ]);
  }

  private drawHand(view: View, x: Extras, red: boolean): void {
    const you = view.you;
    if (!you) {
      this.hand.draw("", () => []);
      return;
    }
    const tiles = handOrder(view);
    const apart = you.drawn !== null;
    const discarding = x.choices.canDiscard;
    const allowed = tiles.map((t) => discarding && x.choices.discardFor(t, x.riichiMode) !== null);
    const sig = JSON.stringify([tiles, apart, allowed, x.selected, x.riichiMode, discarding]);
    this.hand.draw(sig, () => tiles.map((tile, i) => {
      const classes = ["hand-slot"];
      if (apart && i === tiles.length - 1) classes.push("drawn");
      if (discarding && !allowed[i]) classes.push("blocked");
      if (x.selected === i) classes.push("selected");
      const slot = h("button", { type: "button", class: classes.join(" "), "data-index": String(i),
        "aria-disabled": discarding && !allowed[i] ? "true" : undefined,
        "aria-keyshortcuts": i < HAND_KEYS.length ? HAND_KEYS[i] : undefined },
      tileElement(tile, { red, classes: ["big"] }),
      i < HAND_KEYS.length ? h("span", { class: "key-hint" }, HAND_KEYS[i]) : null);
      slot.addEventListener("click", () => this.onTile(i, this.pointer));
      return slot;
    }));
  }

  private drawActions(view: View, x: Extras): void {
    const c = x.choices;
    let prompt = "";
    if (x.riichiMode) prompt = "Riichi: choose the tile to discard (Riichi again to take it back)";
    else if (c.canDiscard) prompt = c.buttons.length ? "Your turn: discard a tile, or" : "Your turn: discard a tile";
    else if (c.buttons.length) prompt = "Call?";
    else if (view.you && !view.final) prompt = toPlay(view, view.you.seat) ? "Your turn…" : "";
    // what is asked of us, for the style and for the tests: discard, call, riichi or nothing
    this.actions.el.dataset.mode = x.riichiMode ? "riichi" : c.canDiscard ? "discard" : c.buttons.length ? "call" : "";
    this.actions.el.dataset.decision = x.decision === null ? "" : String(x.decision);
    const sig = JSON.stringify([prompt, c.buttons.map((b) => [b.key, b.label]), x.riichiMode, x.showWaits,
      view.you ? "seat" : "watch"]);
    this.actions.draw(sig, () => [
      h("span", { class: "prompt" }, prompt, " ", h("span", { class: "my-clock" }, x.myClock)),
      ...c.buttons.map((b, i) => {
        const el = h("button", { type: "button", class: `act act-${b.action.type.replace("_", "")}`
          + (b.action.type === "_riichi" && x.riichiMode ? " on" : ""), "data-key": b.key || undefined,
        "aria-keyshortcuts": b.key || undefined, "data-action": b.action.type }, b.label);
        if (b.key) el.append(" ", h("kbd", {}, b.key));
        el.addEventListener("click", () => this.onAction(i));
        return el;
      }),
      view.you ? (() => {
        const el = h("button", { type: "button", class: "act act-waits" + (x.showWaits ? " on" : ""),
          "data-key": "w", "aria-keyshortcuts": "w" }, "Waits", " ", h("kbd", {}, "w"));
        el.addEventListener("click", () => this.onWaits());
        return el;
      })() : null,
    ]);
  }

  private drawWaits(view: View, x: Extras): void {
    const you = view.you;
    const show = you && (x.showWaits || (you.waits.length > 0 && !view.final)); // by themselves while tenpai
    const sig = show ? JSON.stringify([you.waits, you.furiten]) : "";
    this.waitsLine.el.hidden = !show;
    this.waitsLine.draw(sig, () => {
      if (!show) return [];
      if (!you.waits.length) return [h("span", { class: "dim" }, "waits: not tenpai")];
      return [h("span", {}, "waits: "), ...you.waits.map((k) => kindElement(k, ["small"])),
        you.furiten ? h("span", { class: "badge furiten" }, "furiten (no ron)") : null];
    });
  }

  /** The host's offer to hand each away player's seat to a bot (the server allows it once the
   * clock's `absence` has passed, and says how long otherwise). */
  private drawSeatToBot(view: View, x: Extras): void {
    const seats = x.seatToBot;
    this.awayLine.el.hidden = !seats.length;
    this.awayLine.draw(JSON.stringify(seats.map((seat) => [seat, view.names[seat]])), () => seats.map((seat, i) => {
      const el = h("button", { type: "button", class: "act act-seat-to-bot", "data-seat": String(seat),
        "data-key": i === 0 ? SEAT_TO_BOT_KEY : undefined, "aria-keyshortcuts": i === 0 ? SEAT_TO_BOT_KEY : undefined },
      "Seat a bot");
      if (i === 0) el.append(" ", h("kbd", {}, SEAT_TO_BOT_KEY));
      el.addEventListener("click", () => this.onSeatToBot(seat));
      return h("span", { class: "away-offer" }, h("span", { class: "name" }, view.names[seat]), " is away: ", el);
    }));
  }
}

/** A seat's concealed tiles face up, sorted, its drawn tile apart at the end (a replay's). */
function openHand(hand: number[], drawn: number | null, red: boolean): HTMLElement[] {
  const tiles = hand.slice().sort((a, b) => a - b);
  const apart = drawn !== null && tiles.includes(drawn) ? drawn : null;
  if (apart !== null) tiles.splice(tiles.indexOf(apart), 1);
  const shown = tiles.map((t) => tileElement(t, { red, classes: ["small"] }));
  if (apart !== null) shown.push(tileElement(apart, { red, classes: ["small", "drawn"] }));
  return shown;
}

/** A 1,000-point stick (a riichi's deposit), drawn by app.css. */
function stickElement(cls: string, title = "a riichi stick"): HTMLElement {
  return h("span", { class: `stick ${cls}`, title, role: "img", "aria-label": title });
}

/** A seat's discards, rows of six: the riichi discard turned, called tiles marked. */
function pond(view: View, seat: number, red: boolean, last: number): Child[] {
  const sp = view.seats[seat];
  const claimed = new Set(sp.claimed);
  const rows: HTMLElement[] = [];
  sp.discards.forEach((tile, i) => {
    if (i % POND_ROW === 0) rows.push(h("div", { class: "pond-row" }));
    const classes = ["small"];
    if (i === sp.riichi_index) classes.push("sideways", "riichi-tile");
    if (claimed.has(i)) classes.push("called");
    if (i === last) classes.push("last");
    if (sp.tsumogiri[i]) classes.push("tsumogiri");
    rows[rows.length - 1].append(tileElement(tile, { red, classes }));
  });
  return rows;
}

const MELD_NAMES: Record<string, string> = { [CallMeld.CHI]: "chi", [CallMeld.PON]: "pon", [CallMeld.KAN]: "kong",
  [CallMeld.ANKAN]: "concealed kong", [CallMeld.KAKAN]: "added kong" };

/** A meld, the called tile turned and placed as the table shows where it came from (left:
 * the player before, middle: across, right: the player after), with a caption saying whom. */
export function meldElement(view: View, seat: number, meld: { kind: string; tiles: number[]; called: number | null;
  from: number | null }, red: boolean): HTMLElement {
  const el = h("span", { class: `meld meld-${meld.kind}`, "data-kind": meld.kind });
  const tiles = meld.tiles.slice();
  if (meld.kind === CallMeld.ANKAN) {
    tiles.forEach((t, i) => el.append(i === 0 || i === 3 ? backElement(["small", "ankan-back"])
      : tileElement(t, { red, classes: ["small"] })));
    // the two turned over are public too (the call showed them): their ids stay out of sight only
  } else {
    const called = meld.called;
    const rest = tiles.filter((t) => t !== called);
    const relative = meld.from === null ? 0 : (meld.from - seat + 4) % 4; // 3: before us, 2: across, 1: after
    const at = relative === 3 ? 0 : relative === 2 ? 1 : rest.length;
    const order: Array<[number, boolean]> = rest.map((t) => [t, false]);
    if (called !== null) order.splice(Math.min(at, order.length), 0, [called, true]);
    for (const [t, turned] of order) el.append(tileElement(t, { red, classes: turned ? ["small", "sideways",
      "called-in"] : ["small"] }));
  }
  const from = meld.from === null ? "" : ` from ${seatWind(view, meld.from)}`;
  el.append(h("span", { class: "meld-caption" }, `${MELD_NAMES[meld.kind] ?? meld.kind}${from}`));
  return el;
}
