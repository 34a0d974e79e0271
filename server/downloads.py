"""A finished game's record over HTTP, on the server's own port: `GET /api/games/ID` (the
record itself as JSON: rules, seed, names and the decisions in order, which replay to the
game), `GET /api/games/ID/tenhou6` (tenhou.net/6 JSON, server/game/export_tenhou6.py) and
`GET /api/games/ID/mjai` (mjai events, one JSON object a line, server/game/export_mjai.py),
as `riichi-server export` writes them, and `GET /api/games/ID/replay` (what the replay viewer
at /games/ID draws: server/replay_document.py), gzipped for a browser that takes it.

Only a game played to its end is served: a game in play would show every wall and hand to
whoever asked (409), and so would an abandoned one, whose seats may still be out there (409
too); an unknown id is 404.  A finished record never changes, so the last few served are kept
encoded, and a page that asks again costs no replay.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import OrderedDict
from http import HTTPStatus

import structlog
from websockets.datastructures import Headers
from websockets.http11 import Response

from server.game.record import GameRecord
from server.store.protocol import Store
from server.web import answer, plain, takes_gzip

log = structlog.get_logger("riichi.downloads")

PATH = re.compile(r"^/api/games/(\d{1,18})(?:/(tenhou6|mjai|replay))?$")
PREFIX = "/api/games/"
KEPT = 32  # encoded records kept (each a few hundred kilobytes at most; a long game's replay document ~0.6 MB)
TYPES = {"record": "application/json", "tenhou6": "application/json", "mjai": "application/x-ndjson",
         "replay": "application/json"}
SUFFIXES = {"record": "json", "tenhou6": "tenhou6.json", "mjai": "mjai.jsonl"}


def is_download(path: str) -> bool:
    """Whether the path is this module's to answer (an `/api/games/...` address)."""
    return path.startswith(PREFIX)


def encode(record: GameRecord, fmt: str, players: list[str | None] | None = None) -> bytes:
    """The record in `fmt`; `players` the seats' player ids, which the replay document carries
    (the page links each name to its player's page)."""
    if fmt == "record":
        return (record.to_json() + "\n").encode()
    if fmt == "replay":
        from server.replay_document import replay_document
        document = {**replay_document(record), "players": players or [None] * 4}
        return (json.dumps(document, separators=(",", ":")) + "\n").encode()
    if fmt == "tenhou6":
        from server.game.export_tenhou6 import export_tenhou6
        return (json.dumps(export_tenhou6(record)) + "\n").encode()
    from server.game.export_mjai import export_mjai
    return "".join(json.dumps(event) + "\n" for event in export_mjai(record)).encode()


class Downloads:
    def __init__(self, store: Store):
        self.store = store
        self.kept: OrderedDict[tuple[int, str], bytes] = OrderedDict()

    async def respond(self, path: str, headers: Headers | None = None) -> Response:
        """The answer to a GET of `path` (an `/api/games/...` address); `headers` the request's
        (the replay document is gzipped when they accept it)."""
        match = PATH.match(path)
        if match is None:
            return plain(HTTPStatus.NOT_FOUND, f"nothing here: {path[:80]} (a game's record is at"
                         " /api/games/ID, /api/games/ID/tenhou6, /api/games/ID/mjai or /api/games/ID/replay)\n")
        game_id, fmt = int(match[1]), match[2] or "record"
        body = self.kept.get((game_id, fmt))
        if body is None:
            try:
                refused = await self.refusal(game_id)
                if refused is not None:
                    return refused
                players = await self.store.game_players(game_id) if fmt == "replay" else None
                body = encode(await self.store.record(game_id), fmt, players)
            except Exception:  # noqa: BLE001 - a store that fails one request: the server goes on
                log.exception("record_download_failed", game=game_id, format=fmt)
                return plain(HTTPStatus.SERVICE_UNAVAILABLE, f"game {game_id}'s record could not be read now: try"
                             " again in a moment\n")
            self.kept[(game_id, fmt)] = body
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        else:
            self.kept.move_to_end((game_id, fmt))
        packed = fmt == "replay" and headers is not None and takes_gzip(headers)
        response = answer(HTTPStatus.OK, self.gzipped(game_id, body) if packed else body,
                          f"{TYPES[fmt]}; charset=utf-8", cache="public, max-age=86400")
        if fmt == "replay":
            response.headers["Vary"] = "Accept-Encoding"
            if packed:
                response.headers["Content-Encoding"] = "gzip"
        else:
            response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.{SUFFIXES[fmt]}"'
        return response

    def gzipped(self, game_id: int, body: bytes) -> bytes:
        """The replay document gzipped, kept as the plain one is."""
        packed = self.kept.get((game_id, "replay.gz"))
        if packed is None:
            packed = self.kept[(game_id, "replay.gz")] = gzip.compress(body, compresslevel=6, mtime=0)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return packed

    async def refusal(self, game_id: int) -> Response | None:
        """Why the game's record is not served (None: it is, the game was played to its end)."""
        row = await self.store.game(game_id)
        if row is None:
            return plain(HTTPStatus.NOT_FOUND, f"no game {game_id} on this server\n")
        if row.finished is None:
            return plain(HTTPStatus.CONFLICT, f"game {game_id} is still in play: its record is served once it has"
                         " ended\n")
        if not row.final or row.final.get("abandoned"):
            return plain(HTTPStatus.CONFLICT, f"game {game_id} was abandoned before its end: only a game played to"
                         " its end is served\n")
        return None
