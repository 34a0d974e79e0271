"""The end of a hand: wins (with several winners and liability), exhaustive and abortive draws.

Functions of the state and the rules: each returns the hand's result (server.game.results),
with the points it moves and the scores after them; `Game` applies it.  The sum of scores
and sticks never changes.
"""

from __future__ import annotations

from typing import Any

from protocol.events import AbortiveReason
from server.game import analysis as an
from server.game.results import AbortiveDraw, ExhaustiveDraw, Winner, WinResult
from server.game.state import GameState
from server.game.wall import URA_INDICATORS
from server.rules.config import Rules
from server.rules.context import WinContext
from server.rules.melds import Meld
from server.rules.points import payment_for, round_up_100
from server.rules.scoring import HandScore, ScoringError, score_hand

NOTEN_TOTAL = 3000


class NoWin(Exception):
    """The tile would not make a scoring win."""


def score_win(state: GameState, rules: Rules, seat: int, tile: int, tsumo: bool, chankan: bool,
              honba: int | None = None) -> HandScore:
    """Score `seat` winning on `tile`; raises NoWin where the hand cannot win."""
    p, priv, hand_state = state.public, state.private[seat], state.hand_state
    sp = p.seats[seat]
    red = rules.red_fives
    hand = list(priv.hand) if tsumo else [*priv.hand, tile]
    melds = [Meld(m.kind, tuple(an.rules_tile(t, red) for t in m.tiles)) for m in sp.melds]
    first_turn = hand_state.first_turn(seat, p.calls_made)
    dealer = seat == p.dealer
    last = p.tiles_left == 0
    rinshan = tsumo and hand_state.replacement
    ctx = WinContext(
        tsumo=tsumo,
        riichi=sp.riichi and not sp.double_riichi,
        double_riichi=sp.riichi and sp.double_riichi,
        ippatsu=sp.riichi and sp.ippatsu,
        rinshan=rinshan,
        chankan=chankan,
        haitei=tsumo and last and not rinshan,
        houtei=not tsumo and last and not chankan,
        tenhou=tsumo and dealer and first_turn,
        chiihou=tsumo and not dealer and first_turn,
        renhou=not tsumo and not dealer and not p.calls_made and not hand_state.drawn_once[seat],
        seat_wind=(seat - p.dealer) % 4,
        round_wind=p.round_wind,
        dora_indicators=tuple(t >> 2 for t in p.dora_indicators),
        ura_indicators=tuple(t >> 2 for t in _ura(state)),
        honba=p.honba if honba is None else honba,
        sticks=p.sticks,
    )
    try:
        return score_hand([an.rules_tile(t, red) for t in hand], an.rules_tile(tile, red), melds, ctx, rules)
    except ScoringError as error:
        raise NoWin(str(error)) from None


def in_turn_order(seats: list[int], after: int) -> list[int]:
    """`seats` in turn order from the seat after `after` (EMA 'Multiple Ron': the first
    winner after the discarder is the one who takes the counters and the sticks)."""
    return sorted(seats, key=lambda s: (s - after - 1) % 4)


def settle_wins(state: GameState, rules: Rules, winners: list[int], tile: int, discarder: int | None,
                chankan: bool) -> WinResult:
    """Pay each winner (EMA 'Scoring'; docs/RULINGS.md: several winners, liability, sticks).
    `winners` may come in any order: the first in turn order from the discarder is the first."""
    p = state.public
    if discarder is not None:
        winners = in_turn_order(winners, discarder)
    deltas = [0, 0, 0, 0]
    tsumo = discarder is None
    first = winners[0]
    wins = []
    for seat in winners:
        honba = p.honba if (rules.counters_to_every_winner or seat == first) else 0
        score = score_win(state, rules, seat, tile, tsumo, chankan, honba)
        payers = _pay(state, seat, score, discarder, honba)
        for payer, amount in payers.items():
            deltas[payer] -= amount
            deltas[seat] += amount
        wins.append((seat, score, payers))
    sticks = _share_sticks(state, rules, winners)
    for seat, n in sticks.items():
        deltas[seat] += 1000 * n
    records = tuple(_winner(state, seat, discarder, tile, score, payers, sticks.get(seat, 0))
                    for seat, score, payers in wins)
    ura = _ura(state) if any(p.seats[s].riichi for s in winners) else ()
    return WinResult(records, _four(deltas), _four(p.scores[s] + deltas[s] for s in range(4)), ura)


def _four(values: Any) -> tuple[int, int, int, int]:
    a, b, c, d = values
    return a, b, c, d


def _ura(state: GameState) -> tuple[int, ...]:
    wall = state.hidden.wall
    return tuple(wall[URA_INDICATORS[i]] for i in range(len(state.public.dora_indicators)))


def _pay(state: GameState, seat: int, score: HandScore, discarder: int | None, honba: int) -> dict[int, int]:
    """Who pays the winner what, counters included, liability applied."""
    p = state.public
    dealer = seat == p.dealer
    liable = state.hand_state.liable[seat]
    if liable is not None and score.yakuman:
        # The liable seat fed the third dragon / fourth wind set, so every win of this
        # seat holds that yakuman (even where the rules list only one yakuman).
        return _pay_liable(state, seat, score, discarder, honba, liable)
    payment = score.payment
    if discarder is not None:
        return {discarder: payment.ron}
    if dealer:
        return {s: payment.all for s in range(4) if s != seat}
    return {s: (payment.dealer if s == p.dealer else payment.non_dealer) for s in range(4) if s != seat}


def _pay_liable(state: GameState, seat: int, score: HandScore, discarder: int | None, honba: int,
                liable: int) -> dict[int, int]:
    """Liability: the feeder pays all of a tsumo; a ron is split half and half with the
    discarder, who alone pays the counters.  Other yakuman of the hand are paid as usual."""
    p = state.public
    dealer = seat == p.dealer
    one = 8000 * (6 if dealer else 4)  # the liable yakuman's full value
    rest = score.yakuman - 1
    payers: dict[int, int] = {}

    def add(who: int, amount: int) -> None:
        payers[who] = payers.get(who, 0) + amount

    if discarder is None:
        add(liable, one + 300 * honba)
        if rest:
            other = payment_for(8000 * rest, dealer, True, 0)
            for s in range(4):
                if s != seat:
                    add(s, other.all if dealer else (other.dealer if s == p.dealer else other.non_dealer))
    else:
        total = one * (rest + 1)
        half = round_up_100(one // 2)
        if liable == discarder:
            add(discarder, total + 300 * honba)
        else:
            add(liable, half)
            add(discarder, total - half + 300 * honba)
    return payers


def _share_sticks(state: GameState, rules: Rules, winners: list[int]) -> dict[int, int]:
    """EMA: each riichi winner takes their own stick back, the first winner the rest;
    tenhou: the first winner after the discarder takes all."""
    p = state.public
    left = p.sticks
    share: dict[int, int] = {}
    if rules.own_riichi_stick_back and len(winners) > 1:
        for seat in winners[1:]:
            if p.seats[seat].riichi and left:
                share[seat] = 1
                left -= 1
    share[winners[0]] = share.get(winners[0], 0) + left
    return {s: n for s, n in share.items() if n}


def _winner(state: GameState, seat: int, discarder: int | None, tile: int, score: HandScore,
            payers: dict[int, int], sticks: int) -> Winner:
    priv, sp = state.private[seat], state.public.seats[seat]
    liable = state.hand_state.liable[seat]
    return Winner(
        seat=seat, discarder=discarder, tile=tile,
        hand=tuple(sorted(priv.hand if discarder is None else [*priv.hand, tile])),
        melds=tuple((m.kind, tuple(m.tiles)) for m in sp.melds),
        han=score.han, fu=score.fu, yaku=tuple(score.yaku), dora=score.dora, limit=score.limit,
        yakuman=score.yakuman, payers=tuple(payers.items()), liable=liable if liable in payers else None,
        sticks=sticks)


def settle_exhaustive_draw(state: GameState, rules: Rules) -> ExhaustiveDraw:
    """EMA 'A Drawn Hand': those not waiting pay those who are, 3,000 in all; nagashi mangan per preset."""
    p = state.public
    tenpai = [s for s in range(4) if state.private[s].waits]
    deltas = [0, 0, 0, 0]
    nagashi = [s for s in range(4) if rules.nagashi_mangan and _nagashi(state, s)]
    if nagashi:
        for seat in nagashi:
            payment = payment_for(2000, seat == p.dealer, True, 0)
            for s in range(4):
                if s != seat:
                    amount = payment.all if seat == p.dealer else (payment.dealer if s == p.dealer else payment.non_dealer)
                    deltas[s] -= amount
                    deltas[seat] += amount
    elif 0 < len(tenpai) < 4:
        gain, loss = NOTEN_TOTAL // len(tenpai), NOTEN_TOTAL // (4 - len(tenpai))
        for s in range(4):
            deltas[s] = gain if s in tenpai else -loss
    hands = tuple((s, tuple(sorted(state.private[s].hand))) for s in tenpai)
    return ExhaustiveDraw(tuple(tenpai), tuple(nagashi), hands,
                          _four(deltas), _four(p.scores[s] + deltas[s] for s in range(4)))


def _nagashi(state: GameState, seat: int) -> bool:
    sp = state.public.seats[seat]
    return bool(sp.discards) and not sp.claimed and all(t >> 2 in an.TERMINAL_HONOUR_KINDS for t in sp.discards)


def settle_abortive(state: GameState, reason: AbortiveReason, seat: int | None = None,
                    seats: list[int] | None = None) -> AbortiveDraw:
    """An abortive draw pays nothing and the dealer always repeats (flow.next_deal), so
    nothing in it depends on who is waiting: the result does not say (only EMA 'A Drawn Hand',
    the exhaustive draw, has "the waiting players are shown").  It carries what the draw itself
    made public: the nine-terminals hand `seat` showed, the `seats` that called the triple ron."""
    hand = tuple(state.private[seat].hand) if seat is not None else None
    return AbortiveDraw(reason, _four(state.public.scores), seat=seat, hand=hand,
                        seats=tuple(seats) if seats is not None else None)
