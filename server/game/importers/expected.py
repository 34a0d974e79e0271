"""What a log says each hand came to, and how the engine's results are held up to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.events import HandResult
from server.game.importers.steps import HandStartState

ROUND_WINDS = "ESWN"


def round_label(round_number: int, honba: int | None = None) -> str:
    """'E1' ... 'S4', 'W1': the round wind and the dealer's number; with honba 'E1-2'."""
    name = ROUND_WINDS[min(round_number // 4, 3)] + str(round_number % 4 + 1)
    return name if honba is None else f"{name}-{honba}"


@dataclass(frozen=True)
class ExpectedWin:
    seat: int
    from_seat: int | None  # None: tsumo
    han: int | None  # yaku + dora; None where the log does not say
    fu: int | None
    yaku: tuple[str, ...] | None  # engine yaku names, dora left out; None: not comparable
    yakuman: int  # how many yakuman
    liable: int | None = None
    hand: tuple[int, ...] | None = None  # the concealed tiles with the winning one, where the log shows them
    not_recorded: tuple[str, ...] = ()  # what the log leaves empty ("han", "fu", "yaku"), so is not compared


@dataclass(frozen=True)
class ExpectedHand:
    start: HandStartState  # round, honba, sticks and scores as the hand began
    kind: HandResult
    deltas: tuple[int, int, int, int]
    reason: str | None = None  # the abortive draw's reason (an AbortiveReason), or "nagashi" for an exhaustive draw won by it
    wins: tuple[ExpectedWin, ...] = ()
    tenpai: tuple[int, ...] | None = None  # seats tenpai at an exhaustive draw, where the log shows them

    @property
    def label(self) -> str:
        return round_label(self.start.round, self.start.honba)


@dataclass(frozen=True)
class ExpectedFinal:
    scores: tuple[int, int, int, int]
    results: tuple[float, float, float, float] | None = None


@dataclass
class Comparison:
    """Differences between the engine's replay and the log: per hand, then the end of the game."""

    hands: list[tuple[int, list[str]]] = field(default_factory=list)  # (hand index, differences)
    final: list[str] = field(default_factory=list)  # final scores, or the game's end itself
    final_results: list[str] = field(default_factory=list)  # the uma/oka results only
    not_compared: list[str] = field(default_factory=list)  # what the log does not record, a line a win

    @property
    def agrees(self) -> bool:
        return not self.hands and not self.final


def compare_hand(expected: ExpectedHand, result: dict[str, Any], start: HandStartState | None) -> list[str]:
    """What differs between one hand's expected and actual outcome, as readable lines."""
    diffs: list[str] = []
    if start is not None:
        exp = expected.start
        if (start.round, start.honba, start.sticks) != (exp.round, exp.honba, exp.sticks):
            diffs.append(f"the hand starts as {round_label(start.round, start.honba)} with {start.sticks} riichi "
                         f"stick(s); the log has {round_label(exp.round, exp.honba)} with {exp.sticks}")
        if tuple(start.scores) != tuple(exp.scores):
            diffs.append(f"scores at the start {list(start.scores)}; the log has {list(exp.scores)}")
    kind = result["type"]
    reason = result.get("reason") if kind == HandResult.ABORTIVE_DRAW else ("nagashi" if result.get("nagashi") else None)
    if (kind, reason) != (expected.kind, expected.reason):
        diffs.append(f"the hand ends in {_ending(kind, reason)}; the log has {_ending(expected.kind, expected.reason)}")
    if tuple(result["deltas"]) != expected.deltas:
        diffs.append(f"score changes {list(result['deltas'])}; the log has {list(expected.deltas)}")
    if expected.tenpai is not None and kind == HandResult.EXHAUSTIVE_DRAW and tuple(sorted(result["tenpai"])) != expected.tenpai:
        diffs.append(f"tenpai seats {sorted(result['tenpai'])}; the log has {list(expected.tenpai)}")
    if kind == HandResult.WIN and expected.kind == HandResult.WIN:
        diffs.extend(_compare_wins(expected.wins, result["wins"]))
    return diffs


def not_compared(expected: ExpectedHand, names: list[str]) -> list[str]:
    """A line for each win whose han, fu or yaku the log leaves empty (as some converters
    write them): those are not compared, and a reader should know it."""
    return [f"the log records no {_joined(win.not_recorded)} for {names[win.seat]}'s win: not compared"
            for win in expected.wins if win.not_recorded]


def _joined(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _ending(kind: str, reason: str | None) -> str:
    return kind.replace("_", " ") + (f" ({reason.replace('_', ' ')})" if reason else "")


def _compare_wins(expected: tuple[ExpectedWin, ...], wins: list[dict[str, Any]]) -> list[str]:
    got = {(w["seat"], w["from"]): w for w in wins}
    want = {(w.seat, w.from_seat): w for w in expected}
    if set(got) != set(want):
        return [f"winners {_who(sorted(got, key=str))}; the log has {_who(sorted(want, key=str))}"]
    diffs = []
    for key, exp in want.items():
        win, seat = got[key], key[0]
        if exp.yakuman or (win["yakuman"] and "han" not in exp.not_recorded):
            if win["yakuman"] != exp.yakuman:
                diffs.append(f"seat {seat}: {win['yakuman']} yakuman; the log has {exp.yakuman}")
        else:
            if exp.han is not None and win["han"] != exp.han:
                diffs.append(f"seat {seat}: {win['han']} han; the log has {exp.han}")
            if exp.fu is not None and win["fu"] != exp.fu:
                diffs.append(f"seat {seat}: {win['fu']} fu; the log has {exp.fu}")
        names = tuple(sorted(n for n, _ in win["yaku"]))
        if exp.yaku is not None and names != tuple(sorted(exp.yaku)):
            diffs.append(f"seat {seat}: yaku {', '.join(names)}; the log has {', '.join(sorted(exp.yaku))}")
        if exp.hand is not None and _faces(win["hand"]) != _faces(exp.hand):
            diffs.append(f"seat {seat}: winning hand {sorted(win['hand'])}; the log has {sorted(exp.hand)}")
        if exp.liable is not None and win.get("liable") != exp.liable:
            diffs.append(f"seat {seat}: liable seat {win.get('liable')}; the log has {exp.liable}")
    return diffs


def _faces(tiles: list[int] | tuple[int, ...]) -> list[int]:
    """Tiles as kinds: a replay may hold other ids of the same face (red fives show in the han)."""
    return sorted(t >> 2 for t in tiles)


def _who(keys: list[tuple[int, int | None]]) -> str:
    return ", ".join(f"seat {s} " + ("tsumo" if f is None else f"ron off seat {f}") for s, f in keys) or "none"


def compare_final(expected: ExpectedFinal, final: dict[str, Any] | None, comparison: Comparison) -> None:
    if final is None:
        comparison.final.append("the engine's game is not over after the log's last hand")
        return
    if tuple(final["scores"]) != expected.scores:
        comparison.final.append(f"final scores {final['scores']}; the log has {list(expected.scores)}")
    if expected.results is not None and tuple(final["results"]) != expected.results:
        comparison.final_results.append(f"final results {final['results']}; the log has {list(expected.results)}")
