// Where a tab keeps its seat, in the browser's storage per server, table and seat, so that a
// reload (or a restart of the server) comes back to the same seat, and two tabs are two
// players, not one.  localStorage holds each seat's resume token (a tab closed and opened
// again on the link takes the seat back); sessionStorage (one per tab) says which entry is
// this tab's, holds this tab's client id (`hello.client`: the server lets the same client
// resume at once, PROTOCOL.md) and the game as the tab had drawn it with the last seq it
// saw, so that a reload resumes from that seq and is sent only what it missed.

const PREFIX = "riichi:v1:";
const TAB = "riichi:tab";
const CLIENT = "riichi:client";
const NAME = "riichi:name";
const GAME = "riichi:game";
const KEPT_MS = 3 * 24 * 3600 * 1000; // entries older than this are forgotten

export interface SavedSeat {
  token: string;
  table: string;
  seat: number | null; // null: watching
  codes: string[]; // the invite and watch codes this tab knows the table by
  saved: number;
}

function safely<T>(fn: () => T, otherwise: T): T {
  try {
    return fn();
  } catch {
    return otherwise; // storage switched off (a private window, a policy): nothing is kept
  }
}

function key(table: string, seat: number | null): string {
  return `${PREFIX}${location.host}|${table}|${seat === null ? "watch" : seat}`;
}

function read(k: string): SavedSeat | null {
  return safely(() => {
    const raw = localStorage.getItem(k);
    return raw === null ? null : (JSON.parse(raw) as SavedSeat);
  }, null);
}

/** This tab's client id: made once, kept for the tab's life (reloads included). */
export function clientId(): string {
  const known = safely(() => sessionStorage.getItem(CLIENT), null);
  if (known) return known;
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  safely(() => sessionStorage.setItem(CLIENT, id), undefined);
  return id;
}

/** The seat this tab held (before a reload), if it is still kept. */
export function tabSeat(): SavedSeat | null {
  const k = safely(() => sessionStorage.getItem(TAB), null);
  return k ? read(k) : null;
}

export function save(entry: SavedSeat): void {
  const k = key(entry.table, entry.seat);
  safely(() => {
    localStorage.setItem(k, JSON.stringify({ ...entry, saved: Date.now() }));
    sessionStorage.setItem(TAB, k);
  }, undefined);
}

export function forget(table: string, seat: number | null): void {
  const k = key(table, seat);
  safely(() => {
    localStorage.removeItem(k);
    if (sessionStorage.getItem(TAB) === k) sessionStorage.removeItem(TAB);
  }, undefined);
}

/** Forget this tab's seat (the game is over, or the seat is lost). */
export function forgetTab(): void {
  const entry = tabSeat();
  if (entry) forget(entry.table, entry.seat);
  safely(() => {
    sessionStorage.removeItem(TAB);
    sessionStorage.removeItem(GAME);
  }, undefined);
}

/** Kept seats this browser took with this code (another tab's, or a closed tab's). */
export function byCode(code: string): SavedSeat[] {
  return safely(() => {
    const out: SavedSeat[] = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const k = localStorage.key(i);
      if (k === null || !k.startsWith(`${PREFIX}${location.host}|`)) continue;
      const entry = read(k);
      if (entry && entry.codes.includes(code)) out.push(entry);
    }
    return out;
  }, []);
}

export function prune(): void {
  safely(() => {
    const old: string[] = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const k = localStorage.key(i);
      if (k === null || !k.startsWith(PREFIX)) continue;
      const entry = read(k);
      if (!entry || Date.now() - entry.saved > KEPT_MS) old.push(k);
    }
    old.forEach((k) => localStorage.removeItem(k));
  }, undefined);
}

/** The game as this tab had it: the seat's key, the last seq seen, and the state (a SeatState's dump). */
export interface TabGame { table: string; seat: number | null; since: number; state: unknown }

export function saveGame(game: TabGame): void {
  safely(() => sessionStorage.setItem(GAME, JSON.stringify(game)), undefined);
}

/** The game this tab had drawn for that seat, if it kept one. */
export function tabGame(table: string, seat: number | null): TabGame | null {
  return safely(() => {
    const raw = sessionStorage.getItem(GAME);
    const game = raw === null ? null : (JSON.parse(raw) as TabGame);
    return game && game.table === table && game.seat === seat ? game : null;
  }, null);
}

export function forgetGame(): void {
  safely(() => sessionStorage.removeItem(GAME), undefined);
}

export function savedName(): string {
  return safely(() => localStorage.getItem(NAME), null) ?? "";
}

export function saveName(name: string): void {
  safely(() => localStorage.setItem(NAME, name), undefined);
}
