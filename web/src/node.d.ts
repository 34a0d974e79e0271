// The little of node that src/seat_state_cli.ts (a test helper, run with node) uses.
declare module "node:readline" {
  export function createInterface(options: { input: never }): { on(event: "line", listener: (line: string) => void): void };
}
