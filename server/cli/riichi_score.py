"""`riichi-score`: score one hand with a readable breakdown, or many as JSON lines."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from typing import Any, BinaryIO

from server.cli.pipes import quiet_when_the_reader_leaves
from server.cli.readings_cache import prefill_readings
from server.cli.score_lines import serve
from server.cli.score_workers import usable_cores
from server.cli.score_request import FLAGS, score_request
from server.rules.scoring import HandScore, ScoringError
from server.rules.tiles import TileError

EXAMPLE = "riichi-score 123456789s234m55p --win 9s --tsumo --riichi --seat S --round E --dora 6s"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="riichi-score",
        description="Score a winning riichi mahjong hand (EMA 2016 rules by default).",
        epilog=f"example: {EXAMPLE}\n"
               "many hands: riichi-score --jsonl < requests.jsonl  (one JSON request a line; see README)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("hand", nargs="?", help="concealed tiles, the winning tile included, e.g. 123456789s234m55p")
    parser.add_argument("--jsonl", action="store_true", help="read JSON requests from stdin, one a line; answer one a line")
    parser.add_argument("--workers", type=_workers, default=None, metavar="N",
                        help="with --jsonl: processes that share a large input "
                             "(default: one per core this process may use)")
    parser.add_argument("--win", help="the winning tile, e.g. 9s")
    parser.add_argument("--meld", action="append", default=[], metavar="MELD",
                        help="a declared meld: 'chi 123m', 'pon 555z', 'kan 1111p', 'ankan 9999s' or 'kakan 7777m' (repeatable)")
    for flag in FLAGS:
        parser.add_argument(f"--{flag.replace('_', '-')}", dest=flag, action="store_true")
    parser.add_argument("--seat", default="E", help="seat wind E, S, W or N (default E, the dealer)")
    parser.add_argument("--round", default="E", help="round wind E, S, W or N (default E)")
    parser.add_argument("--dora", default="", help="dora indicators, e.g. 6s or 6s1z")
    parser.add_argument("--ura", default="", help="ura dora indicators (count only with riichi)")
    parser.add_argument("--honba", type=int, default=0, help="counters on the table")
    parser.add_argument("--sticks", type=int, default=0, help="riichi sticks on the table")
    parser.add_argument("--rules", default="ema2016", choices=["ema2016", "tenhou"], help="rules preset (default ema2016)")
    return parser


@quiet_when_the_reader_leaves
def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.workers is not None and not args.jsonl:
        parser.error("--workers goes with --jsonl, which scores many hands")
    if args.jsonl:
        status = run_jsonl(sys.stdin.buffer, sys.stdout.buffer, args.workers or usable_cores())
        sys.stdout.flush()  # a reader that has left is told here, in quiet_when_the_reader_leaves
        os._exit(status)  # not the interpreter's teardown, which frees the table's 300,000 objects one by one
    if not args.hand or not args.win:
        parser.error(f"give a hand and --win, e.g. {EXAMPLE}")
    request: dict[str, Any] = {
        "hand": args.hand, "win": args.win, "melds": args.meld, "seat": args.seat, "round": args.round,
        "dora": args.dora, "ura": args.ura, "honba": args.honba, "sticks": args.sticks, "rules": args.rules,
        **{flag: getattr(args, flag) for flag in FLAGS},
    }
    try:
        score = score_request(request)
    except (ScoringError, TileError, ValueError) as error:
        print(f"riichi-score: {error}", file=sys.stderr)
        return 1
    print(breakdown(score, args.sticks))
    return 0


def run_jsonl(stdin: BinaryIO, stdout: BinaryIO, workers: int = 1) -> int:
    """One answer line per input line, in order, never stopping at a bad line."""
    prefill_readings()  # from the cache file (0.05 s), so that no hand of a long batch waits on a search
    gc.freeze()  # the tables, some 300,000 objects, are left out of every collection (and
    # of a forked worker's copying) from here on
    serve(stdin, stdout, workers)
    return 0


def _workers(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes: give 1 or more")
    return count


def breakdown(score: HandScore, sticks: int = 0) -> str:
    """The readable breakdown: yaku, dora, fu lines, totals, limit and who pays what; a
    yakuman hand lists its yakuman and the limit only (neither fu nor dora count)."""
    lines = _yakuman_lines(score) if score.yakuman else _han_and_fu_lines(score)
    lines += _payment_lines(score, sticks)
    return "\n".join(lines)


def _yakuman_lines(score: HandScore) -> list[str]:
    lines = ["Yaku:"]
    lines += [f"  {name:<16} yakuman" for name, _ in score.yaku]
    limit = "yakuman" if score.yakuman == 1 else f"{score.yakuman} yakuman"
    return [*lines, f"Total: {limit} (base points {score.base})"]


def _han_and_fu_lines(score: HandScore) -> list[str]:
    lines = ["Yaku:"]
    lines += [f"  {name:<16} {han:>3} han" for name, han in score.yaku]
    dora, ura, red = score.dora_parts
    for label, count in (("dora", dora), ("ura dora", ura), ("red fives", red)):
        if count:
            lines.append(f"  {label:<16} {count:>3} han")
    lines.append("Fu:")
    lines += [f"  {label:<28} {fu:>3}" for label, fu in score.fu_lines]
    if score.fu_lines and score.fu not in (20, 25) and sum(f for _, f in score.fu_lines) != score.fu:
        lines.append(f"  {'rounded up to':<28} {score.fu:>3}")
    total = f"{score.han} han {score.fu} fu"
    if score.limit:
        total += f", {score.limit}"
    return [*lines, f"Total: {total} (base points {score.base})"]


def _payment_lines(score: HandScore, sticks: int) -> list[str]:
    lines = []
    p = score.payment
    if p.ron:
        lines.append(f"Ron: the discarder pays {p.ron}")
    elif p.all:
        lines.append(f"Tsumo: {p.all} all (each of the three pays {p.all})")
    else:
        lines.append(f"Tsumo: {p.non_dealer}/{p.dealer} (the dealer pays {p.dealer}, each non-dealer {p.non_dealer})")
    collected = f"The winner collects {score.total}"
    if sticks:
        collected += f", plus {1000 * sticks} in riichi sticks"
    lines.append(collected + ".")
    lines += [f"Note: {note}" for note in score.notes]
    return lines


if __name__ == "__main__":
    sys.exit(main())
