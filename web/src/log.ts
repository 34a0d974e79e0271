// The table's log: one line for each event worth a line (the last few are shown in the middle
// of the table).

import { Child, h } from "./dom";
import { Msg } from "./connection";
import { View } from "./seat_state";
import { redFives, roundText } from "./table";
import { tileElement } from "./tiles";
import { CallMeld, EventType, HandResult } from "./protocol_names";

/** One line of the table's log (draws and call windows say nothing). */
export function eventLine(e: Msg, view: View): Child[] | null {
  const red = redFives(view);
  const name = (seat: number): string => view.names[seat];
  switch (e.type) {
    case EventType.DISCARD:
      return [`${name(e.seat)}: `, e.riichi ? h("b", {}, "riichi ") : null, tileElement(e.tile, { red, classes: ["tiny"] })];
    case EventType.CALL:
      return [`${name(e.seat)} ${e.meld === CallMeld.KAN ? "kong" : e.meld} `,
        ...(e.tiles as number[]).map((t) => tileElement(t, { red, classes: ["tiny"] }))];
    case EventType.DORA:
      return ["new dora indicator ", tileElement(e.indicator, { red, classes: ["tiny"] })];
    case EventType.HAND_START:
      return [`${roundText(view)} begins, honba ${e.honba}`];
    case EventType.HAND_END:
      return e.result.type === HandResult.WIN
        ? [(e.result.wins as Msg[]).map((w) => `${name(w.seat)} wins by ${w.tsumo ? "tsumo" : "ron"} (${w.points})`)
          .join("; ")]
        : [String(e.result.reason ?? "exhaustive draw").replace(/_/g, " ")];
    default:
      return null;
  }
}

