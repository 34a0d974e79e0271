"""riichi-play --history: the games this user's player finished on a server, latest first,
each with the link to its page (its replay).

The player is the one of the key riichi-play keeps (client_cli/play/player_key.py).  The
server says its id in the welcome to a hello that says the key (PROTOCOL.md "Players"; a
hello joins no table, so nothing else happens), and serves the player's finished games at
`GET /api/players/ID` on the same port (server/player_api.py).  The key goes only in the
hello, never in an address.  Every failure is a HistoryProblem whose text is one line.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from protocol.client import ConnectError, Refused, ResumingClient
from protocol.links import game_link, page_base
from protocol.messages import ErrorCode

NOT_PLAYED = "you have not played on this server yet"
TIMEOUT = 10.0  # seconds for the player's games to be answered


class HistoryProblem(Exception):
    """Why the history cannot be shown, in one line."""


@dataclass(frozen=True)
class PlayedGame:
    """One finished game as the player played it (an item of the answer's `games`)."""

    game_id: int
    score: int
    place: int | None  # 1-4; None: the game was abandoned
    total: float | None  # the score with the uma, in thousands
    finished: float | None  # seconds since the epoch
    labels: tuple[str, ...]

    @classmethod
    def of_data(cls, data: Mapping[str, Any]) -> PlayedGame:
        """Raises KeyError, TypeError or ValueError for an item that is not one."""
        return cls(int(data["game_id"]), int(data["score"]), _maybe(int, data.get("place")),
                   _maybe(float, data.get("total")), _maybe(float, data.get("finished")),
                   tuple(str(label) for label in data.get("labels") or ()))


@dataclass(frozen=True)
class History:
    player_id: str
    name: str
    games: tuple[PlayedGame, ...]  # latest first


def _maybe(kind: type, value: Any) -> Any:
    return None if value is None else kind(value)


async def player_of_key(url: str, key: str, name: str) -> dict[str, str]:
    """The player ({id, name}) the server knows by `key`, from the welcome to a hello that
    says it (a key new to the server makes a player there, named `name`, with no games)."""
    client = ResumingClient(url, name, player_key=key, heartbeat=None)
    try:
        welcome = await client.connect()
    except Refused as refused:
        if refused.code == ErrorCode.UNKNOWN_PLAYER:
            raise HistoryProblem(f"{NOT_PLAYED} with this player key (it admits only the keys it issued): give"
                                 " the one its operator gave you: riichi-play --player-key KEY --history") from None
        raise HistoryProblem(str(refused)) from None
    except ConnectError as problem:
        raise HistoryProblem(str(problem)) from None
    finally:
        await client.close()
    player = welcome.get("player")
    if not isinstance(player, dict) or not isinstance(player.get("id"), str):
        raise HistoryProblem(f"the server at {url} does not keep players (an older riichi-server?)")
    return player


def read_history(url: str, player_id: str, timeout: float = TIMEOUT) -> History:
    """The player's finished games from `GET /api/players/ID` (blocking: run it in a thread)."""
    address = f"{page_base(url)}/api/players/{quote(player_id, safe='')}"
    try:
        with urllib.request.urlopen(address, timeout=timeout) as answer:
            body = answer.read()
    except urllib.error.HTTPError as refused:
        if refused.code == 404:
            raise HistoryProblem(f"the server at {url} knows no player {player_id} (unknown player)") from None
        said = refused.read().decode(errors="replace").strip().splitlines()
        raise HistoryProblem(f"the server answered {refused.code} for {address}"
                             + (f": {said[0]}" if said else "")) from None
    except (urllib.error.URLError, OSError) as failed:
        reason = getattr(failed, "reason", failed)
        raise HistoryProblem(f"cannot reach the server at {page_base(url)}: {reason}") from None
    try:
        data = json.loads(body)
        games = sorted((PlayedGame.of_data(game) for game in data["games"]),
                       key=lambda game: (game.finished or 0, game.game_id), reverse=True)
        return History(str(data["id"]), str(data["name"]), tuple(games))
    except (ValueError, KeyError, TypeError):
        raise HistoryProblem(f"the answer at {address} is not a player's games (another kind of server?)") from None


async def history(url: str, key: str, name: str) -> History:
    """The history of the player of `key` at the server of `url`; raises HistoryProblem."""
    player = await player_of_key(url, key, name)
    return await asyncio.to_thread(read_history, url, player["id"])


COLUMNS = ("date", "game", "place", "score", "total", "labels", "link")


def history_text(found: History, url: str) -> str:
    """The games as a table, latest first, each row ending with the game's link."""
    if not found.games:
        return f"{NOT_PLAYED} (as {found.name}): a game shows here once it has ended"
    rows = [COLUMNS] + [_row(game, url) for game in found.games]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS) - 1)]
    numbers = {1, 3, 4}  # right-aligned: game, score, total
    lines = [f"Games of {found.name} (player {found.player_id}), latest first:"]
    for row in rows:
        cells = [cell.rjust(width) if i in numbers else cell.ljust(width)
                 for i, (cell, width) in enumerate(zip(row, widths))]
        lines.append("  ".join([*cells, row[-1]]))
    return "\n".join(lines)


def _row(game: PlayedGame, url: str) -> tuple[str, ...]:
    date = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.finished)) if game.finished else "-"
    place = "abandoned" if game.place is None else _ordinal(game.place)
    total = "" if game.total is None else f"{game.total:+.1f}"
    return (date, str(game.game_id), place, str(game.score), total, ", ".join(game.labels) or "-",
            game_link(url, game.game_id))


def _ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th')}"
