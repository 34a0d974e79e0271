// The way forward from a game's end: back to the lobby, a rematch (the same rules, clock and
// bots; the first player to ask hosts it, and the others are offered it), the game's replay
// (/games/ID, every hand open), the player's own page (/players/ID: this game joins its list)
// and the game's record to download (tenhou.net/6 JSON, mjai lines).
// Shown under the final standings in the result dialog, and under the table once that dialog
// is closed.

import { h } from "./dom";
import { playerPage } from "./player_links";

export interface FinalHooks {
  lobby(): void;
  rematch(): void;
}

/** A finished game's record to download: tenhou.net/6 JSON and mjai lines (server/downloads.py). */
export function recordDownloads(game: number | string): Array<HTMLElement | string> {
  return [
    h("a", { href: `/api/games/${game}/tenhou6`, download: `game-${game}.tenhou6.json`, id: "record-tenhou6" },
      "tenhou.net/6"), " · ",
    h("a", { href: `/api/games/${game}/mjai`, download: `game-${game}.mjai.jsonl`, id: "record-mjai" }, "mjai")];
}

export class FinalScreen {
  game: number | null = null;
  private offeredBy: string | null = null;
  private asked = false;
  private seated = true; // a spectator has no seat to take at a rematch
  private player: string | null = null; // our player's id: the link to its page
  private actions: HTMLElement = h("div");

  constructor(private bar: HTMLElement, private hooks: FinalHooks) {}

  /** The game `game` has ended: the actions, to show under its standings (a spectator's
   * without the rematch or a link to its player's page, which does not list the game;
   * `player`: our player's id, if known). */
  ended(game: number, seated: boolean, player: string | null): HTMLElement {
    this.game = game;
    this.seated = seated;
    this.player = seated ? player : null;
    this.asked = false;
    this.actions = h("div", { class: "final-actions buttons", id: "final-actions" });
    this.draw();
    return this.actions;
  }

  /** The final dialog was closed: the actions go under the table. */
  closed(): void {
    if (this.game === null) return;
    this.bar.replaceChildren(this.actions);
    this.bar.hidden = false;
  }

  /** Another player asked for the rematch of this game first. */
  offered(game: number, by: string): void {
    if (game !== this.game) return;
    this.offeredBy = by;
    this.draw();
  }

  /** The server refused the rematch (the notice says why): it may be asked again. */
  refused(): void {
    this.asked = false;
    this.draw();
  }

  /** Moving on (to the lobby or the rematch): nothing of the last game is shown. */
  reset(): void {
    this.game = null;
    this.offeredBy = null;
    this.bar.hidden = true;
    this.bar.replaceChildren();
  }

  private draw(): void {
    const game = this.game;
    if (game === null) return;
    const rematch = h("button", { type: "button", class: "primary", id: "final-rematch" },
      this.asked ? "Asking for the rematch…" : this.offeredBy !== null ? `Join the rematch (${this.offeredBy} asked)`
        : "Rematch", " ", h("kbd", {}, "r")) as HTMLButtonElement;
    rematch.disabled = this.asked;
    rematch.title = "a new game with the same players, bots, rules and clock";
    rematch.addEventListener("click", () => {
      this.asked = true;
      this.draw();
      this.hooks.rematch();
    });
    const lobby = h("button", { type: "button", id: "final-lobby" }, "Back to the lobby", " ", h("kbd", {}, "l"));
    lobby.addEventListener("click", () => this.hooks.lobby());
    const replay = h("a", { href: `/games/${game}`, id: "final-replay", class: "replay-link" }, "Replay");
    const own = this.player === null ? null
      : h("a", { href: playerPage(this.player), id: "final-own-page", class: "own-page-link" }, "Your page");
    const record = h("span", { class: "record-links" }, replay, ...(own ? [" · ", own] : []),
      " · the game's record: ", ...recordDownloads(game));
    this.actions.replaceChildren(...(this.seated ? [rematch] : []), lobby, record);
  }

  /** The final screen's keys (r: rematch, l: lobby); true if the key was one of them. */
  key(key: string): boolean {
    if (this.game === null) return false;
    const id = { r: "final-rematch", l: "final-lobby" }[key];
    const el = id ? this.actions.querySelector<HTMLButtonElement>(`#${id}`) : null;
    if (!el || el.disabled) return false;
    el.click();
    return true;
  }
}
