"""The game between hands: dealer repeats, counters, rounds, the end, placement and uma.

docs/RULINGS.md 'Two presets': dealer repeats, game length, negative scores, leftover sticks,
uma, tied final scores, final result.

Functions of the public state and the rules: `next_deal` after each hand and `final_result`
at the end return what comes next; `Game` moves the state on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.game.results import AbortiveDraw, HandOutcome, WinResult
from server.game.state import Public
from server.rules.config import ResultRounding, Rules, TieBreak


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Where the game goes after a hand: the next hand's round, dealer and counters, or the end."""

    round_wind: int
    dealer: int
    honba: int
    hand_number: int
    finished: bool


@dataclass(frozen=True, slots=True)
class FinalResult:
    """The game's end: the scores after the leftover sticks, places, results (uma and oka)."""

    scores: tuple[int, int, int, int]
    places: tuple[int, int, int, int]
    results: tuple[float, float, float, float]
    sticks: int  # riichi sticks still on the table (where the rules give them to no one)
    seed: str | None

    def to_data(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "places": list(self.places), "results": list(self.results),
                "seed": self.seed}


def next_deal(p: Public, rules: Rules, result: HandOutcome, last_hand: int | None = None) -> NextDeal:
    """The counters, the deal and the round after a hand, or whether the game is finished;
    `last_hand`: the number of the hand after which the session's time ends the game (TimeUp)."""
    all_last = p.round_wind >= rules.rounds - 1 and p.dealer == 3
    repeat, dealer_tenpai_or_win = _dealer_repeats(p.dealer, result, rules)
    honba = 0 if isinstance(result, WinResult) and not repeat else p.honba + 1
    dealer, round_wind = p.dealer, p.round_wind
    finished = False
    if rules.ends_below_zero and min(p.scores) < 0:
        finished = True
    elif p.round_wind >= rules.rounds and max(p.scores) >= rules.return_score:
        finished = True  # the extension ends as soon as someone has the return score
    elif all_last and repeat and rules.agari_yame and dealer_tenpai_or_win and _is_top(p.dealer, p.scores, rules) \
            and p.scores[p.dealer] >= rules.return_score:
        finished = True  # agari-yame: the last dealer in first place stops the game
    if time_is_up(p.hand_number, last_hand):
        finished = True  # the session's time ran out: this hand was the last (docs/events.md)
    if not repeat and not finished:
        next_dealer, next_round = (p.dealer + 1) % 4, p.round_wind + (1 if p.dealer == 3 else 0)
        finished = next_dealer == 0 and _round_ends_game(next_round, p.scores, rules)
        if not finished:
            dealer, round_wind = next_dealer, next_round
    return NextDeal(round_wind, dealer, honba, p.hand_number + 1, finished)


def time_is_up(hand_number: int, last_hand: int | None) -> bool:
    """Whether the game ends after hand `hand_number` because the session's time is up."""
    return last_hand is not None and hand_number >= last_hand


def last_hand_after_time_up(hand_number: int, extra_hands: int) -> int:
    """The last hand once time is up while hand `hand_number` is in play (dealt): that hand
    is finished, then `extra_hands` more.  Between hands the engine has already dealt the
    next hand, so that one is the hand in play."""
    return hand_number + extra_hands


def _dealer_repeats(dealer: int, result: HandOutcome, rules: Rules) -> tuple[bool, bool]:
    """(the dealer keeps the deal, the dealer won or was tenpai)."""
    if isinstance(result, WinResult):
        won = any(w.seat == dealer for w in result.wins)
        return won, won
    if isinstance(result, AbortiveDraw):
        return True, False
    tenpai = dealer in result.tenpai
    return (tenpai if rules.dealer_repeats_on_tenpai else False), tenpai


def _round_ends_game(round_wind: int, scores: list[int], rules: Rules) -> bool:
    if round_wind < rules.rounds:
        return False
    if round_wind == rules.rounds and rules.west_extension:
        return max(scores) >= rules.return_score
    return True


def _is_top(seat: int, scores: list[int], rules: Rules) -> bool:
    return placement(scores, rules)[seat] == 0


def placement(scores: list[int], rules: Rules) -> list[int]:
    """Each seat's place 0-3; ties broken by seat order from the first dealer (seat 0)."""
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    places = [0] * 4
    for place, seat in enumerate(order):
        places[seat] = place
    return places


def final_result(p: Public, rules: Rules, seed: bytes | None) -> FinalResult:
    """The one place a game's result is made: leftover sticks, uma, oka and the final result."""
    scores = list(p.scores)
    sticks = p.sticks
    places = placement(scores, rules)
    if sticks and rules.leftover_sticks_to_first:
        top = max(scores)
        firsts = [s for s in range(4) if scores[s] == top]
        if rules.tie_break is TieBreak.SEAT_ORDER:
            firsts = [places.index(0)]
        share, remainder = divmod(1000 * sticks, len(firsts))
        for i, s in enumerate(firsts):
            scores[s] += share + (remainder if i == 0 else 0)
        sticks = 0
    a, b, c, d = scores
    results = final_results(scores, rules)
    pa, pb, pc, pd = placement(scores, rules)
    ra, rb, rc, rd = results
    return FinalResult((a, b, c, d), (pa, pb, pc, pd), (ra, rb, rc, rd), sticks,
                       seed.hex() if seed is not None else None)


def seat_uma(scores: list[int], rules: Rules) -> list[float]:
    """Each seat's uma in points for its place (ties share it or go by seat order, per preset)."""
    places = placement(scores, rules)
    if rules.tie_break is not TieBreak.SHARE_UMA:
        return [float(rules.uma[places[s]]) for s in range(4)]
    uma = [0.0] * 4
    for seat in range(4):
        tied = [s for s in range(4) if scores[s] == scores[seat]]
        tied_places = sorted(places[s] for s in tied)
        uma[seat] = sum(rules.uma[q] for q in tied_places) / len(tied)
    return uma


def uma_and_oka(scores: list[int], rules: Rules) -> list[float]:
    """What each seat's place adds to its result, in thousands: its uma, and the oka for first
    (the final standings' "uma" column)."""
    places = placement(scores, rules)
    return [round((uma + (rules.oka if places[seat] == 0 else 0)) / 1000, 1)
            for seat, uma in enumerate(seat_uma(scores, rules))]


def final_results(scores: list[int], rules: Rules) -> list[float]:
    """(score - return + uma [+ oka]) in thousands; ties share uma or go by seat order, per preset."""
    places = placement(scores, rules)
    uma = seat_uma(scores, rules)
    if rules.result_rounding is ResultRounding.WHOLE_THOUSANDS:
        return _whole_thousands(scores, places, uma, rules)
    results = []
    for seat in range(4):
        value = (scores[seat] - rules.return_score + uma[seat]) / 1000
        if places[seat] == 0:
            value += rules.oka / 1000
        results.append(round(value, 1))
    return results


def _whole_thousands(scores: list[int], places: list[int], uma: list[float], rules: Rules) -> list[float]:
    """As the recorded online games do it: (score - return) / 1000 rounded to a whole number,
    .5 toward zero, plus uma; first place takes whatever makes the results sum to zero."""
    results = [0.0] * 4
    for seat in range(4):
        if places[seat] == 0:
            continue
        thousands, rest = divmod(abs(scores[seat] - rules.return_score), 1000)
        whole = thousands + (1 if rest > 500 else 0)
        sign = -1 if scores[seat] < rules.return_score else 1
        results[seat] = float(sign * whole) + uma[seat] / 1000
    first = places.index(0)
    results[first] = -sum(results)
    return results
