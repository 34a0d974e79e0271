"""A Tenhou log dropped on the replay page (`/replay`), read through the importers into the
replay viewer's document (server/replay_document.py), or a game record of ours (riichi-arena
--out, riichi-server export: its walls are the walls played, its rules its own); nothing is
stored.

How the log reaches the server: websockets' HTTP parser refuses any request with a body
(`Request.parse`: "unsupported request body"), so there is no POST on this port.  The page
opens a websocket at `/api/replay` instead, sends the file as one binary message and reads
one text message back: the document as JSON, or `{"error": "..."}` saying in a line what was
wrong with the file; then the server closes.  The server's frame limit bounds the file
(`LIMIT`), and a gzipped log may unpack to at most `UNPACKED_LIMIT`.
"""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from server.game.importers.reading import LogError, read_text
from server.game.importers.replay import replay_log
from server.game.record import GameRecord, RecordError
from server.replay_document import replay_document

PATH = "/api/replay"
LIMIT = 120 * 1024  # bytes of one dropped file (under the server's frame limit, 2 x 64 KiB)
UNPACKED_LIMIT = 2 * 1024 * 1024  # bytes a gzipped log may unpack to
WAIT_S = 30  # for the file, once the websocket is open


class DroppedLogError(ValueError):
    """What was wrong with a dropped file, in one line for the page."""


def document_of_log(data: bytes) -> dict[str, Any]:
    """The replay document of an mjlog (XML, gzipped or not), a tenhou.net/6 log (one JSON
    object, or one a line) or a game record (JSON); DroppedLogError saying what was wrong otherwise.  A log the engine
    cannot follow to its end gives the hands up to that point and a `note` saying where."""
    if len(data) > LIMIT:
        raise DroppedLogError(f"the file is {len(data) // 1024} KiB: a log of at most {LIMIT // 1024} KiB is read")
    text = _text(_unpacked(data))
    try:
        read = read_text(text)
    except LogError as error:
        raise DroppedLogError(str(error)) from None
    if read.log is None:
        if isinstance(read.content, dict) and "format" in read.content:
            return _document_of_record(read.content)
        raise DroppedLogError("neither an mjlog (<mjloggm ...>), a tenhou.net/6 log (JSON with \"log\" and \"name\")"
                              " nor a game record (JSON with \"format\", as riichi-arena --out writes): drop one of those")
    log = read.log
    replay = replay_log(log)
    try:
        doc = replay_document(replay.record, wall_known=False)
    except RecordError as error:
        raise DroppedLogError(f"the log cannot be replayed: {error}") from None
    doc["source"] = log.format
    if replay.error is not None:
        doc["note"] = f"the replay stops early: {replay.error}"
    return doc


def _unpacked(data: bytes) -> bytes:
    if data[:2] != b"\x1f\x8b":
        return data
    unpacker = zlib.decompressobj(wbits=31)
    try:
        out = unpacker.decompress(data, UNPACKED_LIMIT)
    except (zlib.error, EOFError) as error:
        raise DroppedLogError(f"a broken gzip file ({error})") from None
    if unpacker.unconsumed_tail:
        raise DroppedLogError(f"the gzipped file unpacks to more than {UNPACKED_LIMIT // 1024 // 1024} MiB")
    return out


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DroppedLogError("not a text file: drop an mjlog (XML) or a tenhou.net/6 log (JSON)") from None


def _document_of_record(data: dict[str, Any]) -> dict[str, Any]:
    """A game record's document (ours: riichi-arena --out, riichi-server export): its walls are the
    walls played, so every hand is shown whole, under the record's own rules."""
    try:
        doc = replay_document(GameRecord.from_data(data))
    except RecordError as error:
        raise DroppedLogError(f"the game record cannot be replayed: {error}") from None
    doc["source"] = "record"
    return doc


def answer(data: bytes | str) -> str:
    """The text message the page gets back for the file it sent."""
    try:
        raw = data.encode() if isinstance(data, str) else data
        return json.dumps(document_of_log(raw))
    except DroppedLogError as error:
        return json.dumps({"error": str(error)})
    except ValueError as error:  # an importer's own complaint (a wall the log contradicts, ...)
        return json.dumps({"error": f"the log cannot be read: {error}"})


async def receive_dropped_log(ws: ServerConnection) -> None:
    """A websocket at PATH: one file in, its answer out, closed.  The log is read in a thread,
    so that a big one does not hold the tables' event loop."""
    try:
        data = await asyncio.wait_for(ws.recv(), WAIT_S)
        await ws.send(await asyncio.to_thread(answer, data))
        await ws.close()
    except (ConnectionClosed, TimeoutError):
        return


__all__ = ["LIMIT", "PATH", "DroppedLogError", "answer", "document_of_log", "receive_dropped_log"]
