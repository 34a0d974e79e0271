"""PROTOCOL.md, Game events: "The seed itself is revealed only at the game's end, in
`game_end` and in `result`'s `final`; `seed_hash` in `game_start` lets anyone check it"."""

import hashlib
import random

import pytest

from tests.server.sessions import play_host, seated_table


def _carries_seed(value) -> bool:
    if isinstance(value, dict):
        return "seed" in value or any(_carries_seed(v) for v in value.values())
    if isinstance(value, list):
        return any(_carries_seed(v) for v in value)
    return False


@pytest.mark.asyncio
async def test_the_seed_is_revealed_in_game_end_and_in_the_result_and_nowhere_before(lobby):
    host, _table = await seated_table(lobby)
    messages = await play_host(host, random.Random(5))
    events = [m["event"] for m in messages if m["type"] == "event"]
    result = next(m for m in messages if m["type"] == "result")
    game_end = events[-1]
    assert game_end["type"] == "game_end"
    assert {k: v for k, v in game_end.items() if k != "type"} == result["final"]
    seed = bytes.fromhex(game_end["seed"])
    assert hashlib.sha256(seed).hexdigest() == events[0]["seed_hash"]
    assert not any(_carries_seed(e) for e in events[:-1])
