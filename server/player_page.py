"""`GET /players/NAME`: a player's page (issue 25), server-rendered HTML.

NAME is a player's id or its display name.  An id is one player; a name may be several's
(names are not unique): then the page lists them, each linked by its id.  The page shows the
games played out (placements 1st-4th, average place, average and total points), the win,
deal-in, riichi and call rates per hand, the rating with its uncertainty, and the last games,
each linked to its replay at /games/ID; above them, the event tables waiting for the player,
each with the link that takes its seat (issue 27).  Only finished games are kept for a player (a game's
`game_seats` are written when it ends), so nothing of a game in play is on the page.
"""

from __future__ import annotations

import time
from http import HTTPStatus
from urllib.parse import unquote

import structlog
from websockets.http11 import Response

from server.event_page import Codes, player_tables
from server.html_pages import (
    html_response, link, not_found, page, player_href, table, text, unavailable,
)
from server.ratings import shown
from server.store.protocol import Store
from server.store.rows import PlayerGame, PlayerRow, PlayerTotals

log = structlog.get_logger("riichi.pages")

PREFIX = "/players/"
LAST_GAMES = 20  # the games a player's page lists, the latest first
PLACES = ("1st", "2nd", "3rd", "4th")


def is_player_page(path: str) -> bool:
    return path.startswith(PREFIX) and len(path) > len(PREFIX)


def rate(count: int, hands: int) -> str:
    """A count per hand as a percentage ("–" before any hand is counted)."""
    return f"{100 * count / hands:.1f}%" if hands else "–"


def when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


class PlayerPages:
    def __init__(self, store: Store, codes: Codes | None = None):
        self.store = store
        self.codes: Codes = codes or (lambda _: None)  # a table's invite and watch codes (the event tables' links)

    async def respond(self, path: str) -> Response:
        wanted = unquote(path[len(PREFIX):]).rstrip("/")
        try:
            player = await self.store.player(wanted)
            named = [] if player is not None else await self.store.players_named(wanted)
            if player is None and len(named) == 1:
                player = named[0]
            if player is None:
                return self._none_or_several(wanted, named)
            totals = await self.store.player_totals(player.id)
            games = await self.store.player_games(player.id, limit=LAST_GAMES)
            events = await player_tables(self.store, player.id, self.codes)
        except Exception:  # noqa: BLE001 - a store that fails one request: the server goes on
            log.exception("player_page_failed", player=wanted[:80])
            return unavailable()
        return html_response(HTTPStatus.OK, player_page(player, totals, games, events))

    @staticmethod
    def _none_or_several(wanted: str, named: list[PlayerRow]) -> Response:
        if not named:
            return not_found("No such player", f"No player is called {text(wanted)} or has that id on this"
                                               f" server. The players who have played are in the "
                                               f"{link('/standings', 'standings')}.")
        rows = [(link(player_href(p.id), p.id), text(p.kind.value), text(when(p.created))) for p in named]
        return html_response(HTTPStatus.OK, page(wanted, (
            f"<h1>{text(wanted)}</h1><p class=\"lead\">{len(named)} players show this name: each has its own"
            f" page, by its id.</p>" + table(("Player", "Kind", "Since"), rows, name_column=0))))


def player_page(player: PlayerRow, totals: PlayerTotals | None, games: list[PlayerGame], events: str = "") -> str:
    """The page of one player (`totals` None: no game played out yet); `events` the markup of
    the event tables waiting for the player (server/event_page.py), first."""
    head = (f"<h1>{text(player.name)}</h1><p class=\"lead\">{text(player.kind.value)} · player"
            f" {text(player.id)}</p>")
    return page(player.name, head + events + _figures(totals) + _last_games(games))


def _figures(totals: PlayerTotals | None) -> str:
    if totals is None:
        return "<p class=\"none\">No game played out yet.</p>"
    stats = totals.stats
    figures = [("Games played", str(totals.games)),
               *((f"{place} places", str(count)) for place, count in zip(PLACES, totals.places)),
               ("Average place", f"{totals.average_place:.2f}"),
               ("Average points", f"{totals.average_score:,.0f}"),
               ("Total (points and uma)", f"{totals.total:+.1f}"),
               ("Rating", shown(totals.rating)),
               ("Win rate", rate(stats.wins, stats.hands)),
               ("Deal-in rate", rate(stats.deal_ins, stats.hands)),
               ("Riichi rate", rate(stats.riichi, stats.hands)),
               ("Call rate", rate(stats.called, stats.hands)),
               ("Hands played", str(stats.hands))]
    items = "".join(f"<div><dt>{text(name)}</dt><dd>{text(value)}</dd></div>" for name, value in figures)
    return f'<h2>Games played out</h2><dl class="figures">{items}</dl>'


def _last_games(games: list[PlayerGame]) -> str:
    if not games:
        return ""
    rows = [(text(when(g.finished)), link(f"/games/{g.game_id}", f"game {g.game_id}"),
             text("abandoned" if g.place is None else PLACES[g.place - 1]), text(f"{g.score:,}"),
             text("–" if g.total is None else f"{g.total:+.1f}"), text(", ".join(g.labels)))
            for g in games]
    return "<h2>Last games</h2>" + table(("Finished", "Replay", "Place", "Points", "Result", "Labels"), rows,
                                         name_column=5)
