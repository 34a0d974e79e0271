// The comforts a player switches on or off at the table, as Tenhou and Mahjong Soul have
// them: no calls (every chi, pon and kong offer passed; a ron never), auto-win (every tsumo and
// ron taken), discard drawn (out of riichi, the drawn tile discarded when only discards are
// offered), and sound.  They act in the page alone (the server never knows), are shown as
// toggles under the table (a click or their key), and are kept per browser (localStorage).

import { fill, h } from "./dom";
import { Action, Choices } from "./offers";
import { ActionType } from "./protocol_names";

export type Comfort = "noCalls" | "autoWin" | "discardDrawn" | "sound";

interface ComfortInfo { label: string; key: string; title: string }

export const COMFORTS: Record<Comfort, ComfortInfo> = {
  noCalls: { label: "No calls", key: "s", title: "pass every chi, pon and kong offered (never a ron)" },
  autoWin: { label: "Auto-win", key: "a", title: "take every tsumo and ron offered" },
  discardDrawn: { label: "Discard drawn", key: "d",
    title: "discard the drawn tile when nothing but a discard is offered" },
  sound: { label: "Sound", key: "q", title: "a sound for your turn, calls and wins" },
};
const ORDER: Comfort[] = ["noCalls", "autoWin", "discardDrawn", "sound"];
const STORE_KEY = "riichi.comforts";
const CALLS = new Set<string>([ActionType.CHI, ActionType.PON, ActionType.DAIMINKAN, ActionType.ANKAN,
  ActionType.KAKAN]);
const WINS = new Set<string>([ActionType.TSUMO, ActionType.RON]);

export type Settings = Record<Comfort, boolean>;

function load(): Settings {
  const off: Settings = { noCalls: false, autoWin: false, discardDrawn: false, sound: false };
  try {
    const kept = JSON.parse(localStorage.getItem(STORE_KEY) ?? "{}") as Record<string, unknown>;
    for (const name of ORDER) if (typeof kept[name] === "boolean") off[name] = kept[name] as boolean;
  } catch {
    // nothing kept, or not readable: all off (the first visit)
  }
  return off;
}

/** Who answered: a comfort, or "riichi" (a turn in riichi that offers nothing but the drawn
 * tile's discard: there is nothing to choose, so it is played whatever is switched on). */
export interface AutoAnswer { action: Action; by: Comfort | "riichi" }

/** The answer the comforts give to an offer by themselves, and which one gives it (null: the
 * player answers).  `drawn`: our drawn tile, if we hold one (none after a call, none in a call
 * window). */
export function autoAnswer(actions: Action[], choices: Choices, drawn: number | null, on: Settings): AutoAnswer | null {
  if (actions.length === 1 && actions[0].type === ActionType.DISCARD && !actions[0].riichi && drawn !== null) {
    const only = choices.discardFor(drawn);
    if (only !== null) return { action: only, by: "riichi" };
  }
  if (on.autoWin) {
    const win = actions.find((a) => WINS.has(a.type));
    if (win) return { action: win, by: "autoWin" };
  }
  const discards = actions.filter((a) => a.type === ActionType.DISCARD);
  const others = actions.filter((a) => a.type !== ActionType.DISCARD && !(on.noCalls && CALLS.has(a.type)));
  if (discards.length === 0) { // a call window: pass it if it offers only calls (never a ron)
    const pass = actions.find((a) => a.type === ActionType.PASS);
    const calls = actions.some((a) => CALLS.has(a.type));
    return on.noCalls && pass && calls && others.every((a) => a.type === ActionType.PASS)
      ? { action: pass, by: "noCalls" } : null;
  }
  // our turn: with no calls, a kong offered beside the discards is no reason to stop
  if (!on.discardDrawn || drawn === null || others.length || discards.some((a) => a.riichi)) return null;
  const discard = choices.discardFor(drawn);
  return discard === null ? null : { action: discard, by: "discardDrawn" };
}

export class Comforts {
  settings: Settings = load();
  onChange: (name: Comfort, on: boolean) => void = () => undefined;

  constructor(private bar: HTMLElement) {
    this.draw();
  }

  /** A comfort answered an offer: counted on the bar (`data-answered-NAME`, which the tests read). */
  answered(name: Comfort | "riichi"): void {
    const attribute = `data-answered-${name.toLowerCase()}`;
    this.bar.setAttribute(attribute, String(Number(this.bar.getAttribute(attribute) ?? 0) + 1));
  }

  on(name: Comfort): boolean {
    return this.settings[name];
  }

  toggle(name: Comfort): void {
    this.settings[name] = !this.settings[name];
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(this.settings));
    } catch {
      // storage full or refused: the toggle still holds for this page
    }
    this.draw();
    this.onChange(name, this.settings[name]);
  }

  /** A key of the table: true if it was a comfort's (and it was switched). */
  key(key: string): boolean {
    const name = ORDER.find((n) => COMFORTS[n].key === key);
    if (name === undefined) return false;
    this.toggle(name);
    return true;
  }

  private draw(): void {
    fill(this.bar, ...ORDER.map((name) => {
      const info = COMFORTS[name];
      const on = this.settings[name];
      const el = h("button", { type: "button", class: `comfort${on ? " on" : ""}`, "data-comfort": name,
        "aria-pressed": on ? "true" : "false", "aria-keyshortcuts": info.key, title: info.title },
      h("span", { class: "light", "aria-hidden": "true" }), info.label, " ", h("span", { class: "state" },
        on ? "on" : "off"), " ", h("kbd", {}, info.key));
      el.addEventListener("click", () => this.toggle(name));
      return el;
    }));
  }
}
