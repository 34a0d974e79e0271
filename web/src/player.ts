// The player (PROTOCOL.md "Players"): a secret key this browser makes once at random
// (crypto.getRandomValues) and keeps in localStorage, said in every hello, so that the server
// knows this browser as one player on every connection and in every game.  A link that
// `riichi-server players add` printed (/#player=KEY) gives the page a key the server issued:
// it is kept instead, and taken out of the address bar at once.  The player's id and name, as
// the last welcome said them, are kept too, for the lobby to show before it asks again.

const KEY = "riichi.player-key";
const PLAYER = "riichi.player";
const LINK = /^#player=([\x21-\x7e]{16,128})$/;

export interface Player { id: string; name: string }

function safely<T>(fn: () => T, otherwise: T): T {
  try {
    return fn();
  } catch {
    return otherwise; // storage refused (a private window): the key lasts as long as the page
  }
}

let current: string | null = null;

/** A key the address carries (a link of `players add`): kept, and gone from the address bar. */
export function takeKeyFromLink(): boolean {
  const match = LINK.exec(location.hash);
  if (!match) return false;
  current = match[1];
  safely(() => localStorage.setItem(KEY, match[1]), undefined);
  safely(() => localStorage.removeItem(PLAYER), undefined); // another player's name, if any
  history.replaceState(history.state, "", location.pathname + location.search);
  return true;
}

/** This browser's player key: the one kept, else a new one (kept). */
export function playerKey(): string {
  current ??= safely(() => localStorage.getItem(KEY), null);
  if (current !== null && /^[\x21-\x7e]{16,128}$/.test(current)) return current;
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  const key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  current = key;
  safely(() => localStorage.setItem(KEY, key), undefined);
  return key;
}

export function knownPlayer(): Player | null {
  return safely(() => JSON.parse(localStorage.getItem(PLAYER) ?? "null") as Player | null, null);
}

export function rememberPlayer(player: Player): void {
  safely(() => localStorage.setItem(PLAYER, JSON.stringify({ id: player.id, name: player.name })), undefined);
}
