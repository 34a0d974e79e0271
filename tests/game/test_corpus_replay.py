"""Every recorded game of the corpus replays on the engine under the `tenhou` preset with
exactly its recorded score changes per hand and its final scores.

corpus README: 'Real four-player games played under the common online rules (the `tenhou`
preset in docs/RULINGS.md)'.  A game is read into steps (server/game/importers), played
on the engine with every call window answered, and each hand's result is held up to the
log's: the ending, the score changes, the winners with their han, fu and yaku, the tenpai
seats, and the round, counters, sticks and scores each hand starts with.

Files: tests/data/corpus (copies of the shared corpus; sources and licences in its README).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from server.cli.pipes import CLOSED_PIPE_STATUS
from server.game.actions import Discard, Pass, Ron, Tsumo
from server.game.engine import Game
from server.game.importers.mjlog import parse_mjlog, read_mjlog
from server.game.importers.replay import ParsedLog, replay_log
from server.game.importers.tenhou6 import Tenhou6Error, join_hand_lines, parse_tenhou6
from server.game.record import GameRecord
from server.game.wall import seed_hash, shuffled_wall
from server.rules.config import TENHOU

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
MJLOGS = sorted((CORPUS / "tenhou-mjlog").glob("*.mjlog"))
TENHOU6 = sorted((CORPUS / "tenhou6").glob("*.json"))
MJSCORE = sorted((CORPUS / "mjscore").glob("*.json"))  # tenhou.net/6, one hand a line

# Files whose own record contradicts itself; not engine bugs (see tests/data/corpus/README.md).
CORPUS_FAULTS = {
    "confusing_nakis_1.json": "corpus data: seat C's riichi passes (four discards follow it) and A wins, "
                              "but the log's score changes [1600, 0, -1600, 0] leave the riichi stick out "
                              "(they sum to 0); the engine gives A the stick: [2600, 0, -1600, 0]",
    "confusing_nakis_2.json": "corpus data, not a played game: four plain 5s under red fives, B named the "
                              "winner off A on a 7m B cannot win with, and the score changes pay C",
}


def load(path: Path) -> ParsedLog:
    if path.suffix == ".mjlog":
        return read_mjlog(path)
    if path.parent.name == "mjscore":
        return parse_tenhou6(join_hand_lines(path.read_text(encoding="utf-8")))
    return parse_tenhou6(json.loads(path.read_text(encoding="utf-8")))


def _params(paths: list[Path]) -> list:
    return [pytest.param(p, id=p.name, marks=[pytest.mark.xfail(strict=True, reason=CORPUS_FAULTS[p.name])]
                         if p.name in CORPUS_FAULTS else []) for p in paths]


@pytest.mark.parametrize("path", _params(MJLOGS + TENHOU6 + MJSCORE))
def test_recorded_game_replays_with_its_score_changes(path):
    log = load(path)
    assert log.rules.name == "tenhou"
    replay = replay_log(log)
    assert replay.error is None, str(replay.error)
    comparison = replay.compare()
    assert not comparison.hands, "\n".join(f"{log.label(k)}: {'; '.join(d)}" for k, d in comparison.hands)
    assert len(replay.game.results) == len(log.expected)
    assert [tuple(r["deltas"]) for r in replay.game.results] == [e.deltas for e in log.expected]
    if log.final is not None:  # a whole game (single hands from mid-game have no final scores)
        assert not comparison.final, comparison.final
        assert tuple(replay.game.final["scores"]) == log.final.scores


@pytest.mark.parametrize("path", _params(MJLOGS))
def test_an_mjlog_replays_on_walls_rebuilt_from_the_log_alone(path):
    """Issue 14: 'build each hand's wall from the log itself (tiles nobody saw fill the rest,
    which changes nothing in the replay)': every hand and the final scores agree."""
    log = parse_mjlog(path.read_text())
    replay = replay_log(log)
    assert replay.error is None, str(replay.error)
    comparison = replay.compare()
    assert not comparison.hands, "\n".join(f"{log.label(k)}: {'; '.join(d)}" for k, d in comparison.hands)
    assert len(replay.game.results) == len(log.expected)
    assert not comparison.final and tuple(replay.game.final["scores"]) == log.final.scores


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in MJSCORE])
def test_a_game_one_hand_a_line_replays_as_the_mjlog_of_the_same_game(path):
    """Issue 14: 'Some tools write a game as one tenhou.net/6 object per hand, one a line
    (mjx-project/mjx's mjscore files): read that form too, as one game.'  mjx holds both
    forms of these games; the two replays are the same game, hand for hand."""
    lines = path.read_text(encoding="utf-8").splitlines()
    log = load(path)
    assert len(lines) == len(log.expected) > 1 and log.start is None  # one game, from its first hand
    from_lines = replay_log(log).game
    from_mjlog = replay_log(load(CORPUS / "tenhou-mjlog" / f"{path.stem}.mjlog")).game
    assert [outcome(r) for r in from_lines.results] == [outcome(r) for r in from_mjlog.results]
    assert from_lines.final["scores"] == from_mjlog.final["scores"]


def outcome(result: dict) -> tuple:
    """A hand's result without tile ids (a tenhou.net/6 log has faces only, and gets its own ids)."""
    wins = [(w["seat"], w["from"], w["han"], w["fu"], w["yaku"], w["points"]) for w in result.get("wins", [])]
    return result["type"], result["deltas"], result["scores"], result.get("tenpai"), wins


def test_hand_lines_of_other_games_are_refused_in_one_line():
    lines = (CORPUS / "mjscore" / "six-kongs.json").read_text(encoding="utf-8").splitlines()
    other = json.loads(lines[1])
    other["name"] = ["W", "X", "Y", "Z"]
    with pytest.raises(Tenhou6Error, match="^line 2 names other players or rules than line 1: not hands of one game$"):
        join_hand_lines("\n".join([lines[0], json.dumps(other, ensure_ascii=False), *lines[2:]]))
    assert join_hand_lines(lines[0]) is None  # one line is one plain tenhou.net/6 log
    assert join_hand_lines("not json\n{}") is None


FULL_GAMES = [p for p in MJLOGS + TENHOU6 if p.suffix == ".mjlog" or p.name in ("ranked_game.json", "suukantsu_1.json")]


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in FULL_GAMES])
def test_imported_record_replays_to_the_same_game(path):
    """ARCHITECTURE.md: 'replaying a record reproduces the game bit for bit'."""
    replay = replay_log(load(path))
    again = replay.record.replay()
    assert again.results == replay.game.results
    assert again.final == replay.game.final


def test_recorded_final_results_after_uma_and_oka():
    """The record wins over docs/RULINGS.md's formula: the recorded games round (score - 30,000) / 1000
    to a whole number, .5 toward zero, add the uma, and give first place minus the sum of the others."""
    differences = []
    for path in FULL_GAMES:
        log = load(path)
        final = replay_log(log).game.final
        if tuple(final["results"]) != log.final.results:
            differences.append(f"{path.name}: {final['results']} != {list(log.final.results)}")
    assert not differences, "\n".join(differences)


# ---- the riichi-replay command ---------------------------------------------------------------
# Run for real as a subprocess; the script is looked up next to the running interpreter.

REPO = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / ("riichi-replay.exe" if os.name == "nt" else "riichi-replay")
FIRST = CORPUS / "tenhou-mjlog" / "first-example.mjlog"


def run(*args: str | Path) -> subprocess.CompletedProcess:
    if not SCRIPT.exists():
        pytest.fail(f"the console script is not installed next to the interpreter: {SCRIPT}")
    return subprocess.run([str(SCRIPT), *map(str, args)], capture_output=True, text=True, cwd=REPO, timeout=120)


def copy_mjlog(tmp_path: Path, name: str, change: tuple[str, str] | None = None, walls: bool = True) -> Path:
    text = (CORPUS / "tenhou-mjlog" / f"{name}.mjlog").read_text()
    if change:
        assert change[0] in text
        text = text.replace(change[0], change[1], 1)
    if walls:
        (tmp_path / f"{name}.walls.json").write_bytes((CORPUS / "tenhou-mjlog" / f"{name}.walls.json").read_bytes())
    path = tmp_path / f"{name}.mjlog"
    path.write_text(text)
    return path


def seeded_record(seed: bytes, decisions: int = 300) -> GameRecord:
    """A game dealt from a seed: win when offered, else pass, else discard the lowest tile."""
    game = Game(TENHOU, seed=seed)
    while not game.over and len(game.decisions) < decisions:
        seat = game.waiting_for()[0]
        options = game.legal_actions(seat)
        action = next((a for a in options if isinstance(a, (Tsumo, Ron, Pass))), None)
        game.apply(seat, action or next(a for a in options if isinstance(a, Discard) and not a.riichi))
    return GameRecord.of(game)


def test_cli_prints_each_hand_and_the_final_standings():
    result = run(FIRST)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("E1-0") and "exhaustive draw, tenpai: B" in lines[0]
    assert any(line.startswith("E2-1") and "C wins by ron off D" in line for line in lines)
    assert "final standings:" in lines and "1. C" in result.stdout and "37600" in result.stdout
    assert lines[-1].startswith("riichi-replay: first-example.mjlog (mjlog): 9 hands replayed")


@pytest.mark.parametrize("path", [FIRST, CORPUS / "tenhou6" / "ranked_game.json", CORPUS / "tenhou6" / "chankan.json"],
                         ids=lambda p: p.name)
def test_cli_check_agrees_with_the_recorded_games(path):
    result = run(path, "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "hand agrees with the log" in result.stdout or "hands agree with the log" in result.stdout


def test_cli_check_stops_at_the_first_hand_that_differs(tmp_path):
    # Hand 2's recorded score change for C: +11300 becomes +11400.
    path = copy_mjlog(tmp_path, "first-example", ('sc="240,0,260,0,230,113,240,-83"', 'sc="240,0,260,0,230,114,240,-83"'))
    result = run(path, "--check")
    assert result.returncode == 1
    assert "hand 2 (E2-1) differs from the log: score changes [0, 0, 11300, -8300]; the log has " \
           "[0, 0, 11400, -8300]" in result.stdout
    assert not any(line.startswith("E3-0") for line in result.stdout.splitlines())


def ranked_game_with_last_win(tmp_path: Path, info: list) -> Path:
    """ranked_game.json with its last hand's win written as `info` (seat, from, liable, texts...)."""
    data = json.loads((CORPUS / "tenhou6" / "ranked_game.json").read_text(encoding="utf-8"))
    assert data["log"][-1][16][2][:3] == [1, 2, 1]
    data["log"][-1][16][2] = info
    path = tmp_path / "converted.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("info, missing", [
    ([1, 2, 1, ""], "han, fu or yaku"),
    ([1, 2, 1, "跳満18000点"], "han, fu or yaku"),
    ([1, 2, 1, "30符6飜18000点"], "han or yaku"),
    ([1, 2, 1, "", "三色同順(1飜)", "断幺九(1飜)", "ドラ(1飜)", "赤ドラ(3飜)"], "fu"),
], ids=["empty", "points-no-yaku", "fu-han-no-yaku", "yaku-no-points"])
def test_cli_check_compares_only_what_a_converted_log_records(tmp_path, info, missing):
    """Issue 14: '--check on a tenhou.net/6 log that leaves a win's points or yaku empty (as
    some converters write them) reports a difference ("5 han; the log has 0"): compare only
    what the log records, and say what it could not compare.'"""
    result = run(ranked_game_with_last_win(tmp_path, info), "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"note: hand 3 (E2-1): the log records no {missing} for B's win: not compared" in result.stdout
    assert "all 3 hands agree with what the log records, the final scores agree" in result.stdout


def test_cli_check_still_compares_the_score_changes_of_a_win_without_yaku(tmp_path):
    data = json.loads(ranked_game_with_last_win(tmp_path, [1, 2, 1, ""]).read_text(encoding="utf-8"))
    data["log"][-1][16][1] = [0, 18400, -18400, 0]
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = run(path, "--check")
    assert result.returncode == 1
    assert "hand 3 (E2-1) differs from the log: score changes [0, 18300, -18300, 0]" in result.stdout


def test_cli_checks_a_game_written_one_hand_a_line():
    result = run(CORPUS / "mjscore" / "six-kongs.json", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "six-kongs.json (tenhou6): 14 hands replayed; all 14 hands agree with the log, the log records no " \
           "final scores" in result.stdout


def test_cli_check_fails_when_the_final_scores_differ(tmp_path):
    path = copy_mjlog(tmp_path, "first-example", ('owari="133,', 'owari="134,'))
    result = run(path, "--check")
    assert result.returncode == 1 and "the end of the game differs" in result.stdout


def test_cli_check_names_where_the_replay_cannot_follow():
    result = run(CORPUS / "tenhou6" / "confusing_nakis_2.json", "--check")
    assert result.returncode == 1 and "the engine offers seat 1 nothing" in result.stdout


def test_cli_reads_a_gzipped_mjlog_with_its_walls(tmp_path):
    path = tmp_path / "game.mjlog.gz"
    path.write_bytes(gzip.compress(FIRST.read_bytes()))
    result = run(path, "--check", "--walls", CORPUS / "tenhou-mjlog" / "first-example.walls.json")
    assert result.returncode == 0, result.stdout + result.stderr
    missing = run(path, "--walls", tmp_path / "none.walls.json")
    assert missing.returncode == 2 and "no walls file none.walls.json" in missing.stderr


def test_cli_checks_a_plain_mjlog_with_no_walls_file(tmp_path):
    """Issue 14: 'riichi-replay --check game.mjlog refuses without a NAME.walls.json beside it,
    and nobody who downloads a Tenhou log has one.'"""
    path = copy_mjlog(tmp_path, "first-example", walls=False)
    result = run(path, "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all 9 hands agree with the log, the final scores agree" in result.stdout
    gzipped = tmp_path / "downloaded.mjlog.gz"
    gzipped.write_bytes(gzip.compress(path.read_bytes()))
    assert run(gzipped, "--check").returncode == 0


def test_cli_check_without_walls_rejects_a_log_with_one_score_change_altered(tmp_path):
    # Hand 2's recorded score change for C: +11300 becomes +11400.
    path = copy_mjlog(tmp_path, "first-example", ('sc="240,0,260,0,230,113,240,-83"', 'sc="240,0,260,0,230,114,240,-83"'),
                      walls=False)
    result = run(path, "--check")
    assert result.returncode == 1
    assert "hand 2 (E2-1) differs from the log: score changes [0, 0, 11300, -8300]; the log has " \
           "[0, 0, 11400, -8300]" in result.stdout


@pytest.mark.parametrize("content, message", [
    (b"", "not a game file"),
    (b"\x00\x01\xc1\xff", "not a game file"),
    (b'{"hello": 1}', "neither a game record"),
    (b'{"format": "riichi-server-record/1", "decisions": 5}', "malformed game record"),
    (b'<mjloggm ver="2.3"><GO type="169"/></mjloggm>', "the mjlog has no hands"),
    (b'{"name": ["A", "B", "C", "D"], "log": [[1, 2]]}', "tenhou.net/6 log: hand 1: malformed"),
])
def test_cli_bad_files_get_one_line(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = run(path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("riichi-replay: ") and message in result.stderr


def test_cli_stops_quietly_when_its_reader_leaves():
    """Issue 14: '`riichi-replay FILE | head` ends in a BrokenPipeError traceback'.  The mjai
    export of this game (86 kB) is more than a pipe holds, so the write meets the closed pipe."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as in a shell
    command = [str(SCRIPT), str(CORPUS / "tenhou-mjlog" / "six-kongs.mjlog"), "--export", "mjai"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, env=env) as process:
        assert json.loads(process.stdout.readline())["type"] == "start_game"
        process.stdout.close()  # the reader leaves, as head does after its lines
        stderr = process.stderr.read().decode()
        assert process.wait(timeout=120) == CLOSED_PIPE_STATUS
    assert stderr == ""


def test_cli_missing_file_gets_one_line():
    result = run("no/such/file.mjlog")
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "cannot read" in result.stderr


def test_cli_replays_our_records_as_json_and_msgpack(tmp_path):
    record = replay_log(load(FIRST)).record
    as_json, as_msgpack = tmp_path / "game.json", tmp_path / "game.bin"
    as_json.write_text(record.to_json())
    as_msgpack.write_bytes(msgpack.packb(record.to_data()))
    from_log = run(FIRST).stdout.splitlines()
    for path in (as_json, as_msgpack):
        result = run(path, "--check")
        assert result.returncode == 0, result.stdout + result.stderr
        lines = result.stdout.splitlines()
        assert lines[:-1] == from_log[:-1]
        assert "all hands and the final scores agree with the record" in lines[-1]


def test_cli_verifies_a_records_seed(tmp_path):
    seed = bytes(range(32))
    record = seeded_record(seed)
    path = tmp_path / "seeded.json"
    path.write_text(record.to_json())
    result = run("--verify-seed", path)  # the form: riichi-replay --verify-seed FILE
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"seed hash: {seed_hash(seed)}" in result.stdout
    assert run(path, "--verify-seed", "--seed-hash", seed_hash(seed)).returncode == 0
    wrong = run(path, "--verify-seed", "--seed-hash", seed_hash(b"another seed"))
    assert wrong.returncode == 1 and "not to the published hash" in wrong.stdout


def test_cli_seed_that_does_not_give_the_walls_fails(tmp_path):
    seed = b"s" * 32
    walls = [shuffled_wall(seed, 0)]
    walls[0][52], walls[0][53] = walls[0][53], walls[0][52]
    path = tmp_path / "tampered.json"
    path.write_text(GameRecord(TENHOU, seed, walls).to_json())
    result = run(path, "--verify-seed")
    assert result.returncode == 1 and "hand 1" in result.stdout


def test_cli_verify_seed_needs_a_seed():
    result = run(FIRST, "--verify-seed")
    assert result.returncode == 1 and "needs a record that holds its seed" in result.stdout


def test_cli_export_tenhou6_reads_back_to_the_same_game(tmp_path):
    out = tmp_path / "exported.json"
    result = run(FIRST, "--export", "tenhou6", "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("riichi-replay: first-example.mjlog")
    check = run(out, "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "all 9 hands agree with the log, the final scores agree" in check.stdout


def test_cli_export_mjai_writes_json_lines_to_stdout():
    result = run(FIRST, "--export", "mjai")
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert sum(e["type"] == "start_kyoku" for e in events) == 9
    assert "riichi-replay: first-example.mjlog" in result.stderr


def test_cli_export_of_a_log_that_starts_mid_game_keeps_its_start():
    result = run(CORPUS / "tenhou6" / "double_ron.json", "--export", "tenhou6")
    assert result.returncode == 0, result.stderr
    original = json.loads((CORPUS / "tenhou6" / "double_ron.json").read_text())
    exported = json.loads(result.stdout)
    assert exported["log"][0][0] == original["log"][0][0]  # round, honba, sticks
    assert exported["log"][0][1] == original["log"][0][1]  # the scores as the hand began


def test_cli_check_compares_a_records_stored_results(tmp_path):
    """--check 'exits non-zero at the first hand whose results differ from those the file records'."""
    import random

    from server.game.engine import Game

    rng = random.Random(3)
    game = Game(TENHOU, seed=b"stored-results")
    while not game.over:
        seat = game.waiting_for()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    data = GameRecord.of(game).to_data()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data))
    result = run(good, "--check")
    assert result.returncode == 0 and "all hands and the final scores agree" in result.stdout
    data["results"][0]["deltas"] = [d + (100 if i == 0 else -100 if i == 1 else 0)
                                    for i, d in enumerate(data["results"][0]["deltas"])]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run(bad, "--check")
    assert result.returncode == 1 and "hand 1 differs from the record" in result.stdout


def _played_game(seed: bytes) -> Game:
    import random

    rng = random.Random(seed)
    game = Game(TENHOU, seed=seed, names=["ann", "bob", "cy", "di"])
    while not game.over:
        seat = game.waiting_for()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_an_exported_record_carries_each_hands_result_and_the_final_standings_so_check_compares_them(tmp_path):
    """`riichi-server export GAME --format record` rebuilds the record from the stored decisions
    (server/store/sqlite.py `record`: no results); the record it writes carries each hand's result and
    the final standings, as the engine's own records do, and `riichi-replay --check` holds the
    replay to them (it said "the record stores no results to compare" and exited 0)."""
    from server.store import SqliteFile

    game = _played_game(b"exported-record")
    db = tmp_path / "games.sqlite3"
    store = SqliteFile(db)
    game_id = store.start_game("table", GameRecord(game.rules, game.seed, None, list(game.names)))
    store.add_decisions(game_id, 0, game.decisions)
    store.finish_game(game_id, game.final)
    store.close()
    exported = subprocess.run([str(SCRIPT.parent / "riichi-server"), "export", str(game_id), "--db", str(db),
                               "--format", "record"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert exported.returncode == 0, exported.stderr
    data = json.loads(exported.stdout)
    assert data["results"] == json.loads(json.dumps(game.results))
    assert data["final"] == json.loads(json.dumps(game.final))
    path = tmp_path / "exported.json"
    path.write_text(exported.stdout)
    result = run(path, "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all hands and the final scores agree with the record" in result.stdout
    data["final"]["scores"] = [s + (100 if i == 0 else -100 if i == 1 else 0) for i, s in enumerate(data["final"]["scores"])]
    path.write_text(json.dumps(data))
    result = run(path, "--check")
    assert result.returncode == 1 and "final scores" in result.stdout


def test_check_on_a_record_that_stores_no_results_fails_in_one_line_instead_of_checking_nothing(tmp_path):
    game = _played_game(b"no-results")
    data = GameRecord.of(game).to_data()
    del data["results"], data["final"]
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(data))
    result = run(path, "--check")
    assert result.returncode == 2, result.stdout + result.stderr
    complaint = [line for line in result.stdout.splitlines() if "nothing to compare" in line]
    assert complaint == ["riichi-replay: --check has nothing to compare: the record stores no hand results "
                         "(records written by riichi-server export or the engine carry them)"]
    assert run(path).returncode == 0  # without --check it is only a replay
