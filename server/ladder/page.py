"""`GET /ladder/NAME` and `GET /ladder/NAME.json`: a ladder's page, server-rendered as the
standings are (server/html_pages.py): the bots with their rating on the ladder, its 95% interval,
its trend over their games (mu - 3 sigma after each), games and average place, and the last games
with links to their replays (/games/ID); the same as JSON for programs (each bot's rating after
each of its games); a page that says so for a ladder the server does not have."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import structlog
from websockets.http11 import Response

from server.html_pages import html_response, link, not_found, page, player_href, sparkline, table, text, unavailable
from server.ladder.ladder import Ladder
from server.ladder.rating import Trends, rated_in_order
from server.ladder.sets import is_fill, registered
from server.ladder.standing import BotLine, lines
from server.ratings import Rating
from server.store.ladder_rows import LadderGameRow, LadderGameState, LadderSeatRow
from server.store.protocol import Store
from server.web import answer

log = structlog.get_logger("riichi.pages")

PATH = re.compile(r"^/ladder/([A-Za-z0-9_-]{1,40}?)(\.json)?$")
SHOWN_GAMES = 20
TREND_GAMES = 100  # the trend drawn: a bot's last games
WINDS = ("East", "South", "West", "North")
History = Mapping[str, list[tuple[int, Rating]]]  # each bot's (game id, its rating after that game), in order


def is_ladder_path(path: str) -> bool:
    return PATH.match(path) is not None


class LadderPages:
    def __init__(self, store: Store):
        self.store = store
        self.trends: dict[str, tuple[asyncio.Lock, Trends]] = {}  # by ladder: rated on as games end

    async def _history(self, name: str, games: list[LadderGameRow], seats: list[LadderSeatRow]) -> History:
        """Each bot's rating after each of its games, rated in a thread (a long ladder's first
        look rates every game: the tables' loop goes on meanwhile), one look at a time."""
        lock, trends = self.trends.setdefault(name, (asyncio.Lock(), Trends()))
        async with lock:
            return await asyncio.to_thread(trends.update, rated_in_order(games, seats))

    async def respond(self, path: str) -> Response:
        match = PATH.match(path)
        assert match is not None
        name, as_json = match.group(1), match.group(2) is not None
        try:
            row = await self.store.ladder(name)
            if row is None:
                return not_found("No such ladder", f"There is no ladder {text(name)} on this server (an operator"
                                 " makes one with <code>riichi-server ladder create NAME</code>).")
            games = await self.store.ended_ladder_games(name, limit=1_000_000)
            seats = await self.store.ladder_seats(name)
            bots = lines(await self.store.ladder_ratings(name), seats, await self.store.ladder_bots(name),
                         {p for g in games for p in registered(g.seats)})
            names = await self._names({b.player_id for b in bots} | {p for g in games[:SHOWN_GAMES] for p in g.seats})
            history = await self._history(name, games, seats)
        except Exception:  # noqa: BLE001 - a store that fails one request: the server goes on
            log.exception("ladder_page_failed", ladder=name)
            return unavailable()
        ladder, shown = Ladder.of_row(row), games[:SHOWN_GAMES]
        by_game: dict[int, list[LadderSeatRow]] = {}
        for seat in seats:
            by_game.setdefault(seat.game_id, []).append(seat)
        if as_json:
            body = json.dumps(ladder_data(ladder, bots, shown, by_game, names, history)).encode()
            return answer(HTTPStatus.OK, body, "application/json; charset=utf-8")
        return html_response(HTTPStatus.OK, ladder_page(ladder, bots, shown, by_game, names, history))

    async def _names(self, players: set[str]) -> dict[str, str]:
        names = {}
        for player in players:
            row = None if is_fill(player) else await self.store.player(player)
            if row is not None:
                names[player] = row.name
        return names


def ladder_data(ladder: Ladder, bots: list[BotLine], games: list[LadderGameRow],
                seats: dict[int, list[LadderSeatRow]], names: dict[str, str], history: History) -> dict[str, Any]:
    return {"ladder": ladder.name, "rules": ladder.rules, "fill": ladder.fill,
            "bots": [{"player": b.player_id, "name": names.get(b.player_id, b.player_id), "mu": b.rating.mu,
                      "sigma": b.rating.sigma, "ordinal": b.rating.ordinal, "interval": list(b.interval),
                      "games": b.games, "average_place": b.average_place,
                      "state": b.state.value if b.state is not None else None,
                      "history": [{"game": game_id, "mu": r.mu, "sigma": r.sigma}
                                  for game_id, r in history.get(b.player_id, [])]} for b in bots],
            "games": [{"game": g.game_id, "set": g.number, "rotation": g.rotation, "state": g.state.value,
                       "seats": list(g.seats), "replay": f"/games/{g.game_id}",
                       "places": [s.place for s in seats.get(g.game_id or -1, [])]} for g in games]}


def ladder_page(ladder: Ladder, bots: list[BotLine], games: list[LadderGameRow],
                seats: dict[int, list[LadderSeatRow]], names: dict[str, str], history: History) -> str:
    fill = "no fill: four registered bots a set" if not ladder.fills else f"empty seats: the server's {ladder.fill} bot"
    body = (f"<h1>Ladder {text(ladder.name)}</h1><p class=\"lead\">Bots in duplicate sets (one seed, four games, the"
            f" seats rotated) on {text(ladder.rules)} rules; {text(fill)}. Rated with OpenSkill (Plackett-Luce):"
            " sorted by mu − 3σ.</p><h2>Bots</h2>")
    if bots:
        header = ("#", "Bot", "Rating (mu)", "95% interval", "mu − 3σ", "Trend", "Games", "Average place", "Now")
        body += table(header, [
            (str(rank), link(player_href(b.player_id), names.get(b.player_id, b.player_id)), f"{b.rating.mu:.1f}",
             f"{b.interval[0]:.1f} – {b.interval[1]:.1f}", f"{b.rating.ordinal:.1f}",
             _trend(history.get(b.player_id, [])), str(b.games),
             f"{b.average_place:.2f}" if b.average_place is not None else "", text(b.state or "left"))
            for rank, b in enumerate(bots, 1)], name_column=1)
    else:
        body += "<p class=\"none\">No bot has joined yet: riichi-bot --ladder NAME --player-key KEY.</p>"
    body += "<h2>Last games</h2>"
    if games:
        body += table(("Game", "Set", "Rotation", *WINDS), [
            (_game(g), str(g.number), str(g.rotation + 1),
             *(_seat(who, seats.get(g.game_id or -1, []), i, names) for i, who in enumerate(g.seats)))
            for g in games], name_column=0)
    else:
        body += "<p class=\"none\">No game has ended yet.</p>"
    return page(f"Ladder {ladder.name}", body)


def _trend(points: list[tuple[int, Rating]]) -> str:
    """mu − 3σ after each of the bot's last TREND_GAMES games."""
    shown = [rating.ordinal for _, rating in points[-TREND_GAMES:]]
    if len(shown) < 2:
        return ""
    games = f"its last {len(shown)} games" if len(points) > len(shown) else f"its {len(shown)} games"
    return sparkline(shown, f"mu − 3σ over {games}: {shown[0]:.1f} to {shown[-1]:.1f}")


def _game(game: LadderGameRow) -> str:
    if game.state is LadderGameState.ABANDONED:
        return f"abandoned ({link(f'/games/{game.game_id}', f'game {game.game_id}')})"
    return link(f"/games/{game.game_id}", f"replay of game {game.game_id}")


def _seat(who: str, seats: list[LadderSeatRow], seat: int, names: dict[str, str]) -> str:
    place = next((s.place for s in seats if s.seat == seat), None)
    shown = f"{who.split(':', 1)[1]} bot (fill)" if is_fill(who) else names.get(who, who)
    cell = text(shown) if is_fill(who) else link(player_href(who), shown)
    return cell + (f" ({place})" if place is not None else "")
