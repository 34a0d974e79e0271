"""riichi-arena from the command line: per-bot lines, --json, bad bots, records, an mjai bot."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from client_cli.arena.cli import main
from server.dropped_log import document_of_log
from server.game.record import GameRecord
from tests.client_cli.mjai_support import bad_bot

EXAMPLE_MJAI = "mjai:{python} -m client_cli.mjai.example_bot"


def test_two_bots_print_a_block_each_and_their_difference(capsys):
    """`riichi-arena builtin random --sets 2 --workers 1` runs and prints per-bot lines."""
    assert main(["builtin", "random", "--sets", "2", "--workers", "1", "--seed", "cli", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "builtin: 8 games" in out and "random: 24 games" in out
    assert out.count("average place") == 2 and "difference builtin - random" in out


def test_json_parses_and_holds_every_bot(capsys):
    assert main(["builtin", "random", "shanten", "builtin:50", "--sets", "1", "--workers", "1", "--json",
                 "--seed", "json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [b["name"] for b in data["bots"]] == ["builtin", "random", "shanten", "builtin:50"]
    assert all(b["games"] == 4 for b in data["bots"]) and data["sets"] == 1
    assert sum(sum(b["places"]) for b in data["bots"]) == 16


def test_a_bad_bot_is_a_one_line_error_with_status_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["builtin", "nonsense", "--sets", "1"])
    assert exit_.value.code == 2
    assert "unknown bot 'nonsense'" in capsys.readouterr().err


def test_three_bots_are_refused():
    with pytest.raises(SystemExit) as exit_:
        main(["builtin", "random", "random", "--sets", "1"])
    assert exit_.value.code == 2


def test_out_writes_records_that_replay_to_their_results(tmp_path: Path, capsys):
    """Every game's record under --out replays to the scores and places it was played to."""
    main(["builtin", "random", "--sets", "1", "--workers", "1", "--out", str(tmp_path), "--seed", "out",
          "--no-progress"])
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [f"set00000-rot{r}.json" for r in range(4)]
    for f in files:
        record = GameRecord.from_json(f.read_text())
        game = record.replay()
        assert game.final == record.final and record.final is not None
        assert game.results == record.results
        # and the replay page opens it whole (its walls are the walls played), under its own rules
        doc = document_of_log(f.read_bytes())
        assert doc["source"] == "record" and doc["rules"] == "ema2016"
        assert len(doc["hands"]) == len(record.results) and "note" not in doc


def test_same_seed_same_outcome_with_one_or_two_workers(capsys):
    main(["builtin", "shanten", "--sets", "2", "--workers", "1", "--json", "--seed", "same", "--no-progress"])
    one = json.loads(capsys.readouterr().out)
    main(["builtin", "shanten", "--sets", "2", "--workers", "2", "--json", "--seed", "same", "--no-progress"])
    two = json.loads(capsys.readouterr().out)
    assert one["bots"] == two["bots"]


def test_an_sdk_bot_plays_in_process(capsys):
    assert main(["py:examples.simple_bot:SimpleBot", "builtin", "--sets", "1", "--workers", "1", "--json",
                 "--no-progress"]) == 0
    bots = json.loads(capsys.readouterr().out)["bots"]
    assert bots[0]["games"] == 4 and sum(bots[0]["faults"].values()) == 0


def test_the_example_mjai_bot_plays_a_set(capsys):
    """An mjai bot (the example one) plays a set through the bridge, with no faults."""
    assert main([EXAMPLE_MJAI, "builtin", "--sets", "1", "--workers", "1", "--json", "--no-progress"]) == 0
    bots = json.loads(capsys.readouterr().out)["bots"]
    assert bots[0]["games"] == 4 and sum(bots[0]["faults"].values()) == 0
    assert bots[0]["hands"] > 0


def test_the_console_script_runs(tmp_path: Path):
    script = Path(sys.executable).with_name("riichi-arena")
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "py:module:Class" in done.stdout


def test_crashing_and_illegal_bots_are_played_for_and_counted(capsys):
    """A bot that raises, or answers what was not offered, gets the SDK's default answer
    and the report counts each such decision for that bot."""
    assert main(["py:tests.arena.bad_bots:CrashingBot", "py:tests.arena.bad_bots:IllegalBot", "builtin", "random",
                 "--sets", "1", "--workers", "1", "--json", "--no-progress"]) == 0
    bots = json.loads(capsys.readouterr().out)["bots"]
    assert bots[0]["faults"]["crashed"] > 0 and bots[0]["faults"]["illegal"] == 0
    assert bots[1]["faults"]["illegal"] > 0 and bots[1]["faults"]["crashed"] == 0
    assert sum(bots[2]["faults"].values()) == 0


def test_an_exception_in_on_event_is_counted_as_a_crash_and_the_game_goes_on(capsys):
    assert main(["py:tests.arena.bad_bots:BrokenWatcherBot", "builtin", "--sets", "1", "--workers", "1", "--json",
                 "--no-progress", "--seed", "broken-watcher"]) == 0
    broken, builtin = json.loads(capsys.readouterr().out)["bots"]
    assert broken["games"] == 4 and broken["faults"]["crashed"] > 100  # one an event
    assert sum(builtin["faults"].values()) == 0


def test_ctrl_c_stops_the_workers_and_prints_what_is_done():
    """SIGINT (Ctrl+C) after some sets: the sets done are reported, the status is 130."""
    script = Path(sys.executable).with_name("riichi-arena")
    proc = subprocess.Popen([str(script), "builtin", "random", "--sets", "20", "--workers", "2", "--seed", "stop"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # without a terminal: a line every 2 sets
        assert first.startswith("set 2/20")
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "interrupted" in out and "builtin:" in out


@pytest.mark.slow
def test_an_mjai_bot_that_answers_illegally_or_dies_is_played_for_and_counted(tmp_path: Path, capsys):
    """The bridge's fallback plays for an mjai bot's illegal answers and for a bot that has
    exited; the report counts them for that bot only."""
    illegal = bad_bot(tmp_path, "illegal", batch=False)
    exits = bad_bot(tmp_path, "exit", batch=False)
    assert main([f"mjai:{illegal}", f"mjai:{exits}", "builtin", "random", "--sets", "1", "--workers", "1",
                 "--json", "--no-progress"]) == 0
    bots = json.loads(capsys.readouterr().out)["bots"]
    assert bots[0]["faults"]["illegal"] > 0 and bots[0]["faults"]["dead"] == 0
    assert bots[1]["faults"]["dead"] > 0
    assert sum(bots[2]["faults"].values()) == sum(bots[3]["faults"].values()) == 0


def test_strict_makes_a_failing_bot_pay_chombo_and_the_parts_replay(tmp_path: Path, capsys):
    """--strict: each failed decision voids the hand and costs the bot a mangan-sized
    penalty; the game goes on from the next hand as a new record part, each replayable."""
    assert main(["py:tests.arena.bad_bots:CrashingBot", "builtin", "--sets", "1", "--workers", "1", "--strict",
                 "--json", "--no-progress", "--out", str(tmp_path), "--seed", "strict"]) == 0
    data = json.loads(capsys.readouterr().out)
    crashing, builtin = data["bots"]
    assert data["strict"] and crashing["faults"]["chombo"] == crashing["faults"]["crashed"] > 0
    assert builtin["faults"]["chombo"] == 0
    assert crashing["places"] == [0, 0, 0, 4]  # it pays every hand it plays
    parts = sorted(tmp_path.glob("set00000-rot0*.json"))
    assert len(parts) > 1
    for f in parts:
        GameRecord.from_json(f.read_text()).replay()


def test_a_chombo_pays_as_a_mangan_by_tsumo():
    from client_cli.arena.chombo import penalised
    assert penalised([25000] * 4, dealer=0, offender=2) == [29000, 27000, 17000, 27000]
    assert penalised([25000] * 4, dealer=1, offender=1) == [29000, 13000, 29000, 29000]


def test_a_record_exported_as_tenhou6_opens_in_the_replay_page_to_its_result(tmp_path: Path, capsys):
    """The replay page (/replay) reads Tenhou logs: an arena record under tenhou rules,
    exported as tenhou.net/6 (riichi-replay --export tenhou6), reads back to the same end."""
    from server.dropped_log import document_of_log
    from server.game.export_tenhou6 import export_tenhou6

    main(["builtin", "random", "--rules", "tenhou", "--sets", "1", "--workers", "1", "--out", str(tmp_path),
          "--seed", "viewer", "--no-progress"])
    record = GameRecord.from_json((tmp_path / "set00000-rot2.json").read_text())
    document = document_of_log(json.dumps(export_tenhou6(record)).encode())
    assert document["final"]["scores"] == record.final["scores"]
    assert len(document["hands"]) == len(record.results)


def test_a_slow_sdk_bot_is_cut_short_counted_late_and_played_for():
    """An in-process answer not given within the timeout is cut short, counted late and
    replaced by the SDK's default answer, as the bridge does for an mjai bot."""
    from client_cli.arena.seats import SdkSeat
    from client_cli.bot.sdk import Bot
    from server.game.actions import action_from_data
    from server.game.engine import Game
    from server.game.views import seat_view
    from server.players.dispatch import dispatch
    from tests.arena.bad_bots import SlowBot

    game = Game(seed=b"slow")
    seat = SdkSeat(SlowBot(), 0, timeout=0.01, first_timeout=0.0)
    try:
        action = seat.decide(game, 0)
    finally:
        seat.close()
    assert seat.faults["late"] == 1
    view = seat_view(game, 0)
    actions = view.pop("actions")
    assert action == action_from_data(dispatch(Bot(), view, actions))


def _arena(*args: str) -> dict:
    """riichi-arena as a process (a hang fails the test at the timeout instead of holding it)."""
    script = Path(sys.executable).with_name("riichi-arena")
    done = subprocess.run([str(script), *args, "--json", "--no-progress"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_an_sdk_bot_that_never_answers_is_cut_short_and_the_arena_finishes():
    """A bot asleep in a decision for ever: each game cuts it short once at --timeout (late),
    plays for it for the rest of that game (dead), and the run ends with every game reported,
    on two worker processes."""
    data = _arena("py:tests.arena.bad_bots:SleepingBot", "builtin", "--sets", "2", "--workers", "2",
                  "--timeout", "0.1", "--seed", "asleep")
    sleeping, builtin = data["bots"]
    assert sleeping["games"] == 8 and builtin["games"] == 24
    assert sleeping["faults"]["late"] == 8  # once a game: then it is left
    assert sleeping["faults"]["dead"] > 0
    assert sum(builtin["faults"].values()) == 0


def test_strict_makes_a_bot_that_never_answers_pay_chombo_and_the_arena_finishes():
    """--strict: each cut-short decision is a chombo, the game goes on with a fresh bot."""
    data = _arena("py:tests.arena.bad_bots:SleepingBot", "builtin", "--sets", "1", "--workers", "1",
                  "--timeout", "0.1", "--seed", "asleep-strict", "--strict")
    sleeping, builtin = data["bots"]
    assert sleeping["games"] == 4
    assert sleeping["faults"]["chombo"] == sleeping["faults"]["late"] > 0
    assert sleeping["faults"]["dead"] == 0  # a part ends at the chombo: no decision after it
    assert sum(builtin["faults"].values()) == 0


def test_an_sdk_bot_sees_every_event_with_its_view():
    from client_cli.arena.play import ArenaConfig, play_set
    from client_cli.arena.specs import parse_spec
    from tests.arena.bad_bots import WatchingBot

    outcome = play_set(ArenaConfig((parse_spec("py:tests.arena.bad_bots:WatchingBot"), parse_spec("random")),
                                   seed="w"), 0)
    assert WatchingBot.seen > 100
    # on_event runs on the bot's thread: a failed check there is counted as a crash
    assert [seat.faults for game in outcome.games for seat in game if seat.bot == 0] == [()] * 4
