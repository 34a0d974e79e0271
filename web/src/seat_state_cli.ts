// For the tests (tests/web/test_seat_state_port.py): reads JSON lines, each {"seat": N or
// null} to start a seat's state, a server message for it (the view after it is written as a
// JSON line, as client_cli/seat_state.py would keep it), or {"hand", "melds", "held"} (its
// waits are written).
import { createInterface } from "node:readline";
import { SeatState } from "./seat_state";
import { handWaits } from "./waits";
import { MessageType } from "./protocol_names";

declare const process: { stdin: unknown; stdout: { write(text: string): void } }; // node's

let state = new SeatState(null);
const lines = createInterface({ input: process.stdin as never });
lines.on("line", (line: string) => {
  const message = JSON.parse(line);
  if ("seat" in message && !("type" in message)) {
    state = new SeatState(message.seat);
    return;
  }
  if ("hand" in message && !("type" in message)) { // {"hand", "melds", "held"}: the waits
    process.stdout.write(JSON.stringify(handWaits(message.hand, message.melds, message.held)) + "\n");
    return;
  }
  if (message.type === MessageType.SNAPSHOT) state.loadSnapshot(message.view);
  else if (message.type === MessageType.EVENT) state.apply(message.event);
  process.stdout.write(JSON.stringify(state.view) + "\n");
});
