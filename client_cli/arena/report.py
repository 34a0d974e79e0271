"""riichi-arena's output: a line per bot (and for two bots their difference), or the
same as JSON (`--json`) for programs."""

from __future__ import annotations

from typing import Any

from client_cli.arena.interval import Interval
from client_cli.arena.seats import Fault
from client_cli.arena.tally import BotTally, Measure, Tally


def _interval(iv: Interval, digits: int) -> str:
    if iv.n < 2:
        return f"{iv.mean:.{digits}f} (one set, no interval)"
    return f"{iv.mean:.{digits}f} [{iv.low:.{digits}f}, {iv.high:.{digits}f}]"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def bot_lines(bot: BotTally) -> list[str]:
    if not bot.games:
        return [f"{bot.name}: no games"]
    faults = ", ".join(f"{kind.value} {bot.faults[kind]}" for kind in Fault if bot.faults[kind]) or "none"
    return [
        f"{bot.name}: {bot.games} games",
        f"  average place     {_interval(bot.place(), 3)}  (1 is first; 95% interval, clustered by seed)",
        f"  average points    {bot.points / bot.games:.0f}; result with uma (thousands) {_interval(bot.result(), 1)}",
        f"  places 1-4        {' / '.join(str(n) for n in bot.places)}",
        f"  per hand          win {_pct(bot.rate(bot.wins))}, deal-in {_pct(bot.rate(bot.deal_ins))}, "
        f"riichi {_pct(bot.rate(bot.riichi))}, call {_pct(bot.rate(bot.called))} ({bot.hands} hands)",
        f"  faults            {faults}",
    ]


def text_report(tally: Tally, header: str) -> str:
    lines = [header]
    for bot in tally.bots:
        lines += bot_lines(bot)
    if len(tally.bots) == 2 and tally.sets:
        a, b = tally.bots[0].name, tally.bots[1].name
        lines.append(f"difference {a} - {b} (paired by set, 95%):")
        lines.append(f"  place {_interval(tally.difference(Measure.PLACE), 3)}; "
                     f"result with uma (thousands) {_interval(tally.difference(Measure.RESULT), 1)}")
    return "\n".join(lines)


def bot_data(bot: BotTally) -> dict[str, Any]:
    data: dict[str, Any] = {"name": bot.name, "games": bot.games, "places": list(bot.places),
                            "hands": bot.hands, "faults": {k.value: bot.faults[k] for k in Fault}}
    if bot.games:
        data.update({
            "average_place": bot.place().to_data(),
            "average_points": bot.points / bot.games,
            "average_result": bot.result().to_data(),
            "rates": {"win": bot.rate(bot.wins), "deal_in": bot.rate(bot.deal_ins), "riichi": bot.rate(bot.riichi),
                      "call": bot.rate(bot.called)},
        })
    return data


def json_report(tally: Tally, run: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {**run, "sets": tally.sets, "bots": [bot_data(b) for b in tally.bots]}
    if len(tally.bots) == 2 and tally.sets:
        data["difference"] = {"place": tally.difference(Measure.PLACE).to_data(),
                              "result": tally.difference(Measure.RESULT).to_data()}
    return data
