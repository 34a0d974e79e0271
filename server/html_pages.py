"""What the server-rendered pages share (the player pages and the standings, issue 25): the
frame of a page, escaping, and the response.  The pages need no script; their one stylesheet
is /pages.css (web/static/pages.css, built with the web client), so that the
Content-Security-Policy of every answer (server/web.py: nothing inline) holds for them too.

Every text that comes from a player (a name above all) goes through `text` or `attribute`,
which escape it: a name is never markup.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from http import HTTPStatus
from urllib.parse import quote

from websockets.http11 import Response

from server.web import answer


def text(value: object) -> str:
    """A value as HTML text, escaped."""
    return html.escape(str(value), quote=False)


def attribute(value: object) -> str:
    """A value inside a quoted attribute, escaped."""
    return html.escape(str(value), quote=True)


def player_href(player_id: str) -> str:
    """A player's page by its id (an id is one player; a name may be several)."""
    return f"/players/{quote(player_id, safe='')}"


def link(href: str, label: object) -> str:
    return f'<a href="{attribute(href)}">{text(label)}</a>'


def table(header: Iterable[str], rows: Iterable[Iterable[str]], name_column: int = -1) -> str:
    """A table of already-escaped cells; the cell at `name_column` takes the spare width."""
    def cells(tag: str, row: Iterable[str]) -> str:
        return "".join(f'<{tag} class="name">{c}</{tag}>' if i == name_column else f"<{tag}>{c}</{tag}>"
                       for i, c in enumerate(row))
    body = "".join(f"<tr>{cells('td', row)}</tr>" for row in rows)
    return (f'<div class="scroll"><table class="list"><thead><tr>{cells("th", header)}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def sparkline(values: Sequence[float], label: str, width: int = 120, height: int = 28) -> str:
    """A small line of `values` in order, as inline SVG (`label`: what it shows, for a screen
    reader and as its tooltip); empty for fewer than two."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2) / (len(values) - 1)
    points = " ".join(f"{1 + i * step:.1f},{1 + (height - 2) * (high - v) / span:.1f}" for i, v in enumerate(values))
    return (f'<svg class="trend" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img"'
            f' aria-label="{text(label)}"><title>{text(label)}</title>'
            f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="1.5"/></svg>')


def page(title: str, body: str) -> str:
    """A whole page: `title` plain text (escaped here), `body` markup already escaped.  Its bar
    links every page back to the lobby (the web client at /) and to the standings; the
    standings link each player's page, and a player's page each game's replay."""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{text(title)} · riichi-server</title><link rel=\"stylesheet\" href=\"/pages.css\">"
            # the web client's icon: without one a browser asks for /favicon.ico, a 404
            "<link rel=\"icon\" href=\"/tiles/Chun.svg\" type=\"image/svg+xml\"></head>"
            "<body><nav class=\"bar\"><a class=\"brand\" href=\"/\">riichi-server</a>"
            "<a href=\"/\" id=\"lobby-link\">Lobby</a><a href=\"/standings\" id=\"standings-link\">Standings</a>"
            "</nav>"
            f"<main>{body}</main></body></html>\n")


def html_response(status: HTTPStatus, markup: str) -> Response:
    return answer(status, markup.encode(), "text/html; charset=utf-8")


def csv_response(body: str, filename: str) -> Response:
    response = answer(HTTPStatus.OK, body.encode(), "text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def not_found(title: str, why: str) -> Response:
    """A 404 page that says what was not found and where to look instead (`why`: markup)."""
    return html_response(HTTPStatus.NOT_FOUND, page(title, f"<h1>{text(title)}</h1><p>{why}</p>"))


def unavailable() -> Response:
    return html_response(HTTPStatus.SERVICE_UNAVAILABLE, page(
        "Not available now", "<h1>Not available now</h1><p>The server could not read its games just now: try"
                             " again in a moment.</p>"))
