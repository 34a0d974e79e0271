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

const HAKU = 31; // the white dragon: a blank face, outlined by app.css so it is not taken for a missing picture

function suitClass(kind: number): string {
  return kind === HAKU ? "honour haku" : kind >= 27 ? "honour" : SUIT_NAMES[Math.floor(kind / 9)];
}

/** Pictures that did not load: their tiles are drawn as text from then on. */
const failed = new Set<string>();
/** Each picture drawn once into a bitmap (see prepareTileBacks), once it has been used. */
const bitmaps = new Map<string, string>();
const drawing = new Set<string>();
const FACE_SIZE = [90, 120];

function fallBack(this: HTMLImageElement): void {
  failed.add(this.dataset.src ?? "");
  this.parentElement?.classList.add("text");
  this.remove();
}

/** The tile's picture in `el`, or its text where the picture cannot load. */
function addPicture(el: HTMLElement, src: string, text: string): HTMLElement {
  if (failed.has(src)) {
    el.classList.add("text");
    return el;
  }
  const img = h("img", { src: bitmaps.get(src) ?? src, alt: text, draggable: "false", "data-src": src }) as
    HTMLImageElement;
  img.addEventListener("error", fallBack, { once: true });
  el.append(img);
  if (!bitmaps.has(src) && !drawing.has(src)) {
    drawing.add(src);
    rasterize(src, FACE_SIZE[0] * scale(), FACE_SIZE[1] * scale()).then((url) => bitmaps.set(src, url),
      () => undefined);
  }
  return el;
}

function scale(): number {
  return Math.min(3, Math.max(1, Math.round(window.devicePixelRatio || 1)));
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

/** The tile's front and back are drawn once into bitmaps, which every tile then shows (and so
 * is each face, once it has been used): as SVGs, the front and back are blurred masks, and
 * painting the SVGs anew for each of some 150 tiles kept a page at a game of bots (a
 * spectator's) from keeping up.  Until they are ready, and where they cannot load, a tile is
 * a plain cream card (app.css). */
export function prepareTileBacks(): void {
  for (const [name, property] of [["Front", "--tile-front"], ["Back", "--tile-back"]]) {
    rasterize(`/tiles/${name}.svg`, FACE_SIZE[0] * scale(), FACE_SIZE[1] * scale()).then((url) => {
      document.documentElement.style.setProperty(property, `url("${url}")`);
    }, () => undefined);
  }
}

async function rasterize(src: string, width: number, height: number): Promise<string> {
  const image = new Image();
  image.src = src;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (context === null) throw new Error("no canvas");
  context.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done));
  if (blob === null) throw new Error("no bitmap");
  return URL.createObjectURL(blob);
}

/** The dora a tile (id) indicates: the next of its suit, wind or dragon, round the end. */
export function doraKind(indicator: number): number {
  const kind = indicator >> 2;
  if (kind < 27) return kind - (kind % 9) + (((kind % 9) + 1) % 9);
  if (kind < 31) return 27 + ((kind - 27 + 1) % 4);
  return 31 + ((kind - 31 + 1) % 3);
}
