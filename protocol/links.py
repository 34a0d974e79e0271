"""The web client's links to a table and to a finished game (docs/web.md), from the server's
websocket address: `ws://HOST:PORT` serves the page at `http://HOST:PORT/` (`wss` at `https`)."""

from __future__ import annotations

from urllib.parse import urlsplit


def page_base(server_url: str) -> str:
    parts = urlsplit(server_url)
    return f"{'https' if parts.scheme == 'wss' else 'http'}://{parts.netloc}"


def join_link(server_url: str, invite: str) -> str:
    """The link that takes a seat with the invite code, in a browser."""
    return f"{page_base(server_url)}/join/{invite}"


def watch_link(server_url: str, watch: str) -> str:
    """The link that watches with the watch code, in a browser."""
    return f"{page_base(server_url)}/watch/{watch}"


def game_link(server_url: str, game: int) -> str:
    """The link to a game's page (its replay), in a browser: what riichi-play shows at a
    game's end and in `--history`."""
    return f"{page_base(server_url)}/games/{game}"
