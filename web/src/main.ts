// The page's entry: the tile backs prepared, then the page (web/src/app.ts) started where its
// address says (web/src/routes.ts), or the replay viewer at /games/ID and /replay
// (web/src/replay_page.ts), or an event's self-registration at /events/ID/register
// (web/src/register_page.ts).

import { App } from "./app";
import { registerRoute, startRegister } from "./register_page";
import { replayRoute, startReplay } from "./replay_page";
import { prepareTileBacks } from "./tiles";

prepareTileBacks();
const replay = replayRoute();
const registration = registerRoute();
if (replay) startReplay(replay);
else if (registration) startRegister(registration);
else new App().start();
