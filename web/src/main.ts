// The page's entry: the tile backs prepared, then the page (web/src/app.ts) started where its
// address says (web/src/routes.ts).

import { App } from "./app";
import { prepareTileBacks } from "./tiles";

prepareTileBacks();
new App().start();
