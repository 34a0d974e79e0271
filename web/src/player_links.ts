// Links from the page to the server's own pages about players (issue 25): a player's page,
// /players/ID (server/player_page.py: its games, each linked to its replay), and the standings,
// /standings (server/standings.py).  A player is linked by its id, never its name: names are
// not unique, an id is one player.

import { h } from "./dom";

export const STANDINGS = "/standings";

/** The address of a player's page. */
export function playerPage(id: string): string {
  return `/players/${encodeURIComponent(id)}`;
}

/** A seat's name, linked to its player's page in a new tab when the seat has a player (a client
 * that said no key has none: then plain text).  The game keeps the keys: a click leaves no focus
 * on the link, so Enter and the tile keys go on playing (web/src/input.ts). */
export function seatName(name: string, player: string | null | undefined, cls: string): HTMLElement {
  if (!player) return h("span", { class: cls }, name);
  const el = h("a", { class: `${cls} player-link`, href: playerPage(player), target: "_blank", rel: "noopener",
    title: `${name}'s page: games, places, rating (a new tab)` }, name);
  el.addEventListener("click", () => el.blur());
  return el;
}
