// A hand's result (each win's yaku, han, fu and points, the ura dora; or the draw) with
// everyone's change, and the final standings: each shown in a dialog over the table, one at
// a time and in the order they came (as riichi-play does).

import { Child, h } from "./dom";
import { Ev } from "./seat_state";
import { tileElement } from "./tiles";
import yakuNames from "../../protocol/yaku_names.json";
import { HandResult } from "./protocol_names";

/** The name a player reads for a yaku's key (protocol/yaku_names.json, riichi-play's too);
 * a key the table does not know is shown as itself, with spaces for its underscores. */
export function yakuName(key: string): string {
  const names = yakuNames as Record<string, string>;
  return (key.startsWith("_") ? undefined : names[key]) ?? key.replace(/_/g, " ");
}

function tiles(list: number[], red: boolean): HTMLElement {
  return h("span", { class: "tiles" }, ...list.map((t) => tileElement(t, { red, classes: ["small"] })));
}

function who(names: string[], seat: number | null | undefined): string {
  return seat === null || seat === undefined ? "-" : names[seat];
}

function win(w: Ev, names: string[], red: boolean): HTMLElement {
  const how = w.tsumo ? "tsumo" : `ron off ${who(names, w.from)}`;
  const rows: Child[] = (w.yaku as Array<[string, number]>).map(([name, han]) =>
    h("tr", {}, h("td", {}, yakuName(name)), h("td", { class: "num" }, `${han} han`)));
  if (w.dora) rows.push(h("tr", {}, h("td", {}, "Dora"), h("td", { class: "num" }, `${w.dora} han`)));
  const fu = w.yakuman ? "" : ` ${w.fu} fu`;
  const limit = w.limit ? ` ${w.limit}` : "";
  const sticks = w.sticks ? ` + ${w.sticks} riichi stick${w.sticks === 1 ? "" : "s"}` : "";
  return h("div", { class: "win" },
    h("p", { class: "headline" }, `${names[w.seat]} wins by ${how} on `, tileElement(w.tile, { red, classes: ["small"] })),
    h("div", { class: "win-hand" }, tiles(w.hand, red),
      ...((w.melds ?? []) as Array<{ kind: string; tiles: number[] }>).map((m) =>
        h("span", { class: "meld" }, tiles(m.tiles, red), h("span", { class: "meld-caption" }, m.kind)))),
    h("table", { class: "yaku" }, ...rows),
    h("p", { class: "points" }, `${w.han} han${fu}${limit}: ${w.points} points${sticks}`));
}

/** The body of one hand's result. */
export function resultBody(result: Ev, names: string[], red: boolean): HTMLElement {
  const body = h("div", { class: "result-body", "data-result": result.type });
  if (result.type === HandResult.WIN) {
    for (const w of result.wins) body.append(win(w, names, red));
    if (result.ura_indicators && result.ura_indicators.length) {
      body.append(h("p", { class: "ura" }, "ura dora indicators ", tiles(result.ura_indicators, red)));
    }
  } else if (result.type === HandResult.EXHAUSTIVE_DRAW) {
    const tenpai = (result.tenpai as number[]).map((s) => names[s]).join(", ") || "nobody";
    body.append(h("p", { class: "headline" }, `Exhaustive draw. Tenpai: ${tenpai}`));
    for (const [seat, hand] of Object.entries((result.hands ?? {}) as Record<string, number[]>)) {
      body.append(h("p", { class: "shown-hand" }, `${names[Number(seat)]}: `, tiles(hand, red)));
    }
    if (result.nagashi && result.nagashi.length) {
      body.append(h("p", {}, `nagashi mangan: ${(result.nagashi as number[]).map((s) => names[s]).join(", ")}`));
    }
  } else {
    body.append(h("p", { class: "headline" }, `Abortive draw: ${String(result.reason ?? "").replace(/_/g, " ")}`));
  }
  body.append(h("table", { class: "deltas" }, ...(result.deltas as number[]).map((delta, seat) =>
    h("tr", { class: delta > 0 ? "up" : delta < 0 ? "down" : "" }, h("td", {}, names[seat]),
      h("td", { class: "num" }, delta > 0 ? `+${delta}` : String(delta)),
      h("td", { class: "num" }, `→ ${result.scores[seat]}`)))));
  return body;
}

/** The final standings, labelled: place, player, points, uma (with the oka for first: what the
 * place adds, when the server says it) and the result (uma included), in thousands. */
export function standingsBody(final: Ev, names: string[], uma: number[] | null = null): HTMLElement {
  const order = [0, 1, 2, 3].sort((a, b) => final.places[a] - final.places[b]);
  const signed = (n: number): string => `${n > 0 ? "+" : ""}${Number(n).toFixed(1)}`;
  const head = h("tr", {}, h("th", { scope: "col" }, "place"), h("th", { scope: "col" }, "player"),
    h("th", { scope: "col", class: "num" }, "points"), uma ? h("th", { scope: "col", class: "num" }, "uma") : null,
    h("th", { scope: "col", class: "num" }, "result"));
  return h("table", { class: "standings" }, h("thead", {}, head), h("tbody", {}, ...order.map((seat, i) => h("tr", {},
    h("td", {}, `${i + 1}.`), h("td", {}, names[seat]), h("td", { class: "num" }, final.scores[seat]),
    uma ? h("td", { class: "num" }, signed(uma[seat])) : null,
    h("td", { class: "num" }, signed(final.results[seat]))))));
}

interface Shown { title: string; body: HTMLElement; final: boolean }

/** Results shown one at a time in the page's <dialog id="result">. */
export class ResultDialogs {
  private held: Shown[] = [];
  private open: Shown | null = null;
  onFinalClosed: () => void = () => undefined;
  onResultsRead: () => void = () => undefined; // the last hand result open or held is closed

  constructor(private dialog: HTMLDialogElement) {
    dialog.addEventListener("cancel", (event) => { // Escape: to the table, skipping held results
      event.preventDefault();
      this.held = this.held.filter((s) => s.final);
      this.close();
    });
  }

  get isOpen(): boolean {
    return this.open !== null;
  }

  show(title: string, body: HTMLElement, final = false): void {
    this.held.push({ title, body, final });
    if (this.open === null) this.next();
  }

  /** Say on the open result when it is our turn (the server waits for it, but only so long). */
  turn(text: string): void {
    const line = this.dialog.querySelector(".your-turn");
    if (line) line.textContent = text;
  }

  close(): void {
    const was = this.open;
    this.open = null;
    this.dialog.close();
    if (was && was.final) this.onFinalClosed();
    if (was && !was.final && !this.held.some((s) => !s.final)) this.onResultsRead();
    this.next();
  }

  private next(): void {
    const shown = this.held.shift();
    if (shown === undefined) return;
    this.open = shown;
    const more = this.held.filter((s) => !s.final).length;
    const go = h("button", { type: "button", class: "primary", id: "result-continue" },
      shown.final ? "Close" : more ? `Continue (${more} more)` : "Continue");
    go.addEventListener("click", () => this.close());
    this.dialog.replaceChildren(h("h2", {}, shown.title), shown.body, h("p", { class: "your-turn" }),
      h("div", { class: "buttons" }, go));
    this.dialog.dataset.kind = shown.final ? "final" : "hand";
    this.dialog.showModal();
    go.focus();
  }
}
