// The table model: what the page knows of its table and its game (the last `table` message,
// the seat's state rebuilt from the events, the open offer) and what the player is choosing
// (the tile selected, riichi mode, the waits shown).  No DOM: the view draws it
// (web/src/view.ts), the message handlers change it (web/src/handlers.ts).

import { autoAnswer, AutoAnswer, Settings } from "./comforts";
import type { Msg } from "./connection";
import type { Child } from "./dom";
import { eventLine } from "./log";
import { Action, Choices, choices } from "./offers";
import { EventType, SeatKind } from "./protocol_names";
import { SeatState, View } from "./seat_state";
import { SessionClock, sessionText } from "./session_clock";
import { Extras, handOrder, redFives, toPlay } from "./table";

const LOG_LINES = 5;
const NO_CHOICES = new Choices(); // an answer's event drawn by then, or the table without the offer

export class TableModel {
  table: Msg | null = null; // the last `table` message
  state: SeatState | null = null;
  offer: Msg | null = null;
  answered: Msg | null = null; // the offer last answered, until the game moves on
  offerDeadline: number | null = null;
  choices = new Choices();
  riichiMode = false;
  selected: number | null = null;
  showWaits = false;
  watching = false;
  turnSeat: number | null = null;
  turnStarted = 0;
  log: Child[][] = [];
  rematchInvite: string | null = null; // the rematch another player of the game asked for
  autoDecision: number | null = null; // the decision a comfort answered last (refused: the player answers it)
  session: SessionClock | null = null; // a timed table's session clock, as last sent
  handNumber: number | null = null; // the hand in play, once its hand_start is seen

  get view(): View | null {
    return this.state?.view ?? null;
  }

  /** A game event: into the seat's state, the log and whose turn it is (the offer, if any, is
   * cleared first: the game has moved on). */
  apply(event: Msg): void {
    if (this.state === null) this.state = new SeatState(this.table && !this.watching ? this.table.you : null);
    this.state.apply(event);
    this.answered = null;
    const view = this.state.view;
    if (!view) return;
    const line = eventLine(event, view);
    if (event.type === EventType.HAND_START) this.log = []; // the log is about this hand
    if (event.type === EventType.HAND_START) this.handNumber = event.hand_number;
    if (line) this.log = [...this.log, line].slice(-LOG_LINES);
    if (event.type === EventType.HAND_START) this.selected = null;
    if (event.type === EventType.DRAW || event.type === EventType.CALL || event.type === EventType.HAND_START) {
      this.turnSeat = view.turn;
      this.turnStarted = performance.now();
    }
  }

  /** An offer: its choices, and the drawn tile selected when it may be discarded. */
  offered(m: Msg): void {
    this.offer = m;
    this.answered = null;
    this.offerDeadline = typeof m.deadline_ms === "number" ? performance.now() + m.deadline_ms : null;
    this.choices = choices(m.actions as Action[], this.view ? redFives(this.view) : false);
    this.riichiMode = false;
    const order = this.view ? handOrder(this.view) : [];
    const drawn = this.view?.you?.drawn;
    if (this.choices.canDiscard && drawn !== null && drawn !== undefined) this.selected = order.indexOf(drawn);
  }

  clearOffer(): void {
    if (this.offer === null) return;
    this.offer = null;
    this.offerDeadline = null;
    this.choices = new Choices();
    this.riichiMode = false;
  }

  /** Nothing of the game that ended stays. */
  forgetGame(): void {
    this.state = null;
    this.log = [];
    this.rematchInvite = null;
    this.autoDecision = null; // decision ids count from 1 again in the next game
    this.clearOffer();
    this.selected = null;
    this.turnSeat = null;
    this.session = null;
    this.handNumber = null;
  }

  /** What a comfort answers to the open offer by itself (web/src/comforts.ts), if anything. */
  automatic(settings: Settings): AutoAnswer | null {
    const offer = this.offer;
    if (offer === null || offer.decision === this.autoDecision) return null; // (refused once: the player's)
    return autoAnswer(offer.actions as Action[], this.choices, this.view?.you?.drawn ?? null, settings);
  }

  /** What the board draws besides the view; `auto`: a comfort answers the open offer (once the
   * result over the table is closed), so there is nothing to choose meanwhile. */
  extras(view: View, auto: boolean): Extras {
    const seatsInfo = (this.table?.seats ?? []) as Array<Msg | null>;
    const away = new Set<number>();
    const programs = new Set<number>();
    seatsInfo.forEach((s, i) => {
      if (s && s.kind === SeatKind.HUMAN && !s.connected) away.add(i);
      if (s && (s.kind === SeatKind.BOT || s.program)) programs.add(i);
    });
    const you = this.table?.you;
    const hosting = !this.watching && typeof you === "number" && seatsInfo[you]?.host === true && !view.final;
    return { choices: auto ? NO_CHOICES : this.choices, riichiMode: this.riichiMode, selected: this.selected,
      myClock: this.clockText(), turnClock: this.turnClock(view), away, programs, log: this.log,
      showWaits: this.showWaits, decision: this.offer ? this.offer.decision : null,
      seatToBot: hosting ? [...away].sort() : [],
      players: [0, 1, 2, 3].map((i) => playerOf(seatsInfo[i])) };
  }

  /** Our seat's player id as the table says it (null: watching, or a client that said no key). */
  ownPlayer(): string | null {
    const you = this.table?.you;
    return typeof you === "number" && !this.watching ? playerOf(this.table?.seats?.[you]) : null;
  }

  /** A timed table's session clock for the bar ("" untimed). */
  sessionText(): string {
    return sessionText(this.session, performance.now(), this.handNumber);
  }

  /** A `session` map, from a `table` or a `session` message. */
  keepSession(session: Msg | undefined): void {
    if (session) this.session = { session, received: performance.now() };
  }

  /** Our time left to answer the open offer ("" without a clock). */
  clockText(): string {
    if (this.offerDeadline === null) return "";
    return `${Math.max(0, Math.ceil((this.offerDeadline - performance.now()) / 1000))} s`;
  }

  /** Another seat's clock, estimated from when its turn began (each seat is sent only its own). */
  turnClock(view: View): string {
    const clock = this.table?.clock;
    if (!clock || this.turnSeat === null || !toPlay(view, this.turnSeat)) return "";
    if (view.you && this.turnSeat === view.you.seat) return "";
    const left = clock.per_decision - Math.max(0, (performance.now() - this.turnStarted) / 1000);
    return left >= 0 ? `${Math.ceil(left)} s` : "on bank";
  }
}

/** The player id a seat of the `table` message gives (null: a free seat, or a client of no key). */
function playerOf(seat: Msg | null | undefined): string | null {
  return typeof seat?.player === "string" ? seat.player : null;
}
