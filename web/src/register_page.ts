// An event's self-registration page, `/events/ID/register#TOKEN` (docs/events.md): the link the
// organiser hands out (`riichi-server event create` and `event link` print it).  The page says
// which event it is (GET /api/events/ID), asks for the name to play under (this browser's
// player's, if it has one), and registers this browser's player key (web/src/player.ts: a
// browser with none makes one now) over the websocket: `hello`, then `register_event`, answered
// by `event_registered` or an error that says why.  Then it links the player's page, where the
// event's table appears with its link when a round starts.

import { decode, encode } from "@msgpack/msgpack";
import type { Msg } from "./connection";
import { byId, fill, h } from "./dom";
import * as players from "./player";
import { playerPage } from "./player_links";
import { MessageType, VERSION } from "./protocol_names";
import * as seats from "./seats";

const REGISTER = /^\/events\/([0-9a-f]{1,32})\/register\/?$/;

export interface RegisterRoute { event: string; token: string }

/** The registration page an address is (its token in the fragment, or `?token=`), or null. */
export function registerRoute(pathname: string = location.pathname, hash: string = location.hash,
  search: string = location.search): RegisterRoute | null {
  const match = REGISTER.exec(pathname);
  if (!match) return null;
  const token = hash.replace(/^#/, "") || new URLSearchParams(search).get("token") || "";
  return { event: match[1], token };
}

interface EventAbout { id: string; name: string; rules: string; rounds: number; players: number;
  registration_open: boolean }

function say(text: string, problem = false): void {
  const notice = byId("notice");
  notice.textContent = problem ? text : "";
  notice.hidden = !problem;
  byId("status").textContent = problem ? "" : text;
}

async function about(event: string): Promise<EventAbout> {
  const answer = await fetch(`/api/events/${event}`);
  if (!answer.ok) throw new Error((await answer.text()).trim() || `the server answered ${answer.status}`);
  return (await answer.json()) as EventAbout;
}

/** Registers this browser's player for the event under `name`: the server's answer, or its reason why not. */
export function register(where: RegisterRoute, name: string): Promise<Msg> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`);
    ws.binaryType = "arraybuffer";
    let answered = false;
    const done = (fn: () => void): void => { answered = true; ws.close(1000, "registered"); fn(); };
    ws.onopen = () => ws.send(encode({ type: MessageType.HELLO, name, version: VERSION,
      player: players.playerKey() }));
    ws.onmessage = (message) => {
      const msg = decode(new Uint8Array(message.data as ArrayBuffer)) as Msg;
      if (msg.type === MessageType.WELCOME) {
        if (msg.player) players.rememberPlayer(msg.player);
        ws.send(encode({ type: MessageType.REGISTER_EVENT, event: where.event, token: where.token, name }));
      } else if (msg.type === MessageType.EVENT_REGISTERED) {
        done(() => resolve(msg));
      } else if (msg.type === MessageType.ERROR || msg.type === MessageType.BYE) {
        done(() => reject(new Error(String(msg.message ?? msg.reason))));
      }
    };
    ws.onclose = () => { if (!answered) reject(new Error("the server closed the connection without an answer")); };
  });
}

function registered(answer: Msg): void {
  const player = answer.player as players.Player;
  players.rememberPlayer(player);
  seats.saveName(player.name);
  byId("register-form").hidden = true;
  const page = playerPage(player.id);
  fill(byId("register-done"),
    h("p", {}, answer.added ? `You are registered for ${answer.event_name} as ${player.name}.`
      : `You were registered for ${answer.event_name} already (as ${player.name}).`),
    h("p", {}, "When a round starts, your table appears on your page with the link that takes your seat: ",
      h("a", { href: page, id: "register-player-page" }, "your page"), "."),
    h("p", { class: "dim" }, h("a", { href: `/events/${answer.event}` }, "The event's page"),
      " shows the standings and each round's tables."));
  byId("register-done").hidden = false;
  say("");
}

export function startRegister(where: RegisterRoute): void {
  byId("register").hidden = false;
  document.body.dataset.screen = "register";
  const input = byId<HTMLInputElement>("register-name");
  input.value = players.knownPlayer()?.name ?? seats.savedName();
  const form = byId<HTMLFormElement>("register-form");
  if (!where.token) say("this link has no registration token: ask the organiser for the whole link", true);
  about(where.event).then((event) => {
    byId("register-title").textContent = `Register for ${event.name}`;
    byId("register-about").textContent = `${event.rounds} round${event.rounds === 1 ? "" : "s"} of ${event.rules};`
      + ` ${event.players} player${event.players === 1 ? "" : "s"} registered so far.`
      + " Registration closes when round 1 starts.";
    if (!event.registration_open) say(`Registration for ${event.name} is closed: its first round has started`, true);
    form.hidden = false;
    input.focus();
  }, (error: Error) => say(error.message, true));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) { input.focus(); return; }
    say("Registering…");
    register(where, name).then(registered, (error: Error) => say(error.message, true));
  });
}
