"""Ratings and totals kept by both stores (issue 25: "a rating per player with its
uncertainty, updated from each GameFinished ... recomputable from the stored games";
"ratings rebuild to the same values; all of it on one node and on several nodes").

Each game is rated as its seats are kept, in one transaction, one game at a time; the
rebuild replays the rated games in that order and must find every rating as it was kept.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from server.finished import FinishedSeat, GameFinished, PlayerKind
from server.game.record import GameRecord
from server.game.seat_stats import SeatStats
from server.rules.config import preset
from server.store import SqliteStore
from server.store.postgres import PostgresStore
from server.store.rows import PlayerRow
from tests.services import new_database

pytestmark = pytest.mark.asyncio
NAMES = ["a", "b", "c", "d"]


async def _new_game(store, table: str = "t1") -> int:
    return await store.start_game(table, GameRecord(preset("tenhou"), b"x" * 32, None, NAMES))


def _game(game_id: int, players: list[str | None], scores: list[int], labels: tuple[str, ...] = (),
          abandoned: str | None = None, stats: SeatStats | None = None) -> GameFinished:
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    seats = tuple(FinishedSeat(s, players[s] or f"guest{s}", players[s], PlayerKind.HUMAN, scores[s],
                               None if abandoned else order.index(s) + 1, None if abandoned else 0.0,
                               None if abandoned else (scores[s] - 30000) / 1000, stats)
                  for s in range(4))
    return GameFinished(game_id, "t1", "tenhou", labels, seats, abandoned)


def _random_games(rng: random.Random, count: int) -> list[tuple[list[str | None], list[int]]]:
    """Games of seven players, a seat with no player now and then, the builtin bot in several seats at once."""
    games = []
    for _ in range(count):
        players: list[str | None] = rng.sample(["p-ann", "p-bo", "p-cy", "p-di", "p-ed", None, "bot-builtin"], 4)
        if rng.random() < 0.3:
            players[rng.randrange(4)] = "bot-builtin"
        scores = [rng.randrange(0, 600) * 100 for _ in range(4)]
        games.append((players, scores))
    return games


async def test_ratings_kept_game_by_game_are_what_the_rebuild_gives(store):
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
    for players, scores in _random_games(random.Random(25), 30):
        await store.keep_finished(_game(await _new_game(store), players, scores))
    abandoned = await _new_game(store)
    await store.keep_finished(_game(abandoned, ["p-ann", "p-bo", "p-cy", "p-di"], [90000, 0, 0, 10000],
                                    abandoned="no player connected"))
    kept = await store.ratings()
    assert None not in kept and {"p-ann", "bot-builtin"} <= set(kept)
    assert sum(r.games for r in kept.values()) <= 4 * 30
    report = await store.rebuild_ratings()
    assert (report.games, report.players, report.changed) == (30, len(kept), 0)
    assert await store.ratings() == kept


async def test_a_game_kept_twice_is_rated_once_and_a_wrong_rating_is_put_right_by_the_rebuild(store):
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
    game = _game(await _new_game(store), ["p-ann", "p-bo", "p-cy", "p-di"], [40000, 30000, 20000, 10000])
    await store.keep_finished(game)
    once = await store.ratings()
    await store.keep_finished(game)  # (a write tried again)
    assert await store.ratings() == once and once["p-ann"].games == 1
    if isinstance(store, PostgresStore):
        await store.pool.execute("UPDATE ratings SET mu = 99 WHERE player_id = 'p-bo'")
    else:
        store.file.db.execute("UPDATE ratings SET mu = 99 WHERE player_id = 'p-bo'")
    seen: list[tuple[int, int]] = []
    report = await store.rebuild_ratings(lambda done, total: seen.append((done, total)))
    assert (report.games, report.players, report.changed) == (1, 4, 1) and seen == [(1, 1)]
    assert await store.ratings() == once


async def test_totals_add_up_a_players_games_played_out_and_a_label_keeps_to_its_games(store):
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
    await store.add_player(PlayerRow("p-ann", "Ann", PlayerKind.HUMAN, False, 1.0), "key-ann")
    await store.add_player(PlayerRow("p-ann2", "Ann", PlayerKind.HUMAN, False, 2.0), "key-ann2")
    counts = SeatStats(hands=8, wins=2, deal_ins=1, riichi=3, called=2)
    await store.keep_finished(_game(await _new_game(store), ["p-ann", "p-bo", "p-cy", "p-di"],
                                    [40000, 30000, 20000, 10000], ("club:east",), stats=counts))
    await store.keep_finished(_game(await _new_game(store), ["p-bo", "p-ann", "p-cy", "p-di"],
                                    [40000, 30000, 20000, 10000]))
    await store.keep_finished(_game(await _new_game(store), ["p-ann", "p-bo", "p-cy", "p-di"],
                                    [0, 0, 0, 0], abandoned="no player connected"))
    ann = await store.player_totals("p-ann")
    assert (ann.name, ann.games, ann.places, ann.average_place, ann.score_sum, ann.total) == (
        "Ann", 2, (1, 1, 0, 0), 1.5, 70000, 10.0)
    assert ann.stats == counts  # (the second game's seats have no counts: left out)
    assert ann.rating == (await store.ratings())["p-ann"] and ann.rating.games == 2
    in_club = await store.player_totals("p-ann", "club:east")
    assert (in_club.games, in_club.places) == (1, (1, 0, 0, 0))
    assert await store.player_totals("p-ann", "club:west") is None
    assert await store.player_totals("p-nobody") is None
    standings = await store.standings()
    assert [t.player_id for t in standings] == ["p-bo", "p-ann", "p-cy", "p-di"]  # the same games: by rating
    assert [t.rating.ordinal for t in standings] == sorted((t.rating.ordinal for t in standings), reverse=True)
    assert [t.player_id for t in await store.standings("club:east")] == ["p-bo", "p-ann", "p-cy", "p-di"]
    assert [(t.player_id, t.games) for t in await store.standings("club:east")][:1] == [("p-bo", 1)]
    assert [p.id for p in await store.players_named("Ann")] == ["p-ann", "p-ann2"]
    assert await store.players_named("Nobody") == []


async def test_games_that_end_at_once_on_two_nodes_are_rated_one_after_the_other(postgres):
    """Several nodes (two stores on one database): a bot sits in every game, the games' seats
    are kept at once, and the ratings are still what the rebuild gives."""
    url = await new_database(postgres)
    nodes = [await PostgresStore.open(url), await PostgresStore.open(url)]
    try:
        await nodes[0].save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
        rng = random.Random(7)
        games = _random_games(rng, 40)
        ids = [await _new_game(nodes[0]) for _ in games]
        await asyncio.gather(*(nodes[i % 2].keep_finished(_game(game_id, ["bot-builtin", *players[1:]], scores))
                               for i, (game_id, (players, scores)) in enumerate(zip(ids, games))))
        kept = await nodes[1].ratings()
        seqs = await nodes[0].pool.fetch("SELECT rated_seq FROM games WHERE rated_seq IS NOT NULL ORDER BY rated_seq")
        assert [row[0] for row in seqs] == list(range(1, 41))
        report = await nodes[0].rebuild_ratings()
        assert (report.games, report.changed) == (40, 0) and await nodes[1].ratings() == kept
    finally:
        for node in nodes:
            await node.aclose()


async def test_a_game_that_ends_while_the_ratings_are_rebuilt_is_rated_once_and_in_its_order(store):
    """The rebuild replays what was rated with no lock held, so a game may end meanwhile: it is
    either in the rebuild (rated under the lock, after the others) or rated after it, from
    the rebuilt ratings; either way the ratings are what a rebuild gives."""
    await store.save_table("t1", "INV1", "WAT1", preset("tenhou"), None)
    for players, scores in _random_games(random.Random(3), 12):
        await store.keep_finished(_game(await _new_game(store), players, scores))
    late_id = await _new_game(store)
    late = _game(late_id, ["p-ann", "p-bo", "p-cy", "bot-builtin"], [50000, 30000, 15000, 5000])
    ending: list[asyncio.Task] = []

    def a_game_ends(done: int, total: int) -> None:
        if isinstance(store, SqliteStore):  # (at once, between the replay and the locked part)
            store.file.keep_finished(late)
        else:
            ending.append(asyncio.get_running_loop().create_task(store.keep_finished(late)))

    report = await store.rebuild_ratings(a_game_ends)
    await asyncio.gather(*ending)
    assert report.games == 13 if isinstance(store, SqliteStore) else report.games in (12, 13)
    assert report.changed == 0
    again = await store.rebuild_ratings()
    assert (again.games, again.changed) == (13, 0)
