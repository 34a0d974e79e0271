"""`GET /standings` and `GET /standings.csv`: the server's players in the order of their
ratings' ordinal (mu - 3 sigma), with their games played out, average place, total points
and rating (issue 25).  `?label=L` keeps to the games of tables with that label (a club's own
standings): the games and points are those games', the rating is the player's one rating.

Only games played out count (their seats are kept when they end), so a game in play never
shows.  The standings are added up over every game kept, which takes a while on a big
database (docs/ratings.md: about 0.1 s for 20,000 games on SQLite, 0.7 s for 100,000), so
each label's are kept in memory until any game ends (on any node: the Finishes of every
node's) or for `KEEP_FOR` seconds (a `ratings --rebuild` run meanwhile shows within that).
The CSV has a header row; a name a spreadsheet would take for a formula is written with a
leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable
from http import HTTPStatus
from urllib.parse import parse_qs, quote

import structlog
from websockets.http11 import Response

from server.finished import GameFinished
from server.finishes import Finishes
from server.html_pages import csv_response, html_response, link, not_found, page, player_href, table, text, unavailable
from server.ratings import shown
from server.spreadsheet import text_cell
from server.store.protocol import Store
from server.store.rows import PlayerTotals

log = structlog.get_logger("riichi.pages")

PATHS = ("/standings", "/standings.csv")
CSV_HEADER = ("rank", "player_id", "name", "games", "first", "second", "third", "fourth", "average_place",
              "average_points", "total", "mu", "sigma", "ordinal", "rated_games")
KEEP_FOR = 30.0  # seconds the standings are kept when no game ends
KEEP_LABELS = 32  # the labels' standings kept at most (a label is any text a request gives)


def is_standings_path(path: str) -> bool:
    return path in PATHS


def label_of(query: str) -> str | None:
    """The `label` asked for, if any (an empty one: none)."""
    return (parse_qs(query).get("label") or [""])[0] or None


class Standings:
    def __init__(self, store: Store, finishes: Finishes | None = None, now: Callable[[], float] = time.monotonic):
        self.store, self.now = store, now
        self._kept: dict[str | None, tuple[float, list[PlayerTotals]]] = {}  # label -> (when read, standings)
        self._ended = 0  # games heard to end: standings read while one ended are not kept
        if finishes is not None:
            finishes.subscribe(self.forget)  # (relayed too: every node's games change them)

    def forget(self, _: GameFinished | None = None) -> None:
        """A game has ended: the standings kept are out of date."""
        self._ended += 1
        self._kept.clear()

    async def rows(self, label: str | None) -> list[PlayerTotals]:
        """The standings of `label` (None: every game), read again once out of date."""
        kept = self._kept.get(label)
        if kept is not None and self.now() - kept[0] < KEEP_FOR:
            return kept[1]
        read, ended = self.now(), self._ended
        rows = await self.store.standings(label)
        if ended == self._ended:
            if len(self._kept) >= KEEP_LABELS:
                self._kept.pop(next(iter(self._kept)))
            self._kept[label] = (read, rows)
        return rows

    async def respond(self, path: str, query: str) -> Response:
        label = label_of(query)
        try:
            rows = await self.rows(label)
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
        writer.writerow((rank, t.player_id, text_cell(t.name), t.games, *t.places, f"{t.average_place:.3f}",
                         f"{t.average_score:.1f}", f"{t.total:.1f}", repr(t.rating.mu), repr(t.rating.sigma),
                         repr(t.rating.ordinal), t.rating.games))
    return out.getvalue()

