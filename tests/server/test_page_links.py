"""The server-rendered pages link back to the lobby and to each other (issue 25): every page's
bar leads to the lobby (the web client at /) and to the standings, with the web client's icon
(a browser asks for /favicon.ico, a 404, without one).  That the standings link each player's
page and a player's page each game's replay, tests/server/test_player_pages.py holds; that a
browser follows them, tests/web/test_player_across_browsers.py."""

from __future__ import annotations

import re

from server.html_pages import page
from server.player_page import player_page
from server.store.rows import PlayerKind, PlayerRow

ANN = PlayerRow("9785cb53fda169e5", "Ann", PlayerKind.HUMAN, True, 0.0)


def bar(markup: str) -> list[tuple[str, str]]:
    """The bar's links: (href, label)."""
    nav = re.search(r"<nav class=\"bar\">(.*?)</nav>", markup, re.S)
    assert nav, markup[:300]
    return re.findall(r'<a [^>]*href="([^"]*)"[^>]*>([^<]*)</a>', nav.group(1))


def test_every_page_has_a_bar_back_to_the_lobby_and_to_the_standings_and_the_clients_icon():
    for markup in (page("Standings", "<h1>Standings</h1>"), player_page(ANN, None, [])):
        assert bar(markup) == [("/", "riichi-server"), ("/", "Lobby"), ("/standings", "Standings")]
        assert '<link rel="icon" href="/tiles/Chun.svg"' in markup

