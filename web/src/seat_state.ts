// One seat's (or a spectator's) picture of a game, kept from a snapshot and the events after
// it: the same view the server would send in a snapshot (server/game/views.py), without its
// `actions`.  A port of client_cli/seat_state.py, which riichi-play uses; a test feeds both
// the same streams and compares them (tests/web/test_seat_state_port.py).
//
// Waits and furiten are worked out here by the engine's rules (EMA 'Furiten'): a tile of the
// seat's waits that another player discards, or adds to a kong, and that the seat lets go by
// makes it furiten until its next draw (for good after its riichi).  Such a tile has been let
// go by once the next event shows the game went on.

import { counts34, handWaits } from "./waits";
import { AbortiveReason, CallMeld, EventType, HandResult, Phase } from "./protocol_names";

export type Ev = { type: string; [field: string]: any };

export interface Meld { kind: string; tiles: number[]; called: number | null; from: number | null }

export interface SeatPublic {
  discards: number[];
  tsumogiri: boolean[];
  claimed: number[];
  riichi_index: number | null;
  riichi: boolean;
  melds: Meld[];
}

export interface You { seat: number; hand: number[]; drawn: number | null; waits: number[]; furiten: boolean }

// `seed` and `seed_hash` are null for a game dealt from given walls (a table's spec's): it has no seed.
export interface Final { scores: number[]; places: number[]; results: number[]; seed?: string | null }

export interface View {
  rules: string;
  overrides: Record<string, unknown>;
  names: string[];
  seed_hash: string | null;
  round: string;
  round_wind: number;
  dealer: number;
  honba: number;
  sticks: number;
  scores: number[];
  dora_indicators: number[];
  tiles_left: number;
  turn: number;
  phase: string;
  last_discard: number | null;
  hand_sizes: number[];
  seats: SeatPublic[];
  final: Final | null;
  you?: You | null;
}

/** A step kept for the next event that is not a call window (the Python port's closures, as data). */
type Deferred = { letGoBy: number } | { updateWaits: true };

/** A SeatState as plain data (kept in the tab's storage across a reload). */
export interface Dump {
  seat: number | null;
  view: View | null;
  temporaryFuriten: boolean;
  riichiFuriten: boolean;
  deferred: Deferred[];
}

const RED_FIVES: Record<string, boolean> = { ema2016: false, tenhou: true };

/** Whether a game plays with red fives: the table's override, else its preset's. */
export function redFivesOf(rules: string | undefined, overrides: Record<string, unknown> | undefined): boolean {
  if (overrides && typeof overrides.red_fives === "boolean") return overrides.red_fives;
  return rules !== undefined && rules in RED_FIVES ? RED_FIVES[rules] : true;
}

export function emptySeat(): SeatPublic {
  return { discards: [], tsumogiri: [], claimed: [], riichi_index: null, riichi: false, melds: [] };
}

const sorted = (tiles: number[]): number[] => tiles.slice().sort((a, b) => a - b);

function removeOne(tiles: number[], tile: number): void {
  const i = tiles.indexOf(tile);
  if (i < 0) throw new Error(`tile ${tile} is not in the hand`);
  tiles.splice(i, 1);
}

/** A hand that ended on the tile itself (a ron, or three of them) let nothing go by. */
function wonOnTheTile(result: Ev): boolean {
  return result.type === HandResult.WIN || result.reason === AbortiveReason.TRIPLE_RON;
}

export class SeatState {
  seat: number | null;
  view: View | null = null;
  temporaryFuriten = false;
  riichiFuriten = false;
  private deferred: Deferred[] = [];

  constructor(seat: number | null = null) {
    this.seat = seat;
  }

  dump(): Dump {
    return JSON.parse(JSON.stringify({ seat: this.seat, view: this.view, temporaryFuriten: this.temporaryFuriten,
      riichiFuriten: this.riichiFuriten, deferred: this.deferred })) as Dump;
  }

  static restore(dump: Dump): SeatState {
    const state = new SeatState(dump.seat);
    state.view = dump.view;
    state.temporaryFuriten = dump.temporaryFuriten;
    state.riichiFuriten = dump.riichiFuriten;
    state.deferred = dump.deferred;
    return state;
  }

  loadSnapshot(view: View): void {
    const copy = JSON.parse(JSON.stringify(view)) as View & { actions?: unknown };
    delete copy.actions;
    this.view = copy;
    this.deferred = [];
    const you = copy.you;
    if (you) {
      this.seat = you.seat;
      // The snapshot says whether the seat is furiten, not why; after a snapshot a furiten
      // seat is taken as temporarily furiten (for good if in riichi).
      const own = new Set(copy.seats[you.seat].discards.map((t) => t >> 2));
      const byDiscards = you.waits.some((k) => own.has(k));
      this.temporaryFuriten = you.furiten && !byDiscards;
      this.riichiFuriten = this.temporaryFuriten && copy.seats[you.seat].riichi;
    }
  }

  apply(event: Ev): void {
    const kind = event.type;
    if (this.deferred.length) {
      const steps = this.deferred;
      this.deferred = [];
      if (!(kind === EventType.HAND_END && wonOnTheTile(event.result))) {
        for (const step of steps) {
          if ("letGoBy" in step) this.letGoBy(step.letGoBy);
          else this.updateWaits();
        }
      }
    }
    if (this.view === null && kind !== EventType.GAME_START) return; // mid-game without a snapshot
    switch (kind) {
      case EventType.GAME_START: return this.onGameStart(event);
      case EventType.HAND_START: return this.onHandStart(event);
      case EventType.DRAW: return this.onDraw(event);
      case EventType.DISCARD: return this.onDiscard(event);
      case EventType.RIICHI_ACCEPTED: return this.onRiichiAccepted(event);
      case EventType.CALL: return this.onCall(event);
      case EventType.DORA: this.v.dora_indicators = event.dora_indicators.slice(); return;
      case EventType.HAND_END: return this.onHandEnd(event);
      case EventType.GAME_END: return this.onGameEnd(event);
      default: return;
    }
  }

  private get v(): View {
    return this.view as View;
  }

  private get you(): You {
    return this.v.you as You;
  }

  private onGameStart(e: Ev): void {
    this.view = {
      rules: e.rules, overrides: { ...(e.overrides ?? {}) }, names: e.names.slice(), seed_hash: e.seed_hash,
      round: "E1", round_wind: 0, dealer: 0, honba: 0, sticks: 0, scores: e.scores.slice(), dora_indicators: [],
      tiles_left: 0, turn: 0, phase: Phase.TURN, last_discard: null, hand_sizes: [0, 0, 0, 0],
      seats: [emptySeat(), emptySeat(), emptySeat(), emptySeat()], final: null,
    };
    if (this.seat !== null) this.view.you = { seat: this.seat, hand: [], drawn: null, waits: [], furiten: false };
  }

  private onHandStart(e: Ev): void {
    const v = this.v;
    v.round = e.round; v.round_wind = e.round_wind; v.dealer = e.dealer; v.honba = e.honba; v.sticks = e.sticks;
    v.scores = e.scores.slice();
    v.dora_indicators = e.dora_indicators.slice();
    v.seats = [emptySeat(), emptySeat(), emptySeat(), emptySeat()];
    v.hand_sizes = [13, 13, 13, 13];
    v.last_discard = null;
    v.tiles_left = 70;
    this.temporaryFuriten = this.riichiFuriten = false;
    if (v.you && e.hand) {
      v.you.hand = sorted(e.hand);
      v.you.drawn = null;
      this.updateWaits();
    }
  }

  private onDraw(e: Ev): void {
    const v = this.v;
    v.tiles_left = e.tiles_left;
    v.hand_sizes[e.seat] += 1;
    v.turn = e.seat;
    v.phase = Phase.TURN;
    if (e.seat === this.seat && e.tile !== undefined) {
      this.you.hand = sorted([...this.you.hand, e.tile]);
      this.you.drawn = e.tile;
      if (!this.riichiFuriten) this.temporaryFuriten = false;
      this.updateFuriten();
    }
  }

  private onDiscard(e: Ev): void {
    const v = this.v;
    const sp = v.seats[e.seat];
    const tile: number = e.tile;
    sp.discards.push(tile);
    sp.tsumogiri.push(e.tsumogiri);
    if (e.riichi) sp.riichi_index = sp.discards.length - 1;
    v.hand_sizes[e.seat] -= 1;
    v.last_discard = tile;
    v.phase = Phase.CALLS; // every discard opens a window for calls, offered or not
    if (e.seat === this.seat) {
      removeOne(this.you.hand, tile);
      this.you.drawn = null;
      this.updateWaits();
    } else if (this.seat !== null) {
      this.deferred.push({ letGoBy: tile });
    }
  }

  private onRiichiAccepted(e: Ev): void {
    const v = this.v;
    v.seats[e.seat].riichi = true;
    v.scores = e.scores.slice();
    v.sticks = e.sticks;
  }

  private onCall(e: Ev): void {
    const v = this.v;
    const seat: number = e.seat;
    const meld: string = e.meld;
    const tiles: number[] = e.tiles.slice();
    const melds = v.seats[seat].melds;
    const mine = seat === this.seat;
    let own: number[];
    if (meld === CallMeld.KAKAN) {
      const pon = melds.find((m) => m.kind === CallMeld.PON && m.tiles[0] >> 2 === tiles[0] >> 2);
      if (pon === undefined) throw new Error("an added kong without its pung");
      pon.kind = CallMeld.KAKAN;
      pon.tiles = tiles;
      v.hand_sizes[seat] -= 1;
      own = [e.called];
      if (!mine && this.seat !== null) this.deferred.push({ letGoBy: e.called });
    } else if (meld === CallMeld.ANKAN) {
      melds.push({ kind: CallMeld.ANKAN, tiles, called: null, from: null });
      v.hand_sizes[seat] -= 4;
      own = tiles;
    } else {
      const discarder: number = e.from;
      melds.push({ kind: meld, tiles, called: e.called, from: discarder });
      const claimed = v.seats[discarder].claimed;
      claimed.push(v.seats[discarder].discards.length - 1);
      claimed.sort((a, b) => a - b);
      own = tiles.slice();
      removeOne(own, e.called);
      v.hand_sizes[seat] -= own.length;
      v.last_discard = null;
      v.turn = seat;
      v.phase = Phase.TURN;
    }
    if (meld === CallMeld.KAKAN || meld === CallMeld.ANKAN) v.phase = Phase.CHANKAN; // the kong may be robbed
    if (mine) {
      for (const t of own) removeOne(this.you.hand, t);
      if (meld === CallMeld.CHI || meld === CallMeld.PON || meld === CallMeld.KAN) {
        this.you.drawn = null;
        this.temporaryFuriten = this.riichiFuriten; // a claim ends temporary furiten
      }
      if (meld === CallMeld.KAN || meld === CallMeld.ANKAN || meld === CallMeld.KAKAN) {
        this.deferred.push({ updateWaits: true }); // the kong counts once no one robs it
      }
      this.updateFuriten();
    }
  }

  private onHandEnd(e: Ev): void {
    this.v.scores = e.result.scores.slice();
    if (e.result.type === HandResult.WIN) this.v.sticks = 0;
  }

  private onGameEnd(e: Ev): void {
    const v = this.v;
    const scores: number[] = e.scores.slice();
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    if (v.sticks && sum(scores) - sum(v.scores) === 1000 * v.sticks) v.sticks = 0; // to first place
    v.scores = scores;
    const final: Final = { scores: e.scores, places: e.places, results: e.results };
    if (e.seed !== undefined) final.seed = e.seed;
    v.final = final;
    v.phase = Phase.GAME_OVER;
  }

  private updateWaits(): void {
    const you = this.you;
    const melds = this.v.seats[this.seat as number].melds;
    const held = counts34(you.hand);
    for (const m of melds) for (const t of m.tiles) held[t >> 2] += 1;
    you.waits = handWaits(you.hand, melds.length, held);
    this.updateFuriten();
  }

  private letGoBy(tile: number): void {
    if (this.view === null || !this.view.you) return;
    if (this.view.you.waits.includes(tile >> 2)) {
      this.temporaryFuriten = true;
      if (this.view.seats[this.seat as number].riichi) this.riichiFuriten = true;
    }
    this.updateFuriten();
  }

  private updateFuriten(): void {
    const you = this.you;
    const waits = new Set(you.waits);
    const permanent = this.v.seats[this.seat as number].discards.some((t) => waits.has(t >> 2));
    you.furiten = permanent || this.temporaryFuriten || this.riichiFuriten;
  }
}
