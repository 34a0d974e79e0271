// Tiles: ids 0-135, a tile's kind is id >> 2 (0-8 man, 9-17 pin, 18-26 sou, 27-30 the winds
// East South West North, 31-33 the dragons White Green Red); with red fives the ids 16, 52
// and 88 are the red ones.  Each tile is drawn as its picture over Front.svg (tiles/README.md
// says where the art comes from), and as its text (`5p`, `0p` for a red five, `Ea`) where the
// picture cannot load.

import { h } from "./dom";

export const RED_IDS = new Set([16, 52, 88]);
const SUITS = ["Man", "Pin", "Sou"];
const HONOUR_FILES = ["Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun"];
const HONOUR_TEXT = ["Ea", "So", "We", "No", "Wh", "Gr", "Rd"];
export const HONOUR_NAMES = ["East", "South", "West", "North", "White", "Green", "Red"];
export const WINDS = ["East", "South", "West", "North"];
const SUIT_NAMES = ["man", "pin", "sou"];

export function isRed(tile: number, redFives: boolean): boolean {
  return redFives && RED_IDS.has(tile);
}

/** A kind (0-33) as two characters: `5m`, `9s`, `Ea`, `Rd`. */
export function kindText(kind: number): string {
  return kind >= 27 ? HONOUR_TEXT[kind - 27] : `${(kind % 9) + 1}${"mps"[Math.floor(kind / 9)]}`;
}

/** The tile as text, `0p` for a red five. */
export function tileText(tile: number, redFives: boolean): string {
  return isRed(tile, redFives) ? `0${"mps"[Math.floor(tile / 36)]}` : kindText(tile >> 2);
}

/** A kind in words, for screen readers and tooltips. */
export function kindName(kind: number): string {
  return kind >= 27 ? HONOUR_NAMES[kind - 27] : `${(kind % 9) + 1} ${SUIT_NAMES[Math.floor(kind / 9)]}`;
}

function picture(kind: number, red: boolean): string {
  if (kind >= 27) return `/tiles/${HONOUR_FILES[kind - 27]}.svg`;
  const n = (kind % 9) + 1;
  return `/tiles/${SUITS[Math.floor(kind / 9)]}${n}${red ? "-Dora" : ""}.svg`;
}

function suitClass(kind: number): string {
  return kind >= 27 ? "honour" : SUIT_NAMES[Math.floor(kind / 9)];
}

/** Pictures that did not load: their tiles are drawn as text from then on. */
const failed = new Set<string>();

function fallBack(this: HTMLImageElement): void {
  failed.add(this.getAttribute("src") ?? "");
  this.parentElement?.classList.add("text");
  this.remove();
}

/** The tile's picture in `el`, or its text where the picture cannot load. */
function addPicture(el: HTMLElement, src: string, text: string): HTMLElement {
  if (failed.has(src)) {
    el.classList.add("text");
    return el;
  }
  const img = h("img", { src, alt: text, draggable: "false" }) as HTMLImageElement;
  img.addEventListener("error", fallBack, { once: true });
  el.append(img);
  return el;
}

export interface TileOptions {
  red?: boolean; // the table plays with red fives
  classes?: string[];
}

/** One face-up tile: `data-tile` is its id, `data-face` its text (tests read both). */
export function tileElement(tile: number, options: TileOptions = {}): HTMLElement {
  const kind = tile >> 2;
  const red = isRed(tile, options.red ?? false);
  const text = tileText(tile, options.red ?? false);
  const el = h("span", {
    class: ["tile", suitClass(kind), red ? "red" : "", ...(options.classes ?? [])].join(" "),
    "data-tile": String(tile), "data-face": text, title: red ? `red ${kindName(kind)}` : kindName(kind),
  }, h("span", { class: "face-text" }, text));
  return addPicture(el, picture(kind, red), text);
}

/** A kind (a wait, a dora) as a face-up tile without an id. */
export function kindElement(kind: number, classes: string[] = []): HTMLElement {
  const text = kindText(kind);
  const el = h("span", { class: ["tile", suitClass(kind), ...classes].join(" "), "data-face": text,
    title: kindName(kind) }, h("span", { class: "face-text" }, text));
  return addPicture(el, picture(kind, false), text);
}

/** A tile face down: nothing in it says which tile it is. */
export function backElement(classes: string[] = []): HTMLElement {
  return h("span", { class: ["tile", "back", ...classes].join(" "), title: "a concealed tile" });
}

/** The dora a tile (id) indicates: the next of its suit, wind or dragon, round the end. */
export function doraKind(indicator: number): number {
  const kind = indicator >> 2;
  if (kind < 27) return kind - (kind % 9) + (((kind % 9) + 1) % 9);
  if (kind < 31) return 27 + ((kind - 27 + 1) % 4);
  return 31 + ((kind - 31 + 1) % 3);
}
