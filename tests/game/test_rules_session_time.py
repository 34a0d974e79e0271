"""The session's time (docs/events.md 'The session clock'): when time runs out the hand in play
is finished, and the game ends there, or after one more hand (Pantheon's EMA ruleset).  The EMA
rule text (../shared/rules) says nothing of time limits; the site rules say only that a game
"interrupted by time running out" is scored as a completed one ("a total of 7 table points are
awarded"), so the final result is made as at a normal end (flow.final_result).

The hand in play is the hand dealt: the engine deals the next hand as soon as one ends, so time
running out between hands (during the table's pause) leaves that next hand to be played out."""

from __future__ import annotations

import random

import pytest

from protocol.events import EventType
from server.game.actions import TABLE_SEAT, ActionError, TimeUp, action_from_data, action_to_data
from server.game.engine import Game
from server.game.export_mjai import export_mjai
from server.game.export_tenhou6 import export_tenhou6
from server.game.flow import final_result
from server.game.record import GameRecord
from server.game.seed_check import verify_seed
from server.replay_document import replay_document
from server.rules.config import EMA2016, TENHOU
from tests.game.simple_players import greedy_player

SEED = bytes(range(32))


def _play(game: Game, rng: random.Random, until=lambda game, events: False) -> list:
    """Play on with greedy players until `until(game, events of the last decision)` or the end."""
    while not game.over:
        seat = game.waiting_for()[0]
        events = game.apply(seat, greedy_player(game, seat, rng))
        if until(game, events):
            return events
    return []


def _into_hand(game: Game, rng: random.Random, number: int, decisions: int = 5) -> None:
    """Play until hand `number` is dealt, then `decisions` decisions of it."""
    _play(game, rng, lambda g, events: any(e.type == EventType.HAND_START for e in events)
          and g.public.hand_number == number)
    for _ in range(decisions):
        seat = game.waiting_for()[0]
        game.apply(seat, greedy_player(game, seat, rng))


def _hand_numbers_played(game: Game) -> int:
    return len(game.results)


@pytest.mark.parametrize("rules", [EMA2016, TENHOU], ids=["ema2016", "tenhou"])
def test_time_up_the_hand_in_play_is_finished_then_the_game_ends(rules):
    """Pantheon's EMA ruleset: when time runs out the hand in play is finished, and no hand after it."""
    rng = random.Random(1)
    game = Game(rules, seed=SEED)
    _into_hand(game, rng, 2)
    assert game.apply(TABLE_SEAT, TimeUp(0)) == []  # nothing is seen to happen in the hand
    assert not game.over
    _play(game, rng)
    assert game.over and game.final is not None
    assert _hand_numbers_played(game) == 3  # hands 0, 1 and 2, the one in play


def test_time_up_with_one_more_hand_plays_the_hand_in_play_and_one_more():
    """`--ending one-more-hand`: the hand in play is finished, then one more hand is played."""
    rng = random.Random(2)
    game = Game(EMA2016, seed=SEED)
    _into_hand(game, rng, 1)
    game.apply(TABLE_SEAT, TimeUp(1))
    _play(game, rng)
    assert game.over and _hand_numbers_played(game) == 3  # hand 1 in play, then hand 2


def test_time_up_between_hands_the_hand_already_dealt_is_the_hand_in_play():
    """Between hands the engine has dealt the next hand: that hand is the one in play and is played out."""
    rng = random.Random(3)
    game = Game(EMA2016, seed=SEED)
    _play(game, rng, lambda g, events: any(e.type == EventType.HAND_END for e in events))
    assert game.public.hand_number == 1 and len(game.results) == 1  # hand 0 ended, hand 1 dealt
    game.apply(TABLE_SEAT, TimeUp(0))
    _play(game, rng)
    assert _hand_numbers_played(game) == 2


def test_a_game_ended_by_time_gets_its_final_result_as_at_a_normal_end():
    """Site rules: a game "interrupted by time running out" is scored as a completed one: the
    leftover sticks, places and uma are made by the one final_result, from the scores and
    sticks after the last hand."""
    rng = random.Random(4)
    game = Game(EMA2016, seed=SEED)
    _into_hand(game, rng, 1)
    game.apply(TABLE_SEAT, TimeUp(0))
    while True:
        seat = game.waiting_for()[0]
        action = greedy_player(game, seat, rng)
        went_on = game.snapshot()
        went_on.last_hand = None  # the same decision, in a game whose time is not up
        game.apply(seat, action)
        if game.over:
            break
    went_on.apply(seat, action)
    assert not went_on.over and went_on.results == game.results
    assert game.final == final_result(went_on.public, EMA2016, SEED).to_data()
    assert sum(game.final["results"]) == pytest.approx(0, abs=0.05)


@pytest.mark.parametrize("extra", [0, 1])
def test_a_replay_of_the_record_ends_the_same(extra):
    """The record holds the table's TimeUp with the players' decisions: its replay ends where the game did."""
    rng = random.Random(5 + extra)
    game = Game(EMA2016, seed=SEED)
    _into_hand(game, rng, 1, decisions=9)
    game.apply(TABLE_SEAT, TimeUp(extra))
    _play(game, rng)
    record = GameRecord.from_json(GameRecord.of(game).to_json())
    assert (TABLE_SEAT, TimeUp(extra)) in record.decisions
    replayed = record.replay()
    assert replayed.over and replayed.final == game.final and replayed.results == game.results
    assert len(export_tenhou6(record)["log"]) == len(game.results)  # the exports read it as any game
    assert sum(1 for e in export_mjai(record) if e["type"] == "start_kyoku") == len(game.results)
    assert len(replay_document(record)["hands"]) == len(game.results)  # the replay viewer's, too
    assert verify_seed(record)[0]


def test_time_up_is_the_tables_decision_not_a_seats():
    game = Game(EMA2016, seed=SEED)
    with pytest.raises(ActionError, match="the table's decision"):
        game.apply(0, TimeUp(0))
    game.apply(TABLE_SEAT, TimeUp(0))
    with pytest.raises(ActionError, match="already up"):
        game.apply(TABLE_SEAT, TimeUp(0))


def test_time_up_after_the_game_is_over_is_refused():
    rng = random.Random(6)
    game = Game(EMA2016, seed=SEED)
    _play(game, rng)
    with pytest.raises(ActionError, match="the game is over"):
        game.apply(TABLE_SEAT, TimeUp(0))


def test_time_up_as_plain_data():
    assert action_from_data(action_to_data(TimeUp(1))) == TimeUp(1)
    with pytest.raises(ActionError, match="extra_hands"):
        action_from_data({"type": "time_up", "extra_hands": -1})


@pytest.mark.parametrize("extra", [0, 1])
def test_a_game_ended_by_time_round_trips_through_the_tenhou6_importer(extra):
    """Our tenhou.net/6 export says the game ended by time (`rule.time_up`); the importer then
    tells the engine the time was up in the log's last hand: the same hands, the same final."""
    from server.game.importers.replay import replay_log
    from server.game.importers.tenhou6 import parse_tenhou6

    rng = random.Random(7 + extra)
    game = Game(TENHOU, seed=SEED)
    _into_hand(game, rng, 1)
    game.apply(TABLE_SEAT, TimeUp(extra))
    _play(game, rng)
    exported = export_tenhou6(GameRecord.of(game))
    assert exported["rule"]["time_up"] == 1
    replay = replay_log(parse_tenhou6(exported))
    assert replay.error is None and replay.compare().agrees
    assert {**replay.game.final, "seed": None} == {**game.final, "seed": None}
    assert export_tenhou6(replay.record)["log"] == exported["log"]


def test_a_log_that_stops_before_the_games_end_is_not_taken_for_one_ended_by_time():
    """A log without `time_up` whose engine game goes on is still reported so (the importer's check)."""
    from server.game.importers.replay import replay_log
    from server.game.importers.tenhou6 import parse_tenhou6

    rng = random.Random(9)
    game = Game(TENHOU, seed=SEED)
    _into_hand(game, rng, 1)
    game.apply(TABLE_SEAT, TimeUp(0))
    _play(game, rng)
    exported = export_tenhou6(GameRecord.of(game))
    del exported["rule"]["time_up"]
    assert not replay_log(parse_tenhou6(exported)).compare().agrees
