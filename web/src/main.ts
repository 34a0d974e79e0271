// The page's entry: the tile backs prepared, then the page (web/src/app.ts) started where its
// address says (web/src/routes.ts), or the replay viewer at /games/ID and /replay
// (web/src/replay_page.ts).

import { App } from "./app";
import { replayRoute, startReplay } from "./replay_page";
import { prepareTileBacks } from "./tiles";

prepareTileBacks();
const replay = replayRoute();
if (replay) startReplay(replay);
else new App().start();
