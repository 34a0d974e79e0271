// The replay pages (web/src/replay.ts draws them): `/games/ID`, a finished game of this server,
// whose document the page asks for at /api/games/ID/replay (a game in play is refused there,
// and the page says why); and `/replay`, where a Tenhou log (mjlog or tenhou.net/6) is dropped
// or chosen.  The log goes to the server over a websocket at /api/replay, one message each way
// (server/dropped_log.py: the importers are Python, and this port takes no request body).

import { byId } from "./dom";
import { recordDownloads } from "./final";
import { ReplayDoc, ReplayViewer } from "./replay";

const GAME = /^\/games\/(\d{1,18})\/?$/;
const DROP = /^\/replay\/?$/;
const LOG_LIMIT = 120 * 1024; // server/dropped_log.py LIMIT

export type ReplayRoute = { to: "game"; game: string } | { to: "drop" };

/** The replay page an address is, or null (the rest of the page's). */
export function replayRoute(pathname: string = location.pathname): ReplayRoute | null {
  const game = GAME.exec(pathname);
  if (game) return { to: "game", game: game[1] };
  return DROP.test(pathname) ? { to: "drop" } : null;
}

/** What the page is doing, in the bar (`problem`: what went wrong, in the notice under it). */
function say(text: string, problem = false): void {
  const notice = byId("notice");
  notice.textContent = problem ? text : "";
  notice.hidden = !problem;
  byId("status").textContent = problem ? "" : text;
}

/** A finished game's document, or the server's one-line reason why not. */
async function gameDocument(game: string): Promise<ReplayDoc> {
  const answer = await fetch(`/api/games/${game}/replay`);
  if (!answer.ok) throw new Error((await answer.text()).trim() || `the server answered ${answer.status}`);
  return (await answer.json()) as ReplayDoc;
}

/** A log's document, from the server's importers over the /api/replay websocket. */
export function logDocument(data: ArrayBuffer): Promise<ReplayDoc> {
  return new Promise((resolve, reject) => {
    if (data.byteLength > LOG_LIMIT) {
      reject(new Error(`the file is ${Math.round(data.byteLength / 1024)} KiB: a log of at most`
        + ` ${LOG_LIMIT / 1024} KiB is read`));
      return;
    }
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/replay`);
    let answered = false;
    ws.onopen = () => ws.send(data);
    ws.onmessage = (message) => {
      answered = true;
      ws.close();
      const doc = JSON.parse(String(message.data)) as ReplayDoc & { error?: string };
      if (doc.error) reject(new Error(doc.error));
      else resolve(doc);
    };
    ws.onclose = () => { if (!answered) reject(new Error("the server closed the connection without an answer")); };
  });
}

export function startReplay(where: ReplayRoute): void {
  const viewer = new ReplayViewer(byId("replay-view"));
  byId("replay").hidden = false;
  document.body.dataset.screen = "replay";
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLInputElement;
    if (!typing && viewer.key(event)) event.preventDefault();
  });
  if (where.to === "game") {
    say(`Loading game ${where.game}…`);
    gameDocument(where.game).then((doc) => {
      say("");
      viewer.load(doc, `Game ${where.game}: ${doc.names.join(", ")}`);
      const downloads = byId("replay-downloads");
      downloads.replaceChildren("The game's record: ", ...recordDownloads(where.game));
      downloads.hidden = false;
    }, (error: Error) => say(error.message, true));
    return;
  }
  const drop = byId("replay-drop");
  drop.hidden = false;
  const open = (file: File): void => {
    say(`Reading ${file.name}…`);
    file.arrayBuffer().then(logDocument).then((doc) => {
      say("");
      viewer.load(doc, `${file.name} (${doc.source ?? "log"}): ${doc.names.join(", ")}`);
    }, (error: Error) => say(`${file.name}: ${error.message}`, true));
  };
  const input = byId<HTMLInputElement>("replay-file");
  input.addEventListener("change", () => { if (input.files && input.files[0]) open(input.files[0]); });
  document.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  document.addEventListener("dragleave", () => drop.classList.remove("over"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const file = event.dataTransfer?.files[0];
    if (file) open(file);
  });
}
