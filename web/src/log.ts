// The table's log: one line for each event worth a line (the last few are shown in the middle
// of the table).

import { Child, h } from "./dom";
import { Msg } from "./connection";
import { View } from "./seat_state";
import { redFives, roundText } from "./table";
import { tileElement } from "./tiles";

/** One line of the table's log (draws and call windows say nothing). */
export function eventLine(e: Msg, view: View): Child[] | null {
  const red = redFives(view);
  const name = (seat: number): string => view.names[seat];
  switch (e.type) {
    case "discard":
      return [`${name(e.seat)}: `, e.riichi ? h("b", {}, "riichi ") : null, tileElement(e.tile, { red, classes: ["tiny"] })];
    case "call":
      return [`${name(e.seat)} ${e.meld === "kan" ? "kong" : e.meld} `,
        ...(e.tiles as number[]).map((t) => tileElement(t, { red, classes: ["tiny"] }))];
    case "dora":
      return ["new dora indicator ", tileElement(e.indicator, { red, classes: ["tiny"] })];
    case "hand_start":
      return [`${roundText(view)} begins, honba ${e.honba}`];
    case "hand_end":
      return e.result.type === "win"
        ? [(e.result.wins as Msg[]).map((w) => `${name(w.seat)} wins by ${w.tsumo ? "tsumo" : "ron"} (${w.points})`)
          .join("; ")]
        : [String(e.result.reason ?? "exhaustive draw").replace(/_/g, " ")];
    default:
      return null;
  }
}

