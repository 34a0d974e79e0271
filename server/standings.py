"""`GET /standings` and `GET /standings.csv`: the server's players in the order of their
ratings' ordinal (mu - 3 sigma), with their games played out, average place, total points
and rating (issue 25).  `?label=L` keeps to the games of tables with that label (a club's own
standings): the games and points are those games', the rating is the player's one rating.

Only games played out count (their seats are kept when they end), so a game in play never
shows.  The CSV has a header row; a name a spreadsheet would take for a formula is written
with a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
from http import HTTPStatus
from urllib.parse import parse_qs, quote

import structlog
from websockets.http11 import Response

from server.html_pages import csv_response, html_response, link, not_found, page, player_href, table, text, unavailable
from server.ratings import shown
from server.store.protocol import Store
from server.store.rows import PlayerTotals

log = structlog.get_logger("riichi.pages")

PATHS = ("/standings", "/standings.csv")
CSV_HEADER = ("rank", "player_id", "name", "games", "first", "second", "third", "fourth", "average_place",
              "average_points", "total", "mu", "sigma", "ordinal", "rated_games")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_standings_path(path: str) -> bool:
    return path in PATHS


def label_of(query: str) -> str | None:
    """The `label` asked for, if any (an empty one: none)."""
    return (parse_qs(query).get("label") or [""])[0] or None


class Standings:
    def __init__(self, store: Store):
        self.store = store

    async def respond(self, path: str, query: str) -> Response:
        label = label_of(query)
        try:
            rows = await self.store.standings(label)
        except Exception:  # noqa: BLE001 - a store that fails one request: the server goes on
            log.exception("standings_failed", label=label)
            return unavailable()
        if path.endswith(".csv"):
            return csv_response(standings_csv(rows), "standings.csv" if label is None else "standings-label.csv")
        if label is not None and not rows:
            return not_found("No such label", f"No game played out has the label {text(label)}. The server's"
                                              f" own standings are at {link('/standings', '/standings')}.")
        return html_response(HTTPStatus.OK, standings_page(rows, label))


def standings_page(rows: list[PlayerTotals], label: str | None) -> str:
    title = "Standings" if label is None else f"Standings: {label}"
    csv_href = "/standings.csv" + ("" if label is None else f"?label={quote(label, safe='')}")
    lead = ("Every player's games played out on this server" if label is None
            else f"Games played out at tables labelled {text(label)}") + \
        f", ordered by rating (mu - 3 sigma). {link(csv_href, 'Download as CSV')}."
    if not rows:
        return page(title, f"<h1>{text(title)}</h1><p class=\"lead\">{lead}</p><p class=\"none\">No game played"
                           " out yet.</p>")
    cells = [(str(rank), link(player_href(t.player_id), t.name), str(t.games), f"{t.average_place:.2f}",
              f"{t.total:+.1f}", text(shown(t.rating)), f"{t.rating.ordinal:.1f}")
             for rank, t in enumerate(rows, 1)]
    return page(title, f"<h1>{text(title)}</h1><p class=\"lead\">{lead}</p>" + table(
        ("#", "Player", "Games", "Average place", "Total points", "Rating", "Ordinal"), cells, name_column=1))


def standings_csv(rows: list[PlayerTotals]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for rank, t in enumerate(rows, 1):
        writer.writerow((rank, t.player_id, _cell(t.name), t.games, *t.places, f"{t.average_place:.3f}",
                         f"{t.average_score:.1f}", f"{t.total:.1f}", repr(t.rating.mu), repr(t.rating.sigma),
                         repr(t.rating.ordinal), t.rating.games))
    return out.getvalue()


def _cell(name: str) -> str:
    return "'" + name if name.startswith(FORMULA_STARTS) else name
