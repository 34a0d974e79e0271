"""The game between hands: dealer repeats, counters, rounds, the end, placement and uma.

docs/RULINGS.md 'Two presets': dealer repeats, game length, negative scores, leftover sticks,
uma, tied final scores, final result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.game.state import Phase
from server.rules.config import ResultRounding, Rules, TieBreak

if TYPE_CHECKING:
    from server.game.engine import Game


def next_hand(game: "Game", result: dict[str, Any]) -> None:
    """Move the counters, the deal and the round on after a hand, or finish the game."""
    p, rules = game.public, game.rules
    all_last = p.round_wind >= rules.rounds - 1 and p.dealer == 3
    repeat, dealer_tenpai_or_win = _dealer_repeats(p.dealer, result, rules)
    if result["type"] == "win" and not repeat:
        p.honba = 0
    else:
        p.honba += 1
    p.hand_number += 1
    finished = False
    if rules.ends_below_zero and min(p.scores) < 0:
        finished = True
    elif p.round_wind >= rules.rounds and max(p.scores) >= rules.return_score:
        finished = True  # the extension ends as soon as someone has the return score
    elif all_last and repeat and rules.agari_yame and dealer_tenpai_or_win and _is_top(p.dealer, p.scores, rules) \
            and p.scores[p.dealer] >= rules.return_score:
        finished = True  # agari-yame: the last dealer in first place stops the game
    if not repeat and not finished:
        dealer, round_wind = (p.dealer + 1) % 4, p.round_wind + (1 if p.dealer == 3 else 0)
        finished = dealer == 0 and _round_ends_game(round_wind, p.scores, rules)
        if not finished:
            p.dealer, p.round_wind = dealer, round_wind
    if finished:
        finish(game)


def _dealer_repeats(dealer: int, result: dict[str, Any], rules: Rules) -> tuple[bool, bool]:
    """(the dealer keeps the deal, the dealer won or was tenpai)."""
    kind = result["type"]
    if kind == "win":
        won = any(w["seat"] == dealer for w in result["wins"])
        return won, won
    tenpai = dealer in result.get("tenpai", [])
    if kind == "abortive_draw":
        return True, False
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


def finish(game: "Game") -> None:
    """The one place a game ends: leftover sticks, uma, oka and the final result."""
    p, rules = game.public, game.rules
    scores = list(p.scores)
    places = placement(scores, rules)
    if p.sticks and rules.leftover_sticks_to_first:
        top = max(scores)
        firsts = [s for s in range(4) if scores[s] == top]
        if rules.tie_break is TieBreak.SEAT_ORDER:
            firsts = [places.index(0)]
        share, remainder = divmod(1000 * p.sticks, len(firsts))
        for i, s in enumerate(firsts):
            scores[s] += share + (remainder if i == 0 else 0)
        p.sticks = 0
    p.scores = scores
    results = final_results(scores, rules)
    game.final = {"scores": scores, "places": placement(scores, rules), "results": results,
                  "seed": game.seed.hex() if game.seed is not None else None}
    p.phase = Phase.GAME_OVER
    game._offers, game._answers = {}, {}
    game._emit("game_end", dict(game.final))


def final_results(scores: list[int], rules: Rules) -> list[float]:
    """(score - return + uma [+ oka]) in thousands; ties share uma or go by seat order, per preset."""
    places = placement(scores, rules)
    uma = [0.0] * 4
    if rules.tie_break is TieBreak.SHARE_UMA:
        for seat in range(4):
            tied = [s for s in range(4) if scores[s] == scores[seat]]
            tied_places = sorted(places[s] for s in tied)
            uma[seat] = sum(rules.uma[q] for q in tied_places) / len(tied)
    else:
        uma = [float(rules.uma[places[s]]) for s in range(4)]
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
