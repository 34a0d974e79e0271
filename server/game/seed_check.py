"""Check a finished game against its published seed hash: the seed revealed at the end
hashes to what was published at the start, and every hand was dealt from the wall the
documented shuffle gives for that seed (server/game/wall.py)."""

from __future__ import annotations

from protocol.events import EventType
from server.game.record import GameRecord, RecordError
from server.game.wall import seed_hash, shuffled_wall


def _replayed_walls(record: GameRecord) -> tuple[str | None, list[list[int]]]:
    """The seed hash the replay published, and the wall of each hand it dealt, in order."""
    game = record.new_game()
    published = next((e.public.get("seed_hash") for e in game.start_events if e.type == EventType.GAME_START), None)
    walls = [list(game.hidden.wall)]
    for index, (seat, action) in enumerate(record.decisions):
        try:
            events = game.apply(seat, action)
        except ValueError as error:
            raise RecordError(f"decision {index + 1} (seat {seat}): {error}") from None
        if any(e.type == EventType.HAND_START for e in events):
            walls.append(list(game.hidden.wall))
    return published, walls


def verify_seed(record: GameRecord, published_hash: str | None = None) -> tuple[bool, str]:
    """(ok, one line): the seed hashes to the published hash (the one given, else the one
    the game announced at its start), and each hand's wall is shuffled_wall(seed, hand)."""
    if record.seed is None:
        return False, "the record has no seed (its walls are explicit), so there is nothing to check"
    try:
        announced, walls = _replayed_walls(record)
    except (RecordError, ValueError) as error:
        return False, f"the record does not replay: {error}"
    expected = published_hash if published_hash is not None else announced
    actual = seed_hash(record.seed)
    if expected is None or actual != expected.strip().lower():
        return False, f"the seed hashes to {actual}, not to the published hash {expected}"
    for number, wall in enumerate(walls):
        if wall != shuffled_wall(record.seed, number):
            return False, f"hand {number + 1}'s wall is not the shuffle of the seed for that hand"
    return True, f"seed {actual[:16]}... matches the published hash; all {len(walls)} walls are its shuffles"
