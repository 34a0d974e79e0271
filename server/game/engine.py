"""The game state machine: `Game.apply(seat, action)` is the one transition.

A game is a function of (rules, seed or explicit walls, the ordered decisions).  Draws,
call resolution, kong replacements, dora, settlement and the move to the next hand
happen inside `apply`; players only decide.  An illegal action raises ActionError with
a one-line reason before anything changes.  `apply` changes the game in place (for
speed) and returns the events it caused; `snapshot()` gives an independent copy.

The state is data (server.game.state: public, private, hidden, the hand's own state, the
offers or the claim window); `settle` and `flow` are functions of it that return results,
and this class is the one place that applies a decision and moves the state on.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from protocol.events import AbortiveReason, EventType
from server.game import analysis as an
from server.game import flow, settle
from server.game.actions import (ACTION_TYPES, Action, ActionError, Ankan, Chi, Daiminkan, Discard, Kakan, NineTerminals,
                                 Pass, Pon, Ron, TABLE_SEAT, TimeUp, Tsumo, action_name)
from server.game.events import Event, new_event
from server.game.results import HandOutcome, WinResult
from server.game.state import (SEATS_AFTER, ClaimWindow, GameState, HandStart, HandState, Hidden, Offers, OpenMeld,
                               Phase, Private, Public, SeatPublic)
from server.game.wall import (DORA_INDICATORS, LIVE_END, REPLACEMENTS, check_wall, deal, new_seed, seed_hash,
                              shuffled_wall)
from server.rules.config import EMA2016, KanDoraTiming, Rules, rules_to_data
from server.rules.melds import MeldKind
from server.rules.scoring import HandScore
from server.rules.shanten import shanten, waits

WINDS = (27, 28, 29, 30)
# Offers are built from these shared values, so that checking an answer is an identity test.
DISCARDS = tuple(Discard(t) for t in range(136))
RIICHI_DISCARDS = tuple(Discard(t, riichi=True) for t in range(136))
TSUMO, RON, PASS, DAIMINKAN, NINE_TERMINALS = Tsumo(), Ron(), Pass(), Daiminkan(), NineTerminals()
NOTHING_FORBIDDEN: frozenset[int] = frozenset()
ENDED = (Phase.GAME_OVER, Phase.STOPPED)


def _tiles_of(action: Action) -> tuple:
    if isinstance(action, (Chi, Pon)):
        return tuple(action.tiles) if isinstance(action.tiles, tuple) and len(action.tiles) == 2 else (None,)
    if isinstance(action, (Discard, Kakan)):
        return (action.tile,)
    return ()


class Game:
    def __init__(self, rules: Rules = EMA2016, seed: bytes | None = None,
                 walls: Sequence[Sequence[int]] | None = None, names: Sequence[str] = ("A", "B", "C", "D"),
                 start: HandStart | None = None):
        self.rules = rules
        self.overrides = rules_to_data(rules)["overrides"]  # what the table changed from the preset
        self.start = start
        self.seed = seed if seed is not None or walls is not None else new_seed()
        self.walls = [check_wall(w) for w in walls] if walls is not None else None
        self.names = list(names)
        self.public = Public(scores=[rules.start_score] * 4)
        if start is not None:
            p = self.public
            p.round_wind, p.dealer, p.honba, p.sticks = start.round_wind, start.dealer, start.honba, start.sticks
            p.scores = list(start.scores)
        self.private = [Private() for _ in range(4)]
        self.hidden = Hidden(wall=[])
        self.hand_state = HandState()
        self.offers: Offers = Offers({}, {})  # the turn's, or a ClaimWindow in CALLS and CHANKAN
        self.decisions: list[tuple[int, Action]] = []
        self.results: list[dict] = []  # one per hand: the plain data of what settle produced
        self.final: dict | None = None
        self.last_hand: int | None = None  # the session's time is up: the game ends after this hand (TimeUp)
        self._events: list[Event] = []
        self.start_events = self._begin_game()

    # ---- public interface -------------------------------------------------

    @property
    def over(self) -> bool:
        """No more decisions: the game ended, or its explicit walls ran out."""
        return self.public.phase in ENDED

    def legal_actions(self, seat: int) -> list[Action]:
        """Exactly the decisions `seat` is offered now (empty if it has none)."""
        offers = self.offers
        return [] if seat in offers.answers else list(offers.options.get(seat, ()))

    def waiting_for(self) -> list[int]:
        """Seats whose decision the game is waiting for."""
        offers = self.offers  # Offers.waiting, inlined: it is asked before every decision
        if not offers.answers:
            return list(offers.options)
        return [s for s in offers.options if s not in offers.answers]

    @property
    def state(self) -> GameState:
        """The whole state, for the functions that read it (its parts are this game's own)."""
        return GameState(self.public, self.private, self.hidden, self.hand_state)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply one decision; returns the events it caused.  Raises ActionError if illegal."""
        if type(action) is TimeUp:
            return self._time_up(seat, action)
        pending = self.offers
        offers = pending.options.get(seat) if type(seat) is int and seat not in pending.answers else None
        if offers is None:
            self._check(seat, action)
        else:
            for offer in offers:
                if offer is action:
                    break  # the very value offered (_check's first test, inlined: every decision)
            else:
                self._check(seat, action)
        self.decisions.append((seat, action))
        self._events = []
        if self.public.phase is Phase.TURN:
            self._turn_action(seat, action)
        else:
            window: ClaimWindow = self.offers  # type: ignore[assignment]  # CALLS, CHANKAN: a claim window
            window.answers[seat] = action
            if len(window.answers) == len(window.options):  # every seat asked has answered
                if self.public.phase is Phase.CALLS:
                    self._resolve_calls(window.seat, window.tile, window.answers)
                else:
                    self._resolve_chankan(window)
        return self._events

    def _time_up(self, seat: int, action: TimeUp) -> list[Event]:
        """The table's TimeUp: the game will end after the hand in play and `extra_hands` more."""
        if seat != TABLE_SEAT:
            raise ActionError("'time_up' is the table's decision, not a seat's")
        if self.over:
            raise ActionError("the game is over")
        if self.last_hand is not None:
            raise ActionError("the time is already up")
        self.decisions.append((seat, action))
        self.last_hand = flow.last_hand_after_time_up(self.public.hand_number, action.extra_hands)
        return []

    def snapshot(self) -> "Game":
        return copy.deepcopy(self)

    @property
    def seed_hash(self) -> str | None:
        return seed_hash(self.seed) if self.seed is not None else None

    # ---- checking ---------------------------------------------------------

    def _check(self, seat: int, action: Action) -> None:
        pending = self.offers
        offers = pending.options.get(seat) if type(seat) is int and seat not in pending.answers else None
        if offers and any(o is action for o in offers):
            return  # the very value offered
        if self.over:
            raise ActionError("the game is over")
        if not isinstance(seat, int) or not 0 <= seat <= 3:
            raise ActionError(f"seat {seat!r} does not exist: seats are 0-3")
        if type(action) not in ACTION_TYPES:
            raise ActionError(f"{action!r} is not an action")
        if any(not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < 136 for t in _tiles_of(action)):
            raise ActionError(f"{action!r} names a tile that is not an id 0-135")
        offers = self.offers.open_to(seat)
        if not offers:
            raise ActionError(f"it is not seat {seat}'s decision now")
        if action in offers:
            return
        if isinstance(action, (Chi, Pon, Kakan)) and self._offered_by_face(seat, action, offers):
            return
        if isinstance(action, Discard):
            # Any id of the same face as an offered discard is the same decision.
            face = self._face(action.tile)
            hand = self.private[seat].hand
            if action.tile in hand and any(isinstance(o, Discard) and o.riichi == action.riichi
                                           and self._face(o.tile) == face for o in offers):
                return
            if action.tile not in hand:
                raise ActionError(f"tile {action.tile} is not in seat {seat}'s hand")
            raise ActionError("that discard is not allowed now" + (
                " with riichi" if action.riichi else " (swap-calling, or the hand is locked by riichi)"))
        raise ActionError(f"'{action_name(action)}' is not one of seat {seat}'s options now: "
                          f"{', '.join(sorted({action_name(o) for o in offers}))}")

    def _offered_by_face(self, seat: int, action: Chi | Pon | Kakan, offers: list[Action]) -> bool:
        """A call with other ids of the same faces as an offered one is the same decision."""
        tiles = action.tiles if isinstance(action, (Chi, Pon)) else (action.tile,)
        hand = list(self.private[seat].hand)
        for t in tiles:
            if t not in hand:
                return False
            hand.remove(t)
        faces = sorted(self._face(t) for t in tiles)
        for offer in offers:
            if type(offer) is type(action):
                offered = offer.tiles if isinstance(offer, (Chi, Pon)) else (offer.tile,)
                if sorted(self._face(t) for t in offered) == faces:
                    return True
        return False

    def _face(self, tile: int) -> tuple[int, bool]:
        return tile >> 2, an.is_red_id(tile, self.rules.red_fives)

    # ---- hands ------------------------------------------------------------

    def _begin_game(self) -> list[Event]:
        self._events = [Event(EventType.GAME_START, {"rules": self.rules.name, "overrides": dict(self.overrides),
                                             "names": list(self.names),
                                             "seed_hash": self.seed_hash, "scores": list(self.public.scores)})]
        self._start_hand()
        return self._events

    def _start_hand(self) -> None:
        p = self.public
        number = p.hand_number
        if self.walls is not None:
            if number >= len(self.walls):
                p.phase = Phase.STOPPED
                self._emit(EventType.STOPPED, {"reason": f"the walls given end after hand {number}"})
                return
            wall = list(self.walls[number])
        else:
            wall = shuffled_wall(self.seed, number)
        self.hidden = Hidden(wall=wall)
        p.seats = [SeatPublic() for _ in range(4)]
        p.dora_indicators = [wall[DORA_INDICATORS[0]]]
        p.kongs = []
        p.calls_made = False
        p.last_discard = None
        self.hand_state = HandState()
        hands = deal(wall, p.dealer)
        self.private = [Private(hand=sorted(h), counts=an.counts34(h)) for h in hands]
        p.tiles_left = self.hidden.tiles_left
        self._emit(EventType.HAND_START, {"round": p.round_name, "round_wind": p.round_wind, "dealer": p.dealer,
                                  "honba": p.honba, "sticks": p.sticks, "scores": list(p.scores),
                                  "dora_indicators": list(p.dora_indicators), "hand_number": number},
                   {s: {"hand": list(self.private[s].hand)} for s in range(4)})
        for s in range(4):
            self._update_waits(s)
        self._draw(p.dealer)

    def _emit(self, kind: EventType, public: dict, private: dict[int, dict] | None = None) -> None:
        self._events.append(new_event(kind, public, private or {}))

    def _held(self, seat: int) -> list[int]:
        """The seat's 34 counts, its melds' tiles included."""
        melds = self.public.seats[seat].melds
        if not melds:
            return self.private[seat].counts
        held = list(self.private[seat].counts)
        for meld in melds:
            for t in meld.tiles:
                held[t >> 2] += 1
        return held

    def _update_waits(self, seat: int) -> None:
        """The seat's waits (an.hand_waits, inlined) and shanten, of its 13 tiles (3n+1)."""
        priv = self.private[seat]
        melds = len(self.public.seats[seat].melds)
        priv.shanten = s = shanten(priv.counts, melds)
        priv.waits = () if s > 0 else tuple(waits(priv.counts, melds, self._held(seat)))

    def _is_closed(self, seat: int) -> bool:
        return all(m.kind is MeldKind.ANKAN for m in self.public.seats[seat].melds)

    # ---- draws and the turn ---------------------------------------------

    def _draw(self, seat: int, replacement: bool = False) -> None:
        p, h, priv = self.public, self.hidden, self.private[seat]
        if replacement:
            tile = h.wall[REPLACEMENTS[len(p.kongs) - 1]]
        else:
            tile = h.wall[h.next_draw]
            h.next_draw += 1
        p.tiles_left = tiles_left = LIVE_END - h.kongs - h.next_draw  # h.tiles_left, inlined
        priv.take(tile)
        priv.drawn = tile
        if not priv.riichi_furiten:
            priv.temporary_furiten = False
        hs = self.hand_state
        hs.replacement = replacement
        hs.forbidden = NOTHING_FORBIDDEN
        p.turn = seat
        p.phase = Phase.TURN
        self._emit(EventType.DRAW, {"seat": seat, "tiles_left": tiles_left, "replacement": replacement},
                   {seat: {"tile": tile}})
        self.offers = Offers({seat: self._turn_options(seat)}, {})
        hs.drawn_once[seat] = True

    def _turn_options(self, seat: int) -> list[Action]:
        p, priv, rules = self.public, self.private[seat], self.rules
        sp = p.seats[seat]
        hand, counts, drawn = priv.hand, priv.counts, priv.drawn
        options: list[Action] = []
        if drawn is not None:
            # The quick tests in front of each call are the calls' own first tests, inlined.
            if drawn >> 2 in priv.waits and self._can_win(seat, drawn, tsumo=True):
                options.append(TSUMO)
            if rules.abortive_draws and not p.calls_made and not self.hand_state.discarded_once[seat] \
                    and an.nine_terminals(hand):  # self._first_turn(seat), inlined
                options.append(NINE_TERMINALS)
            if p.tiles_left > 0 and len(p.kongs) < 4 and (sp.riichi or sp.melds or 4 in counts):
                options.extend(self._kong_options(seat))
        if sp.riichi:
            options.append(DISCARDS[drawn])
            return options
        forbidden = self.hand_state.forbidden
        if forbidden:
            faces = an.distinct_by_face(hand, rules.red_fives)
            options.extend(DISCARDS[t] for t in faces if t >> 2 not in forbidden)
        else:  # an.distinct_by_face, inlined, each face's discard taken at once
            face = an.FACE_RED if rules.red_fives else an.FACE
            last = -1
            for t in hand:
                f = face[t]
                if f != last:
                    options.append(DISCARDS[t])
                    last = f
        # A tile lowers shanten by one at most: from 2 or more before the draw, no discard
        # leaves the hand waiting, and an.riichi_discards would find none.
        if drawn is not None and priv.shanten < 2 and self._may_riichi(seat):
            held = self._held(seat)
            options.extend(RIICHI_DISCARDS[t] for t in an.riichi_discards(hand, counts, len(sp.melds), held, rules.red_fives))
        return options

    def _kong_options(self, seat: int) -> list[Action]:
        """Concealed and added kongs in the seat's own turn (after riichi: docs/RULINGS.md's rule)."""
        priv, sp = self.private[seat], self.public.seats[seat]
        counts = priv.counts
        if sp.riichi:
            k = priv.drawn >> 2
            ok = counts[k] == 4 and an.ankan_after_riichi_ok(priv.hand, priv.drawn, len(sp.melds), self._held(seat))
            return [Ankan(k)] if ok else []
        options: list[Action] = [Ankan(k) for k in range(34) if counts[k] == 4] if 4 in counts else []
        for meld in sp.melds:
            if meld.kind is MeldKind.PON and counts[meld.tiles[0] >> 2]:
                options.extend(Kakan(t) for t in priv.hand if t >> 2 == meld.tiles[0] >> 2)
        return options

    def _may_riichi(self, seat: int) -> bool:
        p, rules = self.public, self.rules
        enough_points = rules.riichi_min_points <= 0 or p.scores[seat] >= rules.riichi_min_points
        return (self._is_closed(seat) and p.tiles_left >= rules.riichi_min_wall and enough_points
                and not p.seats[seat].riichi)

    def _first_turn(self, seat: int) -> bool:
        """The seat's first draw, with no call made yet this hand."""
        return self.hand_state.first_turn(seat, self.public.calls_made)

    def _turn_action(self, seat: int, action: Action) -> None:
        if isinstance(action, Discard):
            self._discard(seat, action.tile, action.riichi)
        elif isinstance(action, Tsumo):
            self._win([seat], self.private[seat].drawn, discarder=None)
        elif isinstance(action, Ankan):
            self._ankan(seat, action.kind)
        elif isinstance(action, Kakan):
            self._kakan(seat, action.tile)
        elif isinstance(action, NineTerminals):
            self._abortive(AbortiveReason.NINE_TERMINALS, seat=seat)

    def _discard(self, seat: int, tile: int, riichi: bool) -> None:
        p, priv = self.public, self.private[seat]
        sp, hs = p.seats[seat], self.hand_state
        if hs.pending_dora:
            self._reveal_pending_dora()
        if sp.ippatsu and not riichi and sp.riichi:
            sp.ippatsu = False  # the riichi player's next discard ends ippatsu
        tsumogiri = tile == priv.drawn
        priv.hand.remove(tile)  # priv.give(tile), inlined
        priv.counts[tile >> 2] -= 1
        priv.drawn = None
        sp.discards.append(tile)
        sp.tsumogiri.append(tsumogiri)
        first = not p.calls_made and not hs.discarded_once[seat]  # hs.first_turn, inlined (every discard)
        hs.discarded_once[seat] = True
        if riichi:
            sp.riichi_index = len(sp.discards) - 1
            hs.riichi_pending = seat
            sp.double_riichi = first
            sp.ippatsu = True
        if first:
            hs.first_discards.append(tile >> 2)
        # A tsumogiri leaves the 13 tiles the waits were found for.  Else, as a draw (or a
        # call) and a discard lower shanten by one at most, a hand of 3 or more is still 2
        # or more: no waits, and the shanten kept is one less, a lower bound (exact below 2).
        if not tsumogiri:
            if priv.shanten >= 3:
                priv.shanten -= 1
            else:
                self._update_waits(seat)
        p.last_discard = tile
        self._emit(EventType.DISCARD, {"seat": seat, "tile": tile, "tsumogiri": tsumogiri, "riichi": riichi})
        self._open_call_window(seat, tile)

    # ---- the call window --------------------------------------------------

    def _open_call_window(self, discarder: int, tile: int) -> None:
        p = self.public
        last = p.tiles_left == 0
        offers: dict[int, list[Action]] = {}
        kind = tile >> 2
        for k, seat in enumerate(SEATS_AFTER[discarder], 1):
            priv = self.private[seat]
            # Most discards give a seat nothing: not a wait, no pair of it, no chow shape.
            if kind not in priv.waits and priv.counts[kind] < 2 and not (k == 1 and an.chi_possible(priv.counts, kind)):
                continue
            options = self._call_options(seat, discarder, tile, last, next_seat=k == 1)
            if options:
                offers[seat] = options + [PASS]
        if offers:
            # Whether anyone may call is the offered seats' business alone: they get their
            # offers, and no event tells the others (every discard opens the window, for
            # everyone's view; with no offers it closes at once, and is not even made).
            self.offers = ClaimWindow(offers, {}, discarder, tile)
            p.phase = Phase.CALLS
        else:
            self._resolve_calls(discarder, tile, {})

    def _call_options(self, seat: int, discarder: int, tile: int, last: bool, next_seat: bool) -> list[Action]:
        options: list[Action] = []
        k = tile >> 2
        priv, red = self.private[seat], self.rules.red_fives
        if k in priv.waits and self._can_win(seat, tile, tsumo=False):  # (_can_win's first test, inlined)
            options.append(RON)
        if last or self.public.seats[seat].riichi:
            return options  # the discard after the last tile may only be claimed to win
        counts = priv.counts
        if counts[k] >= 2:
            for pair in an.pon_options(priv.hand, tile, red):
                if self._has_discard_after(seat, pair, tile, is_chi=False):
                    options.append(Pon(pair))
            if counts[k] == 3 and len(self.public.kongs) < 4:
                options.append(DAIMINKAN)
        if next_seat and an.chi_possible(counts, k):
            for pair in an.chi_options(priv.hand, tile, red):
                if self._has_discard_after(seat, pair, tile, is_chi=True):
                    options.append(Chi(pair))
        return options

    def _has_discard_after(self, seat: int, pair: tuple[int, int], called: int, is_chi: bool) -> bool:
        if not self.rules.kuikae_forbidden:
            return True
        forbidden = an.swap_forbidden(called, pair, is_chi)
        rest = list(self.private[seat].hand)
        for t in pair:
            rest.remove(t)
        return any(t >> 2 not in forbidden for t in rest)

    def _resolve_calls(self, discarder: int, tile: int, answers: dict[int, Action]) -> None:
        """The claim window on `discarder`'s `tile` closes with these answers."""
        order = SEATS_AFTER[discarder]
        rons = [s for s in order if isinstance(answers.get(s), Ron)] if answers else None
        if rons:
            if len(rons) > self.rules.max_ron_winners:
                if self.rules.abortive_draws:
                    self._abortive(AbortiveReason.TRIPLE_RON, seats=rons)
                    return
                rons = rons[:self.rules.max_ron_winners]
            self._win(rons, tile, discarder=discarder)
            return
        self._let_go_by(order, tile)
        if self.hand_state.riichi_pending is not None:
            self._accept_riichi()
        caller = self._caller(order, answers) if answers else None
        if self._check_abortive_after_discard(called=caller is not None):
            return
        if caller is None:
            self._next_draw(discarder)
        else:
            self._call(caller[0], caller[1], discarder, tile)

    @staticmethod
    def _caller(order: Sequence[int], answers: dict[int, Action]) -> tuple[int, Action] | None:
        """The call that stands: a pon or kong before a chi (EMA 'Claiming Discards')."""
        chi = None
        for seat in order:
            answer = answers.get(seat)
            if isinstance(answer, (Pon, Daiminkan)):
                return seat, answer
            if chi is None and isinstance(answer, Chi):
                chi = (seat, answer)
        return chi

    def _let_go_by(self, seats: Sequence[int], tile: int) -> None:
        """EMA 'Furiten': a player who lets a winning tile go by is furiten until their next draw."""
        for s in seats:
            priv = self.private[s]
            if tile >> 2 in priv.waits:
                priv.temporary_furiten = True
                if self.public.seats[s].riichi:
                    priv.riichi_furiten = True

    def _accept_riichi(self) -> None:
        seat = self.hand_state.riichi_pending
        if seat is None:
            return
        self.hand_state.riichi_pending = None
        p = self.public
        p.seats[seat].riichi = True
        p.scores[seat] -= 1000
        p.sticks += 1
        self._emit(EventType.RIICHI_ACCEPTED, {"seat": seat, "scores": list(p.scores), "sticks": p.sticks})

    def _check_abortive_after_discard(self, called: bool) -> bool:
        """Once a discard is not won on: four winds (and not called), four riichi, four kongs by
        more than one player (presets with abortive draws).  True if the hand ended."""
        if not self.rules.abortive_draws:
            return False
        p = self.public
        fd = self.hand_state.first_discards
        if not called and len(fd) == 4 and not p.calls_made and fd[0] in WINDS and all(k == fd[0] for k in fd):
            self._abortive(AbortiveReason.FOUR_WINDS)
            return True
        a, b, c, d = p.seats
        if a.riichi and b.riichi and c.riichi and d.riichi:
            self._abortive(AbortiveReason.FOUR_RIICHI)
            return True
        if len(p.kongs) == 4 and len(set(p.kongs)) > 1:
            self._abortive(AbortiveReason.FOUR_KONGS)
            return True
        return False

    def _next_draw(self, discarder: int) -> None:
        if self.public.tiles_left == 0:
            self._exhaustive_draw()
        else:
            self._draw((discarder + 1) % 4)

    def _call(self, seat: int, action: Action, discarder: int, tile: int) -> None:
        p, priv = self.public, self.private[seat]
        self._break_first_go_around()
        dp = p.seats[discarder]
        dp.claimed.add(len(dp.discards) - 1)
        if isinstance(action, Daiminkan):
            own = tuple(t for t in priv.hand if t >> 2 == tile >> 2)
            kind = MeldKind.KAN
        else:
            own = action.tiles
            kind = MeldKind.CHI if isinstance(action, Chi) else MeldKind.PON
        for t in own:
            priv.give(t)
        meld = OpenMeld(kind, tuple(sorted((*own, tile))), tile, discarder)
        p.seats[seat].melds.append(meld)
        self._track_pao(seat, discarder, tile)
        priv.temporary_furiten = priv.riichi_furiten  # a claim ends temporary furiten
        p.last_discard = None
        self._emit(EventType.CALL, {"seat": seat, "meld": kind.value, "tiles": list(meld.tiles), "called": tile,
                            "from": discarder})
        if kind is MeldKind.KAN:
            self._declare_kong(seat, open_kong=True)
            return
        if self.rules.kuikae_forbidden:
            self.hand_state.forbidden = frozenset(an.swap_forbidden(tile, own, kind is MeldKind.CHI))
        else:
            self.hand_state.forbidden = NOTHING_FORBIDDEN
        priv.drawn = None
        p.turn, p.phase = seat, Phase.TURN
        self.offers = Offers({seat: self._turn_options(seat)}, {})

    def _break_first_go_around(self) -> None:
        p = self.public
        p.calls_made = True
        for sp in p.seats:
            sp.ippatsu = False

    def _track_pao(self, seat: int, discarder: int, tile: int) -> None:
        """EMA 'Yakuman': liability for the third dragon set or the fourth wind set fed by a discard."""
        if not self.rules.pao:
            return
        sets = [m.tiles[0] >> 2 for m in self.public.seats[seat].melds if m.kind is not MeldKind.CHI]
        k = tile >> 2
        dragons = k in (31, 32, 33) and sum(1 for x in sets if x in (31, 32, 33)) == 3  # daisangen
        winds = k in WINDS and sum(1 for x in sets if x in WINDS) == 4  # daisuushii
        if dragons or winds:
            self.hand_state.liable[seat] = discarder

    # ---- kongs ------------------------------------------------------------

    def _ankan(self, seat: int, kind: int) -> None:
        p, priv = self.public, self.private[seat]
        if self.hand_state.pending_dora:
            self._reveal_pending_dora()
        tiles = tuple(t for t in priv.hand if t >> 2 == kind)
        for t in tiles:
            priv.give(t)
        p.seats[seat].melds.append(OpenMeld(MeldKind.ANKAN, tiles))
        if self.rules.ippatsu_broken_by_concealed_kong:
            self._break_first_go_around()
        else:
            p.calls_made = True
        self._emit(EventType.CALL, {"seat": seat, "meld": "ankan", "tiles": list(tiles), "called": None, "from": None})
        if self.rules.chankan_concealed_kong_kokushi:
            robbers = {s: [Ron(), Pass()] for s in self._others(seat) if self._kokushi_robs(s, tiles[0])}
            if robbers:
                self._open_chankan(seat, tiles[0], robbers, MeldKind.ANKAN)
                return
        self._declare_kong(seat, open_kong=False)

    def _kakan(self, seat: int, tile: int) -> None:
        p, priv = self.public, self.private[seat]
        if self.hand_state.pending_dora:
            self._reveal_pending_dora()
        meld = next(m for m in p.seats[seat].melds if m.kind is MeldKind.PON and m.tiles[0] >> 2 == tile >> 2)
        priv.give(tile)
        meld.kind = MeldKind.KAKAN
        meld.tiles = tuple(sorted((*meld.tiles, tile)))
        self._emit(EventType.CALL, {"seat": seat, "meld": "kakan", "tiles": list(meld.tiles), "called": tile,
                                    "from": None})
        robbers = {s: [Ron(), Pass()] for s in self._others(seat) if self._can_win(s, tile, tsumo=False, chankan=True)}
        if robbers:
            self._open_chankan(seat, tile, robbers, MeldKind.KAKAN)
            return
        self._let_go_by(self._others(seat), tile)
        self._break_first_go_around()
        self._declare_kong(seat, open_kong=True)

    def _others(self, seat: int) -> tuple[int, int, int]:
        return SEATS_AFTER[seat]

    def _kokushi_robs(self, seat: int, tile: int) -> bool:
        return (not self.public.seats[seat].melds and self._can_win(seat, tile, tsumo=False, chankan=True)
                and self._win_score(seat, tile, False, chankan=True).yaku[0][0] == "kokushi")

    def _open_chankan(self, seat: int, tile: int, robbers: dict[int, list[Action]], robbed: MeldKind) -> None:
        self.public.phase = Phase.CHANKAN
        self.offers = ClaimWindow(robbers, {}, seat, tile, robbed)  # no event: as with a discard's

    def _resolve_chankan(self, window: ClaimWindow) -> None:
        seat, tile = window.seat, window.tile
        order = SEATS_AFTER[seat]
        rons = [s for s in order if isinstance(window.answers.get(s), Ron)]
        if rons:
            if len(rons) > self.rules.max_ron_winners and self.rules.abortive_draws:
                self._abortive(AbortiveReason.TRIPLE_RON, seats=rons)
                return
            self._win(rons[:self.rules.max_ron_winners], tile, discarder=seat, chankan=True)
            return
        self._let_go_by(order, tile)
        concealed = window.robbed is MeldKind.ANKAN
        if not concealed:
            self._break_first_go_around()
        self._declare_kong(seat, open_kong=not concealed)

    def _declare_kong(self, seat: int, open_kong: bool) -> None:
        """Count the kong, turn its indicator (now or after the replacement draw), draw the replacement."""
        p = self.public
        p.kongs.append(seat)
        self.hidden.kongs = len(p.kongs)
        if open_kong and self.rules.kan_dora_timing is KanDoraTiming.OPEN_AFTER_REPLACEMENT:
            self.hand_state.pending_dora += 1
        else:
            self._reveal_dora()
        self._update_waits(seat)
        self._draw(seat, replacement=True)

    def _reveal_dora(self) -> None:
        p = self.public
        p.dora_indicators.append(self.hidden.wall[DORA_INDICATORS[len(p.dora_indicators)]])
        self._emit(EventType.DORA, {"indicator": p.dora_indicators[-1], "dora_indicators": list(p.dora_indicators)})

    def _reveal_pending_dora(self) -> None:
        hs = self.hand_state
        while hs.pending_dora:
            hs.pending_dora -= 1
            self._reveal_dora()

    # ---- winning ------------------------------------------------------------

    def _can_win(self, seat: int, tile: int, tsumo: bool, chankan: bool = False) -> bool:
        priv = self.private[seat]
        if tsumo:
            if priv.drawn is None or priv.drawn >> 2 not in priv.waits:
                return False
        else:
            if tile >> 2 not in priv.waits:
                return False
            if an.furiten(priv.waits, self.public.seats[seat].discards, priv.temporary_furiten, priv.riichi_furiten):
                return False
        try:
            self._win_score(seat, tile, tsumo, chankan=chankan)
        except settle.NoWin:
            return False
        return True

    def _win_score(self, seat: int, tile: int, tsumo: bool, chankan: bool = False) -> HandScore:
        return settle.score_win(self.state, self.rules, seat, tile, tsumo, chankan)

    def _win(self, winners: list[int], tile: int, discarder: int | None, chankan: bool = False) -> None:
        # A rinshan tsumo before a pending kan indicator is turned does not count it.
        self._end_hand(settle.settle_wins(self.state, self.rules, winners, tile, discarder, chankan))

    def _exhaustive_draw(self) -> None:
        self._end_hand(settle.settle_exhaustive_draw(self.state, self.rules))

    def _abortive(self, reason: AbortiveReason, seat: int | None = None, seats: list[int] | None = None) -> None:
        # Four riichi: the fourth stick is paid before the hand is abandoned; triple ron: not.
        if reason is not AbortiveReason.TRIPLE_RON:
            self._accept_riichi()
        self._end_hand(settle.settle_abortive(self.state, reason, seat=seat, seats=seats))

    def _end_hand(self, result: HandOutcome) -> None:
        """Apply a hand's result, then deal the next hand or finish the game."""
        p = self.public
        p.scores = list(result.scores)
        if isinstance(result, WinResult):
            p.sticks = 0  # the winners took them all
        self.results.append(result.to_data())
        self.offers = Offers({}, {})
        self._emit(EventType.HAND_END, {"result": result.to_data()}, {})
        deal = flow.next_deal(p, self.rules, result, self.last_hand)
        p.round_wind, p.dealer, p.honba, p.hand_number = deal.round_wind, deal.dealer, deal.honba, deal.hand_number
        if deal.finished:
            self._finish()
        else:
            self._start_hand()

    def _finish(self) -> None:
        """The one place a game ends (flow.final_result says how)."""
        p = self.public
        final = flow.final_result(p, self.rules, self.seed)
        p.scores, p.sticks = list(final.scores), final.sticks
        self.final = final.to_data()
        p.phase = Phase.GAME_OVER
        self.offers = Offers({}, {})
        self._emit(EventType.GAME_END, final.to_data())
