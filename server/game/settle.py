"""The end of a hand: wins (with several winners and liability), exhaustive and abortive draws.

Every function returns the hand's result as plain data and moves the points; the sum of
scores and sticks never changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.game import analysis as an
from server.game.wall import URA_INDICATORS
from server.rules.context import WinContext
from server.rules.melds import Meld
from server.rules.points import payment_for, round_up_100
from server.rules.scoring import HandScore, ScoringError, score_hand

if TYPE_CHECKING:
    from server.game.engine import Game

NOTEN_TOTAL = 3000


class NoWin(Exception):
    """The tile would not make a scoring win."""


def score_win(game: "Game", seat: int, tile: int, tsumo: bool, chankan: bool, honba: int | None = None) -> HandScore:
    """Score `seat` winning on `tile`; raises NoWin where the hand cannot win."""
    p, priv, rules = game.public, game.private[seat], game.rules
    sp = p.seats[seat]
    red = rules.red_fives
    hand = list(priv.hand) if tsumo else [*priv.hand, tile]
    melds = [Meld(m.kind, tuple(an.rules_tile(t, red) for t in m.tiles)) for m in sp.melds]
    first_turn = not p.calls_made and not game._discarded_once[seat]
    dealer = seat == p.dealer
    last = p.tiles_left == 0
    rinshan = tsumo and game._replacement
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
        renhou=not tsumo and not dealer and not p.calls_made and not game._drawn_once[seat],
        seat_wind=(seat - p.dealer) % 4,
        round_wind=p.round_wind,
        dora_indicators=tuple(t >> 2 for t in p.dora_indicators),
        ura_indicators=tuple(game.hidden.wall[URA_INDICATORS[i]] >> 2 for i in range(len(p.dora_indicators))),
        honba=p.honba if honba is None else honba,
        sticks=p.sticks,
    )
    try:
        return score_hand([an.rules_tile(t, red) for t in hand], an.rules_tile(tile, red), melds, ctx, rules)
    except ScoringError as error:
        raise NoWin(str(error)) from None


def settle_wins(game: "Game", winners: list[int], tile: int, discarder: int | None, chankan: bool) -> dict[str, Any]:
    """Pay each winner (EMA 'Scoring'; docs/RULINGS.md: several winners, liability, sticks)."""
    p, rules = game.public, game.rules
    deltas = [0, 0, 0, 0]
    tsumo = discarder is None
    first = winners[0]
    wins = []
    for seat in winners:
        honba = p.honba if (rules.counters_to_every_winner or seat == first) else 0
        score = score_win(game, seat, tile, tsumo, chankan, honba)
        payers = _pay(game, seat, score, discarder, honba)
        for payer, amount in payers.items():
            deltas[payer] -= amount
            deltas[seat] += amount
        wins.append(_win_record(game, seat, discarder, tile, score, payers))
    sticks = _share_sticks(game, winners)
    for seat, n in sticks.items():
        deltas[seat] += 1000 * n
    for w in wins:
        w["sticks"] = sticks.get(w["seat"], 0)
    p.sticks = 0
    for s in range(4):
        p.scores[s] += deltas[s]
    return {"type": "win", "wins": wins, "deltas": deltas, "scores": list(p.scores),
            "ura_indicators": _ura(game) if any(game.public.seats[s].riichi for s in winners) else []}


def _ura(game: "Game") -> list[int]:
    return [game.hidden.wall[URA_INDICATORS[i]] for i in range(len(game.public.dora_indicators))]


def _pay(game: "Game", seat: int, score: HandScore, discarder: int | None, honba: int) -> dict[int, int]:
    """Who pays the winner what, counters included, liability applied."""
    p = game.public
    dealer = seat == p.dealer
    liable = game._pao[seat]
    if liable is not None and score.yakuman:
        # The liable seat fed the third dragon / fourth wind set, so every win of this
        # seat holds that yakuman (even where the rules list only one yakuman).
        return _pay_liable(game, seat, score, discarder, honba, liable)
    payment = score.payment
    if discarder is not None:
        return {discarder: payment.ron}
    if dealer:
        return {s: payment.all for s in range(4) if s != seat}
    return {s: (payment.dealer if s == p.dealer else payment.non_dealer) for s in range(4) if s != seat}


def _pay_liable(game: "Game", seat: int, score: HandScore, discarder: int | None, honba: int, liable: int) -> dict[int, int]:
    """Liability: the feeder pays all of a tsumo; a ron is split half and half with the
    discarder, who alone pays the counters.  Other yakuman of the hand are paid as usual."""
    p = game.public
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


def _share_sticks(game: "Game", winners: list[int]) -> dict[int, int]:
    """EMA: each riichi winner takes their own stick back, the first winner the rest;
    tenhou: the first winner after the discarder takes all."""
    p, rules = game.public, game.rules
    left = p.sticks
    share: dict[int, int] = {}
    if rules.own_riichi_stick_back and len(winners) > 1:
        for seat in winners[1:]:
            if p.seats[seat].riichi and left:
                share[seat] = 1
                left -= 1
    share[winners[0]] = share.get(winners[0], 0) + left
    return {s: n for s, n in share.items() if n}


def _win_record(game: "Game", seat: int, discarder: int | None, tile: int, score: HandScore,
                payers: dict[int, int]) -> dict[str, Any]:
    priv, sp = game.private[seat], game.public.seats[seat]
    return {
        "seat": seat, "from": discarder, "tile": tile, "tsumo": discarder is None,
        "hand": sorted(priv.hand if discarder is None else [*priv.hand, tile]),
        "melds": [{"kind": m.kind.value, "tiles": list(m.tiles)} for m in sp.melds],
        "han": score.han, "fu": score.fu, "yaku": [[n, h] for n, h in score.yaku], "dora": score.dora,
        "limit": score.limit, "yakuman": score.yakuman, "points": sum(payers.values()),
        "payers": {str(k): v for k, v in payers.items()}, "liable": game._pao[seat] if game._pao[seat] in payers else None,
    }


def settle_exhaustive_draw(game: "Game") -> dict[str, Any]:
    """EMA 'A Drawn Hand': those not waiting pay those who are, 3,000 in all; nagashi mangan per preset."""
    p, rules = game.public, game.rules
    tenpai = [s for s in range(4) if game.private[s].waits]
    deltas = [0, 0, 0, 0]
    nagashi = [s for s in range(4) if rules.nagashi_mangan and _nagashi(game, s)]
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
    for s in range(4):
        p.scores[s] += deltas[s]
    return {"type": "exhaustive_draw", "tenpai": tenpai, "nagashi": nagashi,
            "hands": {str(s): sorted(game.private[s].hand) for s in tenpai},
            "deltas": deltas, "scores": list(p.scores)}


def _nagashi(game: "Game", seat: int) -> bool:
    sp = game.public.seats[seat]
    return bool(sp.discards) and not sp.claimed and all(t >> 2 in an.TERMINAL_HONOUR_KINDS for t in sp.discards)


def settle_abortive(game: "Game", reason: str, info: dict[str, Any]) -> dict[str, Any]:
    """An abortive draw pays nothing and the dealer always repeats (flow._dealer_repeats), so
    nothing in it depends on who is waiting: the result does not say (only EMA 'A Drawn Hand',
    the exhaustive draw, has "the waiting players are shown").  `info` is what the draw itself
    made public: the nine-terminals hand its player showed, the seats that called the triple ron."""
    return {"type": "abortive_draw", "reason": reason, **info,
            "deltas": [0, 0, 0, 0], "scores": list(game.public.scores)}
