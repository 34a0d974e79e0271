"""Both stores, the embedded SQLite one and PostgreSQL's, through the one `Store` interface:
what one keeps and gives back, the other does too (issue 16: "Tables, seats, games and every
decision, with the same meaning as the SQLite store")."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest

from server.finished import FinishedSeat, GameFinished
from server.game.engine import Game
from server.game.record import GameRecord
from server.game.seat_stats import SeatStats
from server.players import PLAYERS
from server.rules.config import preset
from server.store import token_hash
from server.store.rows import PlayerKind, PlayerRow, SeatRow
from tests.store.walls_games import WALLS, played_out


pytestmark = pytest.mark.asyncio


def _played(decisions: int, seed: bytes = b"s" * 32) -> Game:
    game = Game(preset("tenhou"), seed=seed, names=["a", "b", "c", "d"])
    rng = random.Random(0)
    while not game.over and len(game.decisions) < decisions:
        seat = game.waiting_for()[0]
        game.apply(seat, PLAYERS["shanten"](game, seat, game.legal_actions(seat), rng))
    return game


def _seat(seat: int, name: str, token: str | None = None, host: bool = False) -> SeatRow:
    return SeatRow(seat, name, "human" if token else "bot", None if token else "shanten",
                   token_hash(token) if token else None, host)


async def test_the_decisions_appended_replay_to_the_same_game_and_the_table_is_rebuilt_from_its_rows(store):
    game = _played(150)
    await store.save_table("t1", "INV1", "WAT1", game.rules, {"per_decision": 5.0, "bank": 20.0})
    for seat, name in enumerate("abcd"):
        await store.save_seat("t1", _seat(seat, name, token=f"tok-{name}" if seat < 2 else None, host=seat == 0))
    await store.set_table_state("t1", "playing")
    game_id = await store.start_game("t1", GameRecord.of(Game(game.rules, seed=game.seed, names=game.names)))
    for first in range(0, len(game.decisions), 7):
        await store.append_decisions(game_id, first, game.decisions[first:first + 7])
    await store.set_table_broadcasts("t1", 12)
    [row] = await store.open_tables()
    assert (row.id, row.invite_code, row.watch_code, row.state, row.game_id, row.broadcasts) == (
        "t1", "INV1", "WAT1", "playing", game_id, 12)
    assert row.clock == {"per_decision": 5.0, "bank": 20.0} and row.rules["preset"] == "tenhou"
    assert [(s.seat, s.name, s.kind, s.host) for s in row.seats] == [
        (0, "a", "human", True), (1, "b", "human", False), (2, "c", "bot", False), (3, "d", "bot", False)]
    replayed = (await store.record(game_id)).replay()
    assert replayed.decisions == game.decisions and replayed.public.scores == game.public.scores
    await store.finish_game(game_id, {"scores": [1, 2, 3, 4]}, 99)
    await store.set_table_state("t1", "finished")
    assert await store.open_tables() == []
    with pytest.raises(KeyError):
        await store.record(game_id + 1000)


async def test_a_token_finds_its_seat_while_the_table_is_open_and_its_past_seat_after(store):
    await store.save_table("t1", "INV1", "WAT1", preset("ema2016"), None)
    await store.save_seat("t1", _seat(2, "bob", token="secret"))
    await store.save_watcher("t1", token_hash("watching"))
    assert await store.seat_of_token(token_hash("secret")) == ("t1", 2)
    assert await store.watch_of_token(token_hash("watching")) == "t1"
    assert await store.past_seat_of_token(token_hash("secret")) is None
    game_id = await store.start_game("t1", GameRecord(preset("ema2016"), b"x" * 32, None, ["a", "bob", "c", "d"]))
    await store.finish_game(game_id, {"scores": [25000] * 4}, 7)
    await store.set_table_state("t1", "finished")
    assert await store.seat_of_token(token_hash("secret")) is None
    assert await store.watch_of_token(token_hash("watching")) is None  # a closed table's watchers go
    past = await store.past_seat_of_token(token_hash("secret"))
    assert (past.table_id, past.invite_code, past.seat, past.state, past.game_id, past.final, past.names,
            past.result_seq) == ("t1", "INV1", 2, "finished", game_id, {"scores": [25000] * 4},
                                 ["a", "bob", "c", "d"], 7)


async def test_a_seat_left_on_purpose_stays_left_until_it_is_taken_again(store):
    await store.save_table("t1", "INV1", "WAT1", preset("ema2016"), None)
    await store.save_seat("t1", _seat(1, "ann", token="t-ann"))
    await store.save_seat("t1", _seat(3, "cy", token="t-cy"))
    await store.set_seat_left("t1", 1, True)
    await store.set_seat_host("t1", 3)
    [row] = await store.open_tables()
    assert [(s.seat, s.left, s.host) for s in row.seats] == [(1, True, False), (3, False, True)]
    await store.save_seat("t1", _seat(1, "ann", token="t-ann"))  # taken again
    await store.remove_seat("t1", 3)
    await store.remove_watcher("t1", token_hash("nobody"))
    [row] = await store.open_tables()
    assert [(s.seat, s.left) for s in row.seats] == [(1, False)]


async def test_a_closed_tables_reason_is_given_with_its_past_seat(store):
    await store.save_table("t1", "INV1", "WAT1", preset("ema2016"), None)
    await store.save_seat("t1", _seat(0, "ann", token="t-ann"))
    await store.set_table_state("t1", "closed", "the table expired")
    past = await store.past_seat_of_token(token_hash("t-ann"))
    assert (past.state, past.reason, past.game_id) == ("closed", "the table expired", None)


async def test_decisions_appended_by_many_tables_at_once_are_all_kept_in_order(store):
    games = [_played(60, seed=bytes([i]) * 32) for i in range(20)]
    ids = []
    for i, game in enumerate(games):
        await store.save_table(f"t{i}", f"I{i}", f"W{i}", game.rules, None)
        ids.append(await store.start_game(f"t{i}", GameRecord.of(Game(game.rules, seed=game.seed,
                                                                      names=game.names))))

    async def play(game_id: int, game: Game) -> None:  # one table's actor: one append at a time
        for first in range(0, len(game.decisions), 3):
            await store.append_decisions(game_id, first, game.decisions[first:first + 3])

    await asyncio.gather(*(play(game_id, game) for game_id, game in zip(ids, games)))
    for game_id, game in zip(ids, games):
        assert (await store.record(game_id)).decisions == game.decisions


async def test_a_game_dealt_from_given_walls_is_kept_with_them_and_its_record_replays_to_its_result(store):
    """A spec's walls "instead of a seed" (server/table/spec.py): the store keeps them with the
    game, and its record, with no seed, replays to the game's end."""
    game = played_out(WALLS)
    assert game.seed is None
    await store.save_table("t1", "INV1", "WAT1", game.rules, None)
    game_id = await store.start_game("t1", GameRecord(game.rules, None, WALLS, list(game.names)))
    await store.append_decisions(game_id, 0, game.decisions)
    await store.finish_game(game_id, game.final, 42)
    record = await store.record(game_id)
    assert (record.seed, record.walls) == (None, WALLS)
    replayed = record.replay()
    assert replayed.final == game.final and replayed.decisions == game.decisions
    assert replayed.final["seed"] is None  # (no seed to reveal at its end)


async def test_a_game_is_stored_with_its_seed_or_its_walls_and_a_record_of_both_or_neither_is_refused(store):
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
    for seed, walls, has in ((b"x" * 32, WALLS, "both"), (None, None, "neither")):
        with pytest.raises(ValueError, match=f"stored with its seed or its walls, and this record has {has}"):
            await store.start_game("t1", GameRecord(preset("tenhou"), seed, walls, ["a", "b", "c", "d"]))
    seeded = await store.start_game("t1", GameRecord(preset("tenhou"), b"x" * 32, None, ["a", "b", "c", "d"]))
    record = await store.record(seeded)
    assert (record.seed, record.walls) == (b"x" * 32, None)


async def test_the_store_answers_that_it_is_healthy(store):
    assert await store.healthy()


async def test_a_games_row_says_it_is_in_play_until_its_end_is_stored(store):
    await store.save_table("t1", "INV1", "WAT1", preset("ema2016"), None)
    game_id = await store.start_game("t1", GameRecord(preset("ema2016"), b"x" * 32, None, ["a", "b", "c", "d"]))
    row = await store.game(game_id)
    assert (row.id, row.table_id, row.names, row.rules, row.finished, row.final) == (
        game_id, "t1", ["a", "b", "c", "d"], "ema2016", None, None)
    await store.finish_game(game_id, {"scores": [25000] * 4}, 7)
    row = await store.game(game_id)
    assert row.finished is not None and row.final == {"scores": [25000] * 4}
    assert await store.game(game_id + 1000) is None


SEATS = ((0, "ann", "p-ann", PlayerKind.HUMAN, 41000, 1, 35.0, 51.0),
         (1, "bot", None, PlayerKind.BOT, 30000, 2, 5.0, 5.0),
         (2, "cy", "p-cy", PlayerKind.HUMAN, 19000, 3, -5.0, -16.0),
         (3, "dee", None, PlayerKind.HUMAN, 10000, 4, -15.0, -40.0))


def _finished(game_id: int, abandoned: str | None = None) -> GameFinished:
    """A game of SEATS's, played out (or abandoned, with the scores as they stood)."""
    seats = tuple(FinishedSeat(*row) if abandoned is None else FinishedSeat(*row[:5]) for row in SEATS)
    return GameFinished(game_id, "t1", "tenhou", ("arena:daily", "event:3"), seats, abandoned)


async def test_a_finished_games_seats_are_kept_once_linked_to_their_players(store):
    """"Every game kept, linked to its players: games and game_seats rows with player ids, scores,
    places, uma; SQLite and PostgreSQL alike"."""
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
    first = await store.start_game("t1", GameRecord(preset("tenhou"), b"x" * 32, None, ["ann", "bot", "cy", "dee"]))
    second = await store.start_game("t1", GameRecord(preset("tenhou"), b"y" * 32, None, ["ann", "bot", "cy", "dee"]))
    await store.keep_finished(_finished(first))
    await store.keep_finished(_finished(first))  # (a write tried again: nothing twice)
    await store.keep_finished(_finished(second, abandoned="no player connected"))
    games = await store.player_games("p-ann")
    assert [(g.game_id, g.seat, g.name, g.score, g.place, g.uma, g.total, g.abandoned, g.labels) for g in games] == [
        (second, 0, "ann", 41000, None, None, None, True, ("arena:daily", "event:3")),
        (first, 0, "ann", 41000, 1, 35.0, 51.0, False, ("arena:daily", "event:3"))]
    assert [(g.game_id, g.place, g.total) for g in await store.player_games("p-cy", limit=1)] == [(second, None, None)]
    assert await store.player_games("p-nobody") == []
    assert await store.game_players(first) == ["p-ann", None, "p-cy", None]
    assert await store.game_players(first + 1000) == []


async def test_a_finished_games_seat_counts_are_kept_with_its_seats_and_unknown_ones_stay_unknown(store):
    """Issue 25: "win, deal-in, riichi and call rates": each seat's counts kept in game_seats (schema step 11)."""
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
    counted = await store.start_game("t1", GameRecord(preset("tenhou"), b"x" * 32, None, ["ann", "bot", "cy", "dee"]))
    unknown = await store.start_game("t1", GameRecord(preset("tenhou"), b"y" * 32, None, ["ann", "bot", "cy", "dee"]))
    stats = SeatStats(hands=11, wins=3, deal_ins=1, riichi=2, called=4)
    game = _finished(counted)
    await store.keep_finished(dataclasses.replace(game, seats=(dataclasses.replace(game.seats[0], stats=stats),
                                                               *game.seats[1:])))
    await store.keep_finished(_finished(unknown))
    assert [(g.game_id, g.stats) for g in await store.player_games("p-ann")] == [(unknown, None), (counted, stats)]


async def test_a_tables_spec_and_its_seats_player_ids_come_back_with_it(store):
    spec = {"rules": "tenhou", "seats": [{"kind": "reserved", "player": "p-ann"}, {"kind": "open"}], "labels": ["x:y"]}
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None, spec)
    await store.save_seat("t1", SeatRow(1, "bob", "human", None, token_hash("t-bob"), False, player_id="p-bob"))
    [row] = await store.open_tables()
    assert row.spec == spec and [(s.seat, s.player_id) for s in row.seats] == [(1, "p-bob")]
async def test_a_player_is_found_by_the_hash_of_its_key_and_keeps_its_new_name(store):
    ann = await store.add_player(PlayerRow("p-ann", "ann", PlayerKind.HUMAN, True, 1.0), token_hash("ann's key"))
    assert ann == PlayerRow("p-ann", "ann", PlayerKind.HUMAN, True, 1.0)
    # the same key again (two hellos at once): the player stored first, not a second one
    again = await store.add_player(PlayerRow("p-other", "anne", PlayerKind.HUMAN, False, 2.0), token_hash("ann's key"))
    assert again == ann and await store.player("p-other") is None
    await store.add_player(PlayerRow("bot-builtin", "builtin bot", PlayerKind.BOT, False, 3.0), None)
    await store.add_player(PlayerRow("bot-builtin", "renamed?", PlayerKind.BOT, False, 4.0), None)
    await store.rename_player("p-ann", "Ann S.")
    assert (await store.player_of_key(token_hash("ann's key"))).name == "Ann S."
    assert await store.player_of_key(token_hash("nobody's key")) is None
    assert [(p.id, p.name, p.kind, p.issued) for p in await store.players()] == [
        ("p-ann", "Ann S.", PlayerKind.HUMAN, True), ("bot-builtin", "builtin bot", PlayerKind.BOT, False)]


async def test_a_seat_keeps_its_player_id_across_a_rebuild(store):
    await store.save_table("t1", "INV1", "WAT1", preset("ema2016"), None)
    await store.save_seat("t1", SeatRow(0, "ann", "human", None, token_hash("t-ann"), True, player_id="p-ann"))
    await store.save_seat("t1", SeatRow(1, "builtin-bot-1", "bot", "builtin", None, False, player_id="bot-builtin"))
    await store.save_seat("t1", _seat(2, "old"))
    [row] = await store.open_tables()
    assert [(s.seat, s.player_id) for s in row.seats] == [(0, "p-ann"), (1, "bot-builtin"), (2, None)]
