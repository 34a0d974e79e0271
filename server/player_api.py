"""A player over HTTP, on the server's own port: `GET /api/players/ID` is the player's public
face as JSON: its id, display name, kind, and its last finished games (each with its seat,
score, place, uma, total and labels, and the address of its record).  Only finished games
are in it (a game's `game_seats` are written when it ends), so nothing of a game in play
shows.  With them, its totals over the games played out (`totals`: games, places, points,
the counts of hands, wins, deal-ins, riichi and calls) and its `rating`.  A player's id is
public (every `table` message carries its seats'); its key never leaves the client that
keeps it.  What riichi-play's `--history` and the player pages read."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from http import HTTPStatus
from typing import Any

import structlog
from websockets.http11 import Response

from server.ratings import DEFAULT
from server.store.protocol import Store
from server.store.rows import PlayerTotals
from server.web import answer, plain

log = structlog.get_logger("riichi.players")

PREFIX = "/api/players/"
PATH = re.compile(r"^/api/players/([A-Za-z0-9_.:-]{1,80})$")
LAST_GAMES = 50  # the games a player's answer lists, latest first


def is_player_path(path: str) -> bool:
    return path.startswith(PREFIX)


class PlayerApi:
    def __init__(self, store: Store):
        self.store = store

    async def respond(self, path: str) -> Response:
        match = PATH.match(path)
        if match is None:
            return plain(HTTPStatus.NOT_FOUND, f"nothing here: {path[:80]} (a player is at /api/players/ID)\n")
        player_id = match[1]
        try:
            player = await self.store.player(player_id)
            games = [] if player is None else await self.store.player_games(player_id, limit=LAST_GAMES)
            totals = None if player is None else await self.store.player_totals(player_id)
        except Exception:  # noqa: BLE001 - a store that fails one request: the server goes on
            log.exception("player_read_failed", player=player_id)
            return plain(HTTPStatus.SERVICE_UNAVAILABLE, "the player could not be read now: try again in a moment\n")
        if player is None:
            return plain(HTTPStatus.NOT_FOUND, f"no player {player_id} on this server\n")
        body = (json.dumps({
            "id": player.id, "name": player.name, "kind": str(player.kind), **totals_data(totals),
            "games": [{**asdict(game), "labels": list(game.labels), "record": f"/api/games/{game.game_id}"}
                      for game in games]}) + "\n").encode()
        return answer(HTTPStatus.OK, body, "application/json; charset=utf-8")


def totals_data(totals: PlayerTotals | None) -> dict[str, Any]:
    """A player's totals and rating as JSON (no game played out: zero games, the default rating)."""
    rating = totals.rating if totals is not None else DEFAULT
    data = None if totals is None else {
        "games": totals.games, "places": list(totals.places), "average_place": totals.average_place,
        "average_score": totals.average_score, "total": totals.total, **asdict(totals.stats)}
    return {"totals": data or {"games": 0}, "rating": {"mu": rating.mu, "sigma": rating.sigma,
                                                       "ordinal": rating.ordinal, "games": rating.games}}
