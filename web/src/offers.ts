// An offer's legal actions sorted for the player, as riichi-play sorts them
// (client_cli/play/offers.py): the tiles that may be discarded (plain and with riichi) and
// the other actions as buttons, each with its key and a label.

import { kindText, tileText } from "./tiles";
import { ActionType } from "./protocol_names";

export type Action = { type: string; tile?: number; riichi?: boolean; tiles?: number[]; kind?: number };

export interface ActionButton { key: string; label: string; action: Action }

// keys per action group, in the order the variants come (at most 5 chi variants: red fives)
const KEYS: Record<string, string> = { [ActionType.TSUMO]: "t", [ActionType.RON]: "r",
  [ActionType.NINE_TERMINALS]: "n", [ActionType.PASS]: "x", [ActionType.CHI]: "cvbmz", [ActionType.PON]: "po",
  kong: "kjl" };
const ORDER: Record<string, number> = { [ActionType.TSUMO]: 0, [ActionType.RON]: 0, [ActionType.PON]: 2,
  [ActionType.DAIMINKAN]: 3, [ActionType.ANKAN]: 3, [ActionType.KAKAN]: 3, [ActionType.CHI]: 4,
  [ActionType.NINE_TERMINALS]: 5, [ActionType.PASS]: 9 };
export const RIICHI: Action = { type: "_riichi" };

export class Choices {
  discards = new Map<number, Action>(); // tile -> its plain discard
  riichi = new Map<number, Action>(); // tile -> its riichi discard
  buttons: ActionButton[] = [];

  constructor(readonly red: boolean = false) {}

  private face(tile: number): number {
    return (tile >> 2) * 2 + (this.red && [16, 52, 88].includes(tile) ? 1 : 0);
  }

  /** The discard of `tile` if its face is offered: the server offers one tile per face and
   * takes any tile of that face, so the tile the player chose is the one discarded. */
  discardFor(tile: number, riichi = false): Action | null {
    for (const [other, action] of riichi ? this.riichi : this.discards) {
      if (this.face(other) === this.face(tile)) return { ...action, tile };
    }
    return null;
  }

  get canDiscard(): boolean {
    return this.discards.size > 0 || this.riichi.size > 0;
  }

  byKey(key: string): Action | null {
    return this.buttons.find((b) => b.key === key)?.action ?? null;
  }
}

export function label(action: Action, red = false): string {
  const kind = action.type;
  if (kind === ActionType.CHI || kind === ActionType.PON) {
    const tiles = (action.tiles ?? []).map((t) => tileText(t, red)).join(" ");
    return `${kind === ActionType.CHI ? "Chi" : "Pon"} ${tiles}`;
  }
  if (kind === ActionType.DAIMINKAN) return "Kong";
  if (kind === ActionType.ANKAN) return `Kong ${kindText(action.kind ?? 0)} (concealed)`;
  if (kind === ActionType.KAKAN) return `Kong ${tileText(action.tile ?? 0, red)} (added)`;
  if (kind === ActionType.NINE_TERMINALS) return "Nine terminals (abort)";
  if (kind === "_riichi") return "Riichi";
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

export function choices(actions: Action[], red = false): Choices {
  const out = new Choices(red);
  const used = new Map<string, number>();
  for (const action of actions) {
    const kind = action.type;
    if (kind === ActionType.DISCARD) {
      (action.riichi ? out.riichi : out.discards).set(action.tile as number, action);
      continue;
    }
    const group = kind === ActionType.DAIMINKAN || kind === ActionType.ANKAN || kind === ActionType.KAKAN ? "kong"
      : kind;
    const keys = KEYS[group] ?? "";
    const n = used.get(group) ?? 0;
    used.set(group, n + 1);
    out.buttons.push({ key: n < keys.length ? keys[n] : "", label: label(action, red), action });
  }
  out.buttons.sort((a, b) => (ORDER[a.action.type] ?? 6) - (ORDER[b.action.type] ?? 6));
  if (out.riichi.size) out.buttons.unshift({ key: "i", label: "Riichi", action: RIICHI });
  return out;
}
