"""The replay viewer's document (server/replay_document.py): after every step, the four
concealed hands it shows are the engine's, for our own games and for imported Tenhou logs;
its events are the spectator's, with no concealed tile in them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from protocol.events import EventType
from server.dropped_log import LIMIT, DroppedLogError, answer, document_of_log
from server.game.importers.mjlog import parse_mjlog
from server.game.importers.replay import replay_log
from server.game.importers.tenhou6 import parse_tenhou6
from server.game.record import GameRecord
from server.replay_document import replay_document
from server.rules.config import EMA2016, TENHOU
from tests.game.simple_players import greedy_player, whole_game

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
MJLOG = CORPUS / "tenhou-mjlog" / "first-example.mjlog"
TENHOU6 = CORPUS / "tenhou6" / "chankan.json"


def assert_hands_follow_the_engine(record: GameRecord, least: int = 100) -> dict:
    """Replay the record decision by decision: after each, the document's step (the last event
    that decision caused) shows the engine's four concealed hands and drawn tiles."""
    doc = replay_document(record)
    steps = [step for hand in doc["hands"] for step in hand["steps"]]
    game = record.new_game()
    at = sum(1 for e in game.start_events if e.type not in (EventType.GAME_START,)) - 1
    compared = 0
    for seat, action in record.decisions:
        events = game.apply(seat, action)
        at += sum(1 for e in events if e.type not in (EventType.GAME_END, EventType.STOPPED))
        if game.over:
            break
        step = steps[at]
        assert step["hands"] == [sorted(game.private[s].hand) for s in range(4)], f"step {at}"
        # the engine keeps a drawn tile that went into a kong (robbed there) as `drawn`: shown apart only if held
        held = [d if d in game.private[s].hand else None for s, d in enumerate(p.drawn for p in game.private)]
        assert step["drawn"] == held, f"step {at}"
        compared += 1
    assert compared >= least
    assert at == len(steps) - 1
    return doc


@pytest.mark.parametrize("rules,number", [(EMA2016, 1), (TENHOU, 2), (TENHOU, 60)])
def test_every_steps_hands_are_the_engines_in_a_whole_game(rules, number):
    game, _ = whole_game(rules, f"replay {number}".encode(), number, greedy_player)
    doc = assert_hands_follow_the_engine(GameRecord.of(game))
    assert [hand["result"] for hand in doc["hands"]] == game.results
    assert doc["final"]["scores"] == game.final["scores"]


def test_every_steps_hands_are_the_engines_in_an_imported_mjlog():
    replay = replay_log(parse_mjlog(MJLOG.read_text()))
    assert replay.error is None
    doc = assert_hands_follow_the_engine(replay.record)
    assert len(doc["hands"]) == len(replay.game.results)


@pytest.mark.parametrize("name", ["ranked_game.json", "suukantsu_1.json", "chankan.json"])
def test_every_steps_hands_are_the_engines_in_an_imported_tenhou6_log(name):
    replay = replay_log(parse_tenhou6(json.loads((CORPUS / "tenhou6" / name).read_text())))
    assert replay.error is None
    doc = assert_hands_follow_the_engine(replay.record, least=20)
    assert [hand["result"] for hand in doc["hands"]] == replay.game.results


def test_the_steps_events_are_the_spectators_with_no_concealed_tile():
    game, events = whole_game(TENHOU, b"replay spectator", 3, greedy_player)
    doc = replay_document(GameRecord.of(game))
    shown = [step["event"] for hand in doc["hands"] for step in hand["steps"]]
    expected = [e.for_seat(None) for e in events if e.type not in (EventType.GAME_START, EventType.GAME_END)]
    assert shown == expected
    assert not any("hand" in e or (e["type"] == EventType.DRAW and "tile" in e) for e in shown)


def test_each_hand_says_its_result_dora_and_ura_from_the_wall():
    game, _ = whole_game(TENHOU, b"replay ura", 2, greedy_player)
    doc = replay_document(GameRecord.of(game))
    for hand in doc["hands"]:
        assert hand["result"] is not None and hand["steps"][-1]["event"]["type"] == EventType.HAND_END
        assert len(hand["ura"]) == len(hand["dora"]) >= 1
        assert hand["dora"] == hand["steps"][0]["event"]["dora_indicators"] + [
            s["event"]["indicator"] for s in hand["steps"] if s["event"]["type"] == EventType.DORA]


def test_a_logs_ura_is_only_what_a_riichi_win_revealed():
    doc = document_of_log(MJLOG.read_bytes())
    assert doc["source"] == "mjlog" and "note" not in doc
    for hand in doc["hands"]:
        assert hand["ura"] == list(hand["result"].get("ura_indicators") or [])


def test_a_dropped_log_gzipped_or_tenhou6_gives_the_same_kind_of_document():
    packed = document_of_log(gzip.compress(MJLOG.read_bytes()))
    assert packed == document_of_log(MJLOG.read_bytes())
    doc = json.loads(answer(TENHOU6.read_bytes()))
    assert doc["source"] == "tenhou6" and doc["hands"][0]["steps"][0]["event"]["type"] == "hand_start"


def test_a_dropped_game_record_shows_every_hand_of_an_ema_game_whole():
    """Our own records (riichi-arena --out, riichi-server export) hold the walls played: the page
    shows every hand under the record's rules, as the server's own replay of it."""
    game, _ = whole_game(EMA2016, b"dropped record", 3, greedy_player)
    record = GameRecord.of(game)
    doc = document_of_log(record.to_json().encode())
    assert doc == {**replay_document(record), "source": "record"} and doc["rules"] == "ema2016"
    assert len(doc["hands"]) == len(game.results) >= 8


@pytest.mark.parametrize("data,said", [
    (b"hello", "neither an mjlog"),
    (b"\xff\xfe\x00", "not a text file"),
    (b"\x1f\x8bnot gzip", "broken gzip"),
    (b"x" * (LIMIT + 1), "at most"),
    (b'{"log": [[1]], "name": ["a", "b", "c", "d"]}', "tenhou"),
    (b'{"format": "riichi-server-record/1", "decisions": 5}', "the game record cannot be replayed"),
])
def test_a_bad_dropped_file_is_refused_in_one_line_saying_what_was_wrong(data, said):
    error = json.loads(answer(data))["error"]
    assert said in error and "\n" not in error
    with pytest.raises((DroppedLogError, ValueError)):
        document_of_log(data)
