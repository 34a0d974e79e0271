// For the tests (tests/web/test_comforts.py): reads JSON lines, each {actions, drawn, on, red}
// (an offer's actions, our drawn tile or null, the comforts switched on, red fives), and writes
// for each the answer the page gives by itself ({action, by}), or null when the player answers.
import { createInterface } from "node:readline";
import { autoAnswer, Settings } from "./comforts";
import { Action, choices } from "./offers";

declare const process: { stdin: unknown; stdout: { write(text: string): void } }; // node's

const lines = createInterface({ input: process.stdin as never });
lines.on("line", (line: string) => {
  const { actions, drawn, on, red } = JSON.parse(line) as { actions: Action[]; drawn: number | null; on: Settings;
    red: boolean };
  process.stdout.write(JSON.stringify(autoAnswer(actions, choices(actions, red), drawn, on)) + "\n");
});
