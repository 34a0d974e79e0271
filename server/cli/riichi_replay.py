"""`riichi-replay`: replay a game file on the engine and print each hand and the final standings.

Reads our game records (JSON, or msgpack of the same map), mjlog files (.mjlog, gzipped
or not: each hand's wall is rebuilt from the log, or read from a walls file where the full
walls are known) and tenhou.net/6 JSON logs (one object, or one a line, as mjx's mjscore
files hold a game one hand a line); the kind is told from the content, not the name.  `--check` holds the replay up to the results the file
records, `--verify-seed` checks a record's walls against its seed, `--export` writes the
game out in another format.

Exit status: 0 all well; 1 the replay disagrees with the file, or cannot follow it, or the
seed does not verify; 2 the file or the options are unusable (--check on a record that
stores no results, which leaves nothing to check, included); 141 the reader of the output
went away (`| head`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from protocol.events import EventType, HandResult
from server.cli.pipes import quiet_when_the_reader_leaves
from server.game.engine import Game
from server.game.importers.expected import round_label
from server.game.importers.mjlog import MjlogError, is_mjlog, known_walls
from server.game.importers.reading import NOT_JSON, LogError, read_text
from server.game.importers.replay import ParsedLog, Replay, replay_log
from server.game.importers.steps import HandStartState, hand_start_state
from server.game.record import GameRecord, RecordError
from server.game.seed_check import verify_seed as check_seed
from server.record_files import unpack
from server.game.wall import seed_hash

PROG = "riichi-replay"
EXPORTS = ("tenhou6", "mjai")


class UsageError(Exception):
    """The file or the options cannot be used; exit 2 with this one line."""


@dataclass
class Played:
    """A replayed game, whatever file it came from."""

    kind: str  # "record" | "mjlog" | "tenhou6"
    game: Game
    starts: list[HandStartState]
    record: GameRecord | None  # None where the replay could not follow the file
    replay: Replay | None = None  # for logs: the expectations and where the engine parted ways
    error: str | None = None  # the replay stopped here
    stored: dict[str, Any] | None = None  # a record's stored results, if it has any


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Replay a riichi game file on the engine: each hand's result and the final standings.",
        epilog="files: our game record (JSON or msgpack), an mjlog (.mjlog or .mjlog.gz; its walls are rebuilt "
               "from the log, or read from NAME.walls.json beside it or --walls), or a tenhou.net/6 JSON log (one object, "
               "or one a line: one game).\nexit status: 0 all well, 1 the replay disagrees with "
               "the file (or cannot follow it, or the seed does not verify), 2 an unusable file or option (or "
               "--check on a record that stores no results), 141 the reader of the output went away.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the game file")
    parser.add_argument("--check", action="store_true",
                        help="compare each hand and the final scores with the results the file records; "
                             "exit 1 at the first difference")
    parser.add_argument("--verify-seed", action="store_true",
                        help="check that a record's walls are the ones its seed gives, and print the seed's "
                             "published hash")
    parser.add_argument("--seed-hash", metavar="HASH", default="",
                        help="with --verify-seed: the hash the game published at its start, to compare")
    parser.add_argument("--export", choices=EXPORTS, help="write the game in this format (to stdout, or -o FILE)")
    parser.add_argument("-o", "--output", metavar="FILE", help="where --export writes")
    parser.add_argument("--walls", metavar="FILE",
                        help="an mjlog's full walls, where they are known (default: NAME.walls.json beside it if "
                             "there is one, else the walls are rebuilt from the log)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")
    return parser


@quiet_when_the_reader_leaves
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.output and not args.export:
        return _usage("-o/--output goes with --export")
    # With the export on stdout, the report goes to stderr so the two do not mix.
    report = sys.stderr if args.export and not args.output else sys.stdout
    started = time.perf_counter()
    path = Path(args.file)
    try:
        played = play(path, Path(args.walls) if args.walls else None)
    except UsageError as error:
        return _usage(f"{path}: {error}")
    status, verdict = 0, None
    if args.check:
        status, verdict = check(played, report, args.quiet)
    elif not args.quiet and not args.export:
        print_hands(played, len(played.game.results), report)
    if played.error and not args.check:
        print(f"{PROG}: the replay cannot follow the file: {played.error}", file=report)
        status, verdict = 1, "the replay stopped"
    if args.verify_seed and status == 0:
        status = verify_seed(played, args.seed_hash, report)
    if args.export and status == 0:
        try:
            export(played, args.export, args.output)
        except UsageError as error:
            return _usage(str(error))
    hands = len(played.game.results)
    summary = f"{PROG}: {path.name} ({played.kind}): {hands} hand{'s' if hands != 1 else ''} replayed"
    if verdict:
        summary += f"; {verdict}"
    print(f"{summary} ({time.perf_counter() - started:.2f} s)", file=report)
    return status


def _usage(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


# ---- reading and replaying --------------------------------------------------------

def play(path: Path, walls_path: Path | None) -> Played:
    """Read the file, tell its kind from its content, and replay it."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read the file ({error.strerror or error})") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise UsageError(f"a broken gzip file ({error})") from None
    text = _text(data)
    content: Any = None
    if text is not None:
        try:
            read = read_text(text, known_walls(path, walls_path) if is_mjlog(text) else None)
        except (LogError, MjlogError) as error:  # (MjlogError: the walls file named cannot be read)
            raise UsageError(str(error)) from None
        if read.log is not None:
            return _from_log(read.log.format, read.log)
        content = None if read.content is NOT_JSON else read.content
    if content is None:
        content = unpack(data)
    if isinstance(content, dict) and "format" in content:
        try:
            return _from_record(GameRecord.from_data(content), content)
        except RecordError as error:
            raise UsageError(str(error)) from None
    if content is not None:
        raise UsageError("neither a game record (no \"format\") nor a tenhou.net/6 log (no \"log\")")
    raise UsageError("not a game file: expected a game record (JSON or msgpack), an mjlog or a tenhou.net/6 log")


def _text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _from_log(kind: str, log: ParsedLog) -> Played:
    replay = replay_log(log)
    record = replay.record if replay.error is None else None
    return Played(kind, replay.game, replay.starts, record, replay, error=str(replay.error) if replay.error else None)


def _from_record(record: GameRecord, data: dict[str, Any]) -> Played:
    try:
        game = record.new_game()
    except ValueError as error:
        raise UsageError(f"the record cannot start a game: {error}") from None
    starts = [hand_start_state(game)]
    error = None
    for index, (seat, action) in enumerate(record.decisions):
        try:
            events = game.apply(seat, action)
        except ValueError as problem:
            error = f"decision {index + 1} (seat {seat}, {action}): {problem}"
            break
        if any(e.type == EventType.HAND_START for e in events):
            starts.append(hand_start_state(game))
    stored = {k: data[k] for k in ("results", "final") if k in data}
    return Played("record", game, starts, record, None, error, stored or None)


# ---- printing ------------------------------------------------------------------------

def print_hands(played: Played, count: int, out: TextIO) -> None:
    names = played.game.names
    for number in range(count):
        start = played.starts[number] if number < len(played.starts) else None
        label = round_label(start.round, start.honba) if start else f"hand {number + 1}"
        for line in hand_lines(played.game.results[number], names):
            print(f"{label:<6} {line}", file=out)
            label = ""
    if played.game.final is not None:
        print_standings(played.game.final, names, out)
    for note in (played.replay.log.notes if played.replay else []):
        print(f"note: {note}", file=out)


def hand_lines(result: dict[str, Any], names: list[str]) -> list[str]:
    kind = result["type"]
    lines = []
    if kind == HandResult.WIN:
        for win in result["wins"]:
            how = "tsumo" if win["tsumo"] else f"ron off {names[win['from']]}"
            yaku = ", ".join(f"{name} {han}" for name, han in win["yaku"])
            if win["dora"]:
                yaku += f", dora {win['dora']}"
            value = f"{win['yakuman']} yakuman" if win["yakuman"] else f"{win['han']} han {win['fu']} fu"
            limit = f" {win['limit']}" if win["limit"] and not win["yakuman"] else ""
            liable = f", {names[win['liable']]} liable" if win.get("liable") is not None else ""
            lines.append(f"{names[win['seat']]} wins by {how}: {value}{limit}, {win['points']} points{liable} ({yaku})")
    elif kind == HandResult.EXHAUSTIVE_DRAW:
        if result.get("nagashi"):
            lines.append("exhaustive draw, nagashi mangan: " + ", ".join(names[s] for s in result["nagashi"]))
        else:
            tenpai = ", ".join(names[s] for s in result["tenpai"]) or "nobody"
            lines.append(f"exhaustive draw, tenpai: {tenpai}")
    else:
        lines.append(f"abortive draw: {result['reason'].replace('_', ' ')}")
    changes = ", ".join(f"{names[s]} {d:+d}" if d else f"{names[s]} 0" for s, d in enumerate(result["deltas"]))
    lines.append(f"score changes: {changes}")
    return lines


def print_standings(final: dict[str, Any], names: list[str], out: TextIO) -> None:
    print("final standings:", file=out)
    for seat in sorted(range(4), key=lambda s: final["places"][s]):
        print(f"  {final['places'][seat] + 1}. {names[seat]:<12} {final['scores'][seat]:>7}  "
              f"{final['results'][seat]:+.1f}", file=out)


# ---- --check ------------------------------------------------------------------------

def check(played: Played, out: TextIO, quiet: bool) -> tuple[int, str]:
    """Print the hands up to the first difference; (exit status, verdict for the summary)."""
    if played.replay is None:
        return _check_record(played, out, quiet)
    comparison = played.replay.compare()
    first = comparison.hands[0] if comparison.hands else None
    shown = first[0] + 1 if first else len(played.game.results)
    if not quiet:
        print_hands(played, shown, out)
    for line in comparison.not_compared:
        print(f"note: {line}", file=out)
    if first:
        number, diffs = first
        print(f"{PROG}: {played.replay.log.label(number)} differs from the log: {'; '.join(diffs)}", file=out)
        return 1, f"disagrees at {played.replay.log.label(number)}"
    if played.error:
        print(f"{PROG}: the replay cannot follow the log: {played.error}", file=out)
        return 1, "the replay stopped"
    if comparison.final:
        print(f"{PROG}: the end of the game differs from the log: {'; '.join(comparison.final)}", file=out)
        return 1, "the final scores disagree"
    for line in comparison.final_results:
        print(f"note: {line} (the log rounds scores to thousands; see docs/RULINGS.md 'final result')", file=out)
    tail = "the final scores agree" if played.replay.log.final else "the log records no final scores"
    count = len(played.game.results)
    hands = "the hand agrees" if count == 1 else f"all {count} hands agree"
    what = "what the log records" if comparison.not_compared else "the log"
    return 0, f"{hands} with {what}, {tail}"


def _check_record(played: Played, out: TextIO, quiet: bool) -> tuple[int, str]:
    if not quiet:
        print_hands(played, len(played.game.results), out)
    if played.error:
        print(f"{PROG}: the replay cannot follow the record: {played.error}", file=out)
        return 1, "the replay stopped"
    stored = played.stored or {}
    results = stored.get("results")
    if isinstance(results, list):
        for number, (want, got) in enumerate(zip(results, played.game.results)):
            if isinstance(want, dict) and list(want.get("deltas", [])) != list(got["deltas"]):
                print(f"{PROG}: hand {number + 1} differs from the record: score changes {got['deltas']}; "
                      f"the record has {want.get('deltas')}", file=out)
                return 1, f"disagrees at hand {number + 1}"
        if len(results) != len(played.game.results):
            print(f"{PROG}: the record has {len(results)} hand results, the replay {len(played.game.results)}",
                  file=out)
            return 1, "the number of hands disagrees"
    final = stored.get("final")
    if isinstance(final, dict) and played.game.final is not None and \
            list(final.get("scores", [])) != list(played.game.final["scores"]):
        print(f"{PROG}: final scores {played.game.final['scores']}; the record has {final.get('scores')}", file=out)
        return 1, "the final scores disagree"
    if not isinstance(results, list):
        print(f"{PROG}: --check has nothing to compare: the record stores no hand results (records written "
              f"by riichi-server export or the engine carry them)", file=out)
        return 2, "nothing checked"
    return 0, "all hands and the final scores agree with the record"


# ---- --verify-seed ----------------------------------------------------------------------

def verify_seed(played: Played, expected_hash: str, out: TextIO) -> int:
    record = played.record
    if played.kind != "record" or record is None or record.seed is None:
        what = "a record with explicit walls" if played.kind == "record" else f"an {played.kind} file"
        print(f"{PROG}: --verify-seed needs a record that holds its seed; this is {what}", file=out)
        return 1
    print(f"seed hash: {seed_hash(record.seed)}", file=out)
    ok, line = check_seed(record, expected_hash or None)
    print(line if ok else f"{PROG}: {line}", file=out)
    return 0 if ok else 1


# ---- --export --------------------------------------------------------------------------

def export(played: Played, fmt: str, output: str | None) -> None:
    if played.record is None:
        raise UsageError("cannot export: the replay did not get through the file")
    try:
        if fmt == "tenhou6":
            from server.game.export_tenhou6 import export_tenhou6
            text = json.dumps(export_tenhou6(played.record), ensure_ascii=False) + "\n"
        else:
            from server.game.export_mjai import export_mjai
            text = "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in export_mjai(played.record))
    except ImportError:
        raise UsageError(f"export to {fmt} is not available in this installation (server/game/export_{fmt}.py "
                         f"is missing)") from None
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {output} ({error.strerror or error})") from None
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    sys.exit(main())
