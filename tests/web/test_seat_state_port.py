"""The page keeps a seat's view with web/src/seat_state.ts, a port of client_cli/seat_state.py
(which riichi-play uses): fed the same streams, both must keep the same view after every
message.  The streams are whole games through a real server (every seat, a spectator from the
start, one that comes late and gets a snapshot, a seat that drops and resumes); the waits are
compared on crafted hands too (seven pairs, thirteen orphans, a kind held four times).  The
port runs in node, built by web/build.mjs into web/build/seat_state_cli.mjs."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from client_cli.seat_state import SeatState
from protocol.events import EventType
from protocol.messages import MessageType
from server.game.analysis import counts34, hand_waits
from server.game.engine import Game
from server.game.wall import shuffled_wall
from server.players import PLAYERS
from server.rules.config import preset
from server.rules.tiles import parse_tiles
from tests.server.netplay import play_table

CLI = Path(__file__).resolve().parents[2] / "web" / "build" / "seat_state_cli.mjs"


# the server fails the test if it logged an error or exited other than cleanly
pytestmark = pytest.mark.server(checked=True)


def ids(kinds: list[int]) -> list[int]:
    """Tile ids for kinds (0-33): the first copy of a kind is id 4k, the next 4k + 1, ..."""
    seen = [0] * 34
    out = []
    for kind in kinds:
        out.append(kind * 4 + seen[kind])
        seen[kind] += 1
    return sorted(out)


def run_port(lines: list[dict]) -> list:
    assert CLI.exists(), "web/build/seat_state_cli.mjs is missing: run scripts/setup.sh (it builds web/)"
    done = subprocess.run(["node", str(CLI)], input="".join(json.dumps(line) + "\n" for line in lines),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


async def compare_on_games(url: str, games: list[tuple[str, int]]) -> None:
    lines: list[dict] = []
    expected: list = []
    for rules, seed in games:
        played = await play_table(url, rules, random.Random(seed), humans=4, late_watcher=True, resume=True)
        for name, (seat, frames) in played.streams.items():
            lines.append({"seat": seat})
            python = SeatState(seat)
            for m in frames:
                if m["type"] in ("event", "snapshot"):
                    m = {k: v for k, v in m.items() if k != "_t"}
                    python.handle(m)
                    lines.append(m)
                    expected.append(json.loads(json.dumps(python.view)))
    got = run_port(lines)
    # every message of every stream, a resume's snapshot among them (how many: as long as each game
    # was, which on random walls is from one hand to a whole hanchan)
    assert len(got) == len(expected) > 0 and any(line.get("type") == "snapshot" for line in lines)
    for i, (ours, theirs) in enumerate(zip(got, expected)):
        assert ours == theirs, f"message {i}: the page's view differs from riichi-play's"


@pytest.mark.asyncio
async def test_the_pages_seat_state_keeps_the_view_riichi_play_keeps_after_every_message(server):
    await compare_on_games(server.url, [("tenhou", 5)])


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_pages_seat_state_keeps_riichi_plays_view_over_more_games(server):
    await compare_on_games(server.url, [("ema2016", 8), ("tenhou", 9), ("ema2016", 10), ("tenhou", 11)])


def test_the_pages_seat_state_keeps_riichi_plays_view_of_a_game_dealt_from_given_walls_with_no_seed():
    """A table's spec may give the walls instead of a seed: "A game on given walls has no seed:
    `game_start.seed_hash` and the final `seed` are null" (docs/server.md).  Every seat and a
    spectator, fed the engine's events of such a game, keep the same view in both."""
    game = Game(preset("tenhou"), walls=[shuffled_wall(b"given walls", hand) for hand in range(40)])
    events = list(game.start_events)
    rng = random.Random(4)
    while not game.over:
        seat = game.waiting_for()[0]
        events += game.apply(seat, PLAYERS["shanten"](game, seat, game.legal_actions(seat), rng))
    start, end = events[0], events[-1]
    assert (start.type, start.public["seed_hash"], end.type, end.public["seed"]) == (
        EventType.GAME_START, None, EventType.GAME_END, None)
    lines: list[dict] = []
    expected = []
    for seat in (0, 1, 2, 3, None):
        lines.append({"seat": seat})
        python = SeatState(seat)
        for event in events:
            message = json.loads(json.dumps({"type": MessageType.EVENT, "event": event.for_seat(seat)}))
            python.handle(message)
            lines.append(message)
            expected.append(json.loads(json.dumps(python.view)))
    got = run_port(lines)
    assert got == expected and expected[-1]["final"]["seed"] is None and expected[0]["seed_hash"] is None


def test_the_pages_waits_are_the_rules_cores_on_crafted_and_random_hands():
    crafted = ["1199m2288p3377s4z", "19m19p19s1234567z", "19m19p19s123456z1m", "1112345678999m",
               "1111m234p567s899s", "2222m", "1234m", "123m456p789s1122z", "5555m678p"]
    hands = [ids(parse_tiles(text)) for text in crafted]
    rng = random.Random(3)
    wall = list(range(136))
    for _ in range(3000):
        rng.shuffle(wall)
        hands.append(sorted(wall[: rng.choice((1, 4, 7, 10, 13))]))
    lines, expected = [], []
    for hand in hands:
        counts = counts34(hand)
        melds = (13 - len(hand)) // 3
        lines.append({"hand": hand, "melds": melds, "held": counts})
        expected.append(list(hand_waits(counts, melds, counts)))
    assert run_port(lines) == expected
    assert expected[0] == [30] and len(expected[1]) == 13 and expected[2] == [33] and len(expected[3]) == 9
    assert sum(bool(w) for w in expected) > 100  # random hands that wait, besides the crafted ones
