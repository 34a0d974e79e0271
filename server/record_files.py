"""Game records as files and bytes: JSON or msgpack of the same map (server/game/record.py).

msgpack lives here, not in server/game, which stays free of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack

from server.game.record import GameRecord, RecordError


def record_to_msgpack(record: GameRecord) -> bytes:
    return msgpack.packb(record.to_data(), use_bin_type=True)


def unpack(data: bytes) -> Any:
    """Decoded msgpack, or None if the bytes are not one msgpack value."""
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, TypeError, msgpack.UnpackException):
        return None


def record_from_msgpack(data: bytes) -> GameRecord:
    content = unpack(data)
    if content is None:
        raise RecordError("not msgpack: a record file is JSON or msgpack of the record map")
    return GameRecord.from_data(content)


def save_record(record: GameRecord, path: str | Path) -> Path:
    """Write a record as msgpack if the name ends in .msgpack, else as JSON."""
    path = Path(path)
    if path.suffix == ".msgpack":
        path.write_bytes(record_to_msgpack(record))
    else:
        path.write_text(record.to_json() + "\n", encoding="utf-8")
    return path


def load_record(path: str | Path) -> GameRecord:
    data = Path(path).read_bytes()
    if Path(path).suffix == ".msgpack":
        return record_from_msgpack(data)
    return GameRecord.from_json(data.decode("utf-8"))
