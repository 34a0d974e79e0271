"""No leaks: whole games through real sockets against a real `riichi-server` process, and
every frame every seat and every spectator received, decoded and checked.

Tables run several at a time.  Some are one protocol client (seat 0) and three built-in
bots; others are four protocol clients, each on its own connection.  Every table has a
spectator from the start and one that comes in mid-game (and gets a snapshot); on some
tables one seat drops its connection mid-game and resumes with its token (a snapshot of
its seat).  The clients play random legal actions (some uniformly, most biased towards
winning, riichi and the discard that lowers shanten, so that wins, riichi wins with ura
indicators, kongs and tenpai hands shown at a draw all happen).

The check (tests/server/netplay.py, `check_game`): the game's seed, revealed in the final
result, gives every hand's wall, so the true hands follow from the wall and the public
events.  For each receiver and each message (events, snapshots, offers, results, ...),
every field must be one the protocol defines (an unknown field could carry tiles), and
every tile id must be one the receiver may know at that point: its own dealt hand and
draws, public discards, melds and dora indicators, and what a hand's end shows (the
winners' hands, the tenpai hands at an exhaustive draw, the ura indicators of a riichi
win).  Private parts (a hand at hand_start, a drawn tile) must be the receiver's own and
equal to the wall's truth.
"""

from __future__ import annotations

import asyncio
import copy
import random
import time

import pytest

from protocol.messages import CLIENT_MESSAGES
from tests.server.netplay import Leak, check_game, play_table

pytestmark = pytest.mark.server(checked=True)  # the test fails if the server logged an error

DEFAULT_GAMES = 20
SLOW_GAMES = 200


def table_kind(i: int) -> dict:
    """Game i: both presets, one or four protocol clients, a resume on every third table
    (half of them with the last seq seen: the missed broadcasts replayed, not a snapshot)."""
    return {"rules": ("tenhou", "ema2016")[i % 2], "humans": (1, 4)[(i // 2) % 2], "resume": i % 3 == 2,
            "since": i % 6 == 2}


async def play_and_check(url: str, games: int, parallel: int, seed: int) -> tuple[dict[str, int], list]:
    """Play `games` whole games, `parallel` tables at a time, checking each as it ends."""
    totals: dict[str, int] = {"games": 0}
    by_kind: dict[tuple[str, int], int] = {}
    gate = asyncio.Semaphore(parallel)
    failures: list[str] = []

    async def one(i: int) -> None:
        kind = table_kind(i)
        async with gate:
            played = await play_table(url, kind["rules"], random.Random(seed * 100_003 + i), humans=kind["humans"],
                                      resume=kind["resume"], resume_since=kind["since"])
        try:
            counts = check_game(played)
        except Leak as leak:
            failures.append(f"game {i} ({kind}): {leak}")
            return
        totals["games"] += 1
        key = (kind["rules"], kind["humans"])
        by_kind[key] = by_kind.get(key, 0) + 1
        for k, v in counts.items():
            totals[k] = totals.get(k, 0) + v

    await asyncio.gather(*(one(i) for i in range(games)))
    assert not failures, "\n".join(failures[:5])
    return totals, sorted(by_kind.items())


def assert_coverage(totals: dict[str, int], games: int) -> None:
    """The games reached what the check is about, not only discards."""
    assert totals["games"] == games
    for what in ("wins", "ura", "tenpai_shown", "snapshots", "kongs", "offers"):
        assert totals[what] > 0, f"no {what} in {games} games: {totals}"
    if "since" in CLIENT_MESSAGES["hello"]:  # resuming with the last seq seen replays what was missed
        assert totals.get("replays", 0) > 0, f"no resume replayed the missed broadcasts: {totals}"


@pytest.mark.asyncio
async def test_no_seat_or_spectator_receives_a_tile_it_may_not_see(server):
    started = time.monotonic()
    totals, kinds = await play_and_check(server.url, DEFAULT_GAMES, parallel=4, seed=1)
    assert_coverage(totals, DEFAULT_GAMES)
    assert server.healthy()
    print(f"\n{DEFAULT_GAMES} games in {time.monotonic() - started:.1f} s: {totals} {kinds}")


@pytest.mark.slow
@pytest.mark.asyncio
async def test_no_leaks_over_two_hundred_whole_games(server):
    started = time.monotonic()
    totals, kinds = await play_and_check(server.url, SLOW_GAMES, parallel=6, seed=2)
    assert_coverage(totals, SLOW_GAMES)
    assert {rules for (rules, _), _ in kinds} == {"tenhou", "ema2016"}
    assert server.healthy()
    print(f"\n{SLOW_GAMES} games in {time.monotonic() - started:.1f} s: {totals} {kinds}")


# ---- the checker itself catches leaks --------------------------------------------------

def _first(frames, pred):
    return next(i for i, m in enumerate(frames) if pred(m))


def _leaky_variants(played):
    """Copies of a clean game, each with one leak planted in one receiver's frames."""
    def variant(name, change):
        p = copy.deepcopy(played)
        for n in (p.streams if name == "all" else [name]):
            seat, frames = p.streams[n]
            change(seat, frames)
        return p

    def other_draw_tile(seat, frames):  # another seat's draw, with its tile
        i = _first(frames, lambda m: m["type"] == "event" and m["event"]["type"] == "draw"
                   and m["event"]["seat"] != seat)
        frames[i]["event"]["tile"] = 0

    def spectator_hand(seat, frames):  # a hand at hand_start sent to a spectator
        i = _first(frames, lambda m: m["type"] == "event" and m["event"]["type"] == "hand_start")
        frames[i]["event"]["hand"] = list(range(13))

    def unknown_field(seat, frames):  # a field the protocol does not define
        i = _first(frames, lambda m: m["type"] == "event" and m["event"]["type"] == "discard")
        frames[i]["event"]["next"] = 5

    def wrong_own_hand(seat, frames):  # the seat's hand_start shows a hand not its own
        i = _first(frames, lambda m: m["type"] == "event" and m["event"]["type"] == "hand_start")
        hand = frames[i]["event"]["hand"]
        hand[0] = next(t for t in range(136) if t not in hand)

    def offer_foreign_tile(seat, frames):  # an offer naming a tile of seat 0's dealt hand
        i = _first(frames, lambda m: m["type"] == "offer" and any("tile" in a for a in m["actions"]))
        deal0 = [m for m in played.streams["seat0"][1] if m["type"] == "event"
                 and m["event"]["type"] == "hand_start" and m["seq"] <= frames[i]["seq"]][-1]
        next(a for a in frames[i]["actions"] if "tile" in a)["tile"] = deal0["event"]["hand"][0]

    def early_ura(seat, frames):  # to everyone: ura indicators at a win without riichi, or a hand at a draw
        for m in frames:
            if m["type"] == "event" and m["event"]["type"] == "hand_end" and m["event"]["result"]["type"] == "win" \
                    and not m["event"]["result"]["ura_indicators"]:
                m["event"]["result"]["ura_indicators"] = [1]
                return
            if m["type"] == "event" and m["event"]["type"] == "hand_end" and m["event"]["result"]["type"] != "win":
                m["event"]["result"].setdefault("hands", {})["9"] = [1]
                return
        raise AssertionError("no hand end")

    return [variant("seat0", other_draw_tile), variant("watcher", spectator_hand), variant("seat1", unknown_field),
            variant("seat2", wrong_own_hand), variant("seat3", offer_foreign_tile), variant("all", early_ura)]


@pytest.mark.asyncio
async def test_the_checker_catches_planted_leaks(server):
    played = await play_table(server.url, "tenhou", random.Random(5), humans=4, resume=False)
    check_game(copy.deepcopy(played))
    for leaky in _leaky_variants(played):
        with pytest.raises(Leak):
            check_game(leaky)


# ---- information beyond tile ids ----------------------------------------------------------

@pytest.mark.asyncio
async def test_no_event_tells_the_others_whether_anyone_may_call_a_discard(server):
    """An event sent whenever some seat may call would tell every seat and spectator that
    a hand holds a pair of the discard's kind, can chi it or waits on it.  Each seat
    learns of its own offer alone: after a discard (or a kong, which may be robbed) the
    next event anyone gets is what the answers led to, or the next draw."""
    after = {"draw", "call", "riichi_accepted", "dora", "hand_end"}
    followed: dict[str, int] = {}
    for game in range(3):  # another game while too few calls were made to follow a discard (random walls)
        played = await play_table(server.url, "tenhou", random.Random(6 + game), humans=1, late_watcher=False)
        for name, (seat, frames) in played.streams.items():
            events = [m["event"] for m in frames if m["type"] == "event"]
            for before, event in zip(events, events[1:]):
                if before["type"] == "discard" or (before["type"] == "call" and before["meld"] in ("kakan", "ankan")):
                    assert event["type"] in after, f"{name}: {before} was followed by {event}"
                    followed[event["type"]] = followed.get(event["type"], 0) + 1
        if followed.get("call", 0) >= 3 and followed.get("draw", 0) >= 100:
            break
    assert followed.get("call", 0) >= 3 and followed.get("draw", 0) >= 100, followed  # calls did happen
