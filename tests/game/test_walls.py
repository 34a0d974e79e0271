"""The wall: the documented shuffle of a seed, the deal and the dead wall (docs/RULINGS.md,
"The wall, for replays and for tests"), and the seed check of a finished game.

    "A hand's wall is the 136 tile ids in the order play takes them: `wall[0:52]` is the
    deal ...; `wall[52:]` are the live draws in order; the dead wall is the last 14 ..."
"""

from __future__ import annotations

import hashlib
import random
import struct

import pytest

from server.game.actions import Ankan, Discard, Pass, Ron
from server.game.engine import Game
from server.game.record import GameRecord
from server.game.seed_check import verify_seed
from server.game.wall import deal, seed_hash, shuffled_wall
from server.rules.config import EMA2016, TENHOU

SEEDS = [bytes(32), b"riichi", bytes(range(32)), b"\xff" * 32]


# ---- the shuffle ----------------------------------------------------------------------


def test_shuffle_is_pinned_for_the_zero_seed():
    """wall.py: "the same seed gives the same wall on every platform and Python version".
    Pinned literally, so that any change to the algorithm fails here."""
    assert shuffled_wall(bytes(32), 0)[:10] == [134, 12, 36, 16, 15, 97, 126, 5, 59, 33]


def test_shuffle_is_pinned_for_a_short_seed_and_a_later_hand():
    assert shuffled_wall(b"riichi", 3)[:10] == [53, 23, 98, 50, 124, 135, 37, 68, 86, 118]


def _documented_shuffle(seed: bytes, hand_number: int) -> list[int]:
    """wall.py's docstring, followed word for word: a SHA-256 stream of big-endian words,
    Fisher-Yates from the top with rejection sampling, starting from 0..135."""
    words: list[int] = []
    block = 0

    def word() -> int:
        nonlocal block
        if not words:
            digest = hashlib.sha256(seed + hand_number.to_bytes(4, "big") + block.to_bytes(4, "big")).digest()
            words.extend(struct.unpack(">8I", digest))
            block += 1
        return words.pop(0)

    tiles = list(range(136))
    for i in range(135, 0, -1):
        limit = 2**32 - (2**32 % (i + 1))
        w = word()
        while w >= limit:
            w = word()
        j = w % (i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_is_the_documented_algorithm(seed):
    """wall.py: "block(n) = SHA-256(seed || hand_number as 4 bytes big-endian || n as 4
    bytes big-endian) ... for i from 135 down to 1: draw words w until w < 2**32 - (2**32
    mod (i + 1)) ... j = w mod (i + 1); swap tiles i and j"."""
    for hand in (0, 1, 7):
        assert shuffled_wall(seed, hand) == _documented_shuffle(seed, hand)


def test_shuffle_reads_the_stream_on_past_the_blocks_it_reads_at_once(monkeypatch):
    """The stream has no end: with one block read at once (8 words for 135 steps) the walls
    are still the documented ones."""
    import server.game.wall as wall
    monkeypatch.setattr(wall, "_FIRST_BLOCKS", 1)
    monkeypatch.setattr(wall, "_FIRST_WORDS", struct.Struct(">8I"))
    for seed in SEEDS:
        assert shuffled_wall(seed, 1) == _documented_shuffle(seed, 1)


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_is_deterministic(seed):
    assert shuffled_wall(seed, 2) == shuffled_wall(seed, 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_each_wall_is_a_permutation_of_the_136_tiles(seed):
    """docs/RULINGS.md: "A hand's wall is the 136 tile ids in the order play takes them"."""
    for hand in range(8):
        assert sorted(shuffled_wall(seed, hand)) == list(range(136))


@pytest.mark.parametrize("seed", SEEDS)
def test_different_hand_numbers_give_different_walls(seed):
    walls = {tuple(shuffled_wall(seed, hand)) for hand in range(16)}
    assert len(walls) == 16


def test_different_seeds_give_different_walls():
    assert len({tuple(shuffled_wall(seed, 0)) for seed in SEEDS}) == len(SEEDS)


# ---- the deal -------------------------------------------------------------------------


def test_deal_follows_the_layout_with_seat_0_dealing():
    """docs/RULINGS.md: "`wall[0:52]` is the deal: three passes of 4 tiles to the dealer, the next
    seat, the next, the next; then 1 tile to each seat, dealer first"."""
    assert deal(list(range(136)), 0) == [
        [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48],
        [4, 5, 6, 7, 20, 21, 22, 23, 36, 37, 38, 39, 49],
        [8, 9, 10, 11, 24, 25, 26, 27, 40, 41, 42, 43, 50],
        [12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 51],
    ]


def test_deal_starts_with_the_dealer():
    """The same layout with seat 2 dealing: seat 2 takes the first block, seat 3 the next."""
    assert deal(list(range(136)), 2) == [
        [8, 9, 10, 11, 24, 25, 26, 27, 40, 41, 42, 43, 50],
        [12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 51],
        [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48],
        [4, 5, 6, 7, 20, 21, 22, 23, 36, 37, 38, 39, 49],
    ]


def test_game_deals_and_draws_from_its_wall():
    """docs/RULINGS.md: "`wall[52:]` are the live draws in order" — the dealer's first draw is wall[52]."""
    wall = shuffled_wall(b"deal", 0)
    game = Game(EMA2016, walls=[wall])
    start = next(e for e in game.start_events if e.type == "hand_start")
    hands = deal(wall, 0)
    assert [sorted(start.private[s]["hand"]) for s in range(4)] == [sorted(h) for h in hands]
    draw = next(e for e in game.start_events if e.type == "draw")
    assert draw.public["seat"] == 0 and draw.private[0]["tile"] == wall[52]


# ---- the dead wall ------------------------------------------------------------------


def _wall_with(placed: dict[int, int]) -> list[int]:
    """A wall with the given kinds at the given positions (a free id of each kind), the
    other positions filled with the remaining ids in order."""
    free = list(range(136))
    wall: list[int | None] = [None] * 136
    for position, kind in placed.items():
        tile = next(t for t in free if t >> 2 == kind)
        free.remove(tile)
        wall[position] = tile
    rest = iter(free)
    return [t if t is not None else next(rest) for t in wall]


def _four_quads_wall() -> list[int]:
    """The dealer (seat 0) holds 1111m 2222m 3333m 4m and draws 4m; the first two
    replacement draws (134, 135) complete 4444m, so the dealer can declare four concealed kongs."""
    placed = {i: 0 for i in range(4)} | {i: 1 for i in range(16, 20)} | {i: 2 for i in range(32, 36)}
    placed |= {48: 3, 52: 3, 134: 3, 135: 3}
    return _wall_with(placed)


def test_first_dora_indicator_is_wall_130():
    """docs/RULINGS.md: "the dead wall is the last 14: dora indicator `wall[130]`"."""
    for seed in SEEDS:
        wall = shuffled_wall(seed, 0)
        game = Game(TENHOU, walls=[wall])
        start = next(e for e in game.start_events if e.type == "hand_start")
        assert start.public["dora_indicators"] == [wall[130]]


def test_kong_replacements_and_kong_dora_come_from_the_dead_wall_in_order():
    """docs/RULINGS.md: "further kong dora indicators `128, 126, 124, 122` ... replacement draws for
    kongs come from `134, 135, 132, 133` in that order. Each kong moves the end of the live
    wall one tile earlier"."""
    wall = _four_quads_wall()
    game = Game(EMA2016, walls=[wall])
    first_draw = [e for e in game.start_events if e.type == "draw"][-1]
    assert first_draw.public["tiles_left"] == 69
    replacements, indicators, left = [], [], []
    for kind in (0, 1, 2, 3):
        events = game.apply(0, Ankan(kind))
        indicators += [e.public["indicator"] for e in events if e.type == "dora"]
        draws = [e for e in events if e.type == "draw"]
        assert len(draws) == 1 and draws[0].public["replacement"]
        replacements.append(draws[0].private[0]["tile"])
        left.append(draws[0].public["tiles_left"])
    assert replacements == [wall[134], wall[135], wall[132], wall[133]]
    assert indicators == [wall[128], wall[126], wall[124], wall[122]]
    assert game.public.dora_indicators == [wall[130], wall[128], wall[126], wall[124], wall[122]]
    assert left == [68, 67, 66, 65]


def _riichi_ron_wall() -> list[int]:
    """Dealer: 1111m 234m 567m 789p (13 tiles) and draws North; a concealed kong of 1m
    draws 5s from wall[134]; riichi on North waits on 5s, which seat 1 draws (wall[53])."""
    dealer = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 15, 16, 17]
    positions = [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48]
    placed = dict(zip(positions, dealer)) | {52: 30, 134: 22, 53: 22}
    return _wall_with(placed)


def _answer_window(game: Game, ron_for: int | None = None) -> list:
    events = []
    while game.waiting_for() and game.public.phase.value != "turn":
        seat = game.waiting_for()[0]
        action = Ron() if seat == ron_for and Ron() in game.legal_actions(seat) else Pass()
        events += game.apply(seat, action)
    return events


def test_ura_indicators_sit_under_the_dora_indicators():
    """docs/RULINGS.md: "ura indicators `131, 129, 127, 125, 123`" — one under each dora indicator shown."""
    wall = _riichi_ron_wall()
    game = Game(EMA2016, walls=[wall, shuffled_wall(b"next", 1)])
    game.apply(0, Ankan(0))
    north = next(t for t in game.private[0].hand if t >> 2 == 30)
    assert Discard(north, riichi=True) in game.legal_actions(0)
    events = game.apply(0, Discard(north, riichi=True))
    events += _answer_window(game)
    five = wall[53]
    assert game.private[1].drawn == five
    events += game.apply(1, Discard(five))
    events += _answer_window(game, ron_for=0)
    result = game.results[-1]
    assert result["type"] == "win" and result["wins"][0]["seat"] == 0
    assert result["ura_indicators"] == [wall[131], wall[129]]


# ---- the seed check -----------------------------------------------------------------


def _random_game(rules, seed: bytes, rng_seed: int) -> Game:
    rng = random.Random(rng_seed)
    game = Game(rules, seed=seed)
    while not game.over:
        seat = game.waiting_for()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


@pytest.fixture(scope="module")
def finished() -> GameRecord:
    return GameRecord.of(_random_game(TENHOU, b"seed check" + bytes(22), 5))


def test_seed_check_passes_for_an_honest_record(finished):
    ok, message = verify_seed(finished)
    assert ok and "\n" not in message
    assert verify_seed(finished, seed_hash(finished.seed)) == (True, message)


def test_seed_check_fails_on_another_published_hash(finished):
    ok, message = verify_seed(finished, seed_hash(b"another seed"))
    assert not ok and "published hash" in message and "\n" not in message


def test_seed_check_fails_when_a_recorded_wall_is_not_the_shuffle(finished):
    game = finished.replay()
    hands = len(game.results)
    walls = [shuffled_wall(finished.seed, n) for n in range(hands)]
    honest = GameRecord(finished.rules, finished.seed, walls, finished.names, finished.decisions)
    assert verify_seed(honest)[0]
    # The last hand's wall with its two last dead-wall tiles swapped: an ura indicator
    # and a replacement tile, so the game most likely replays the same, and must still fail.
    walls[-1] = walls[-1][:134] + [walls[-1][135], walls[-1][134]]
    tampered = GameRecord(finished.rules, finished.seed, walls, finished.names, finished.decisions)
    ok, message = verify_seed(tampered)
    assert not ok and "\n" not in message
    assert f"hand {hands}" in message or "does not replay" in message


def test_seed_check_needs_a_seed():
    record = GameRecord(EMA2016, None, [shuffled_wall(b"x", 0)], ["A", "B", "C", "D"], [])
    ok, message = verify_seed(record)
    assert not ok and "no seed" in message


def test_seed_check_fails_when_the_record_does_not_replay(finished):
    wrong_seed = GameRecord(finished.rules, b"not the seed", None, finished.names, finished.decisions)
    ok, message = verify_seed(wrong_seed)
    assert not ok and "does not replay" in message and "\n" not in message
