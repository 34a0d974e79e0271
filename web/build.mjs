// Builds the web client into server/webclient/, where riichi-server serves it from (package
// data of the Python package): app.js (src/ bundled with @msgpack/msgpack and minified),
// app.css, pages.css (the server-rendered pages'), index.html and the tile art.  Also web/build/seat_state_cli.mjs and comforts_cli.mjs,
// which the tests run with node.  `node build.mjs --fresh` exits 0 when the build matches the
// sources (scripts/setup.sh builds only when it does not).
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "server", "webclient");
// src/protocol_names.ts is generated from protocol/ (python -m protocol.typescript) and kept in
// src/, so its own inputs need not be listed: tests/protocol/test_typescript.py keeps it current.
const SOURCES = ["package-lock.json", "build.mjs", "tsconfig.json", "src", "static", "tiles",
  "../protocol/yaku_names.json"];  // the yaku's names, riichi-play's too (src/results.ts)

function files(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)));
}

function sourceHash() {
  const hash = createHash("sha256");
  for (const file of SOURCES.flatMap((name) => files(join(here, name)))) {
    hash.update(relative(here, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

const stamp = join(out, "build.json");
if (process.argv.includes("--fresh")) {
  const built = existsSync(stamp) ? JSON.parse(readFileSync(stamp, "utf8")).sources : null;
  process.exit(built === sourceHash() ? 0 : 1);
}

const { build } = await import("esbuild");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({ entryPoints: [join(here, "src", "main.ts")], bundle: true, minify: true, format: "iife",
  target: ["es2020"], outfile: join(out, "app.js"), legalComments: "none", logLevel: "warning" });
await build({ entryPoints: [join(here, "static", "app.css")], bundle: true, minify: true, outfile: join(out, "app.css"), external: ["/tiles/*"],
  logLevel: "warning" });
// the server-rendered pages' own (server/html_pages.py): the player pages and the standings
await build({ entryPoints: [join(here, "static", "pages.css")], minify: true, outfile: join(out, "pages.css"),
  logLevel: "warning" });
cpSync(join(here, "static", "index.html"), join(out, "index.html"));
cpSync(join(here, "tiles"), join(out, "tiles"), { recursive: true });
for (const cli of ["seat_state_cli", "comforts_cli"]) {
  await build({ entryPoints: [join(here, "src", `${cli}.ts`)], bundle: true, platform: "node", format: "esm",
    outfile: join(here, "build", `${cli}.mjs`), logLevel: "warning" });
}
writeFileSync(stamp, JSON.stringify({ sources: sourceHash() }) + "\n");
