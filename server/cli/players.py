"""`riichi-server players add NAME` and `riichi-server players list`: the players a server
knows (issue 25).

`add` makes a player with an issued key and prints the link that gives the key to a browser
(the page keeps it and takes it out of the address bar), and the key itself for riichi-play
and bots; a server started with --require-player-key admits only such players.  The key is
in the link's fragment (after #), which a browser never sends to any server, so it reaches no
log on the way.
"""

from __future__ import annotations

import argparse
import socket
import time
from typing import Any

from server.cli.games import aligned
from server.cli.store_command import run_on_store
from server.identity import key_hash, new_key, new_player
from server.store.opening import open_store, where
from server.store.rows import PlayerKind, PlayerRow

HEADER = ("ID", "NAME", "KIND", "KEY", "CREATED")
LINK_FRAGMENT = "#player="  # the page reads the key from here (web/src/player.ts)


def add_commands(commands: Any) -> None:
    """`players add` and `players list`, on riichi-server's subcommands."""
    players = commands.add_parser("players", help="the players this server knows: add one, or list them")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", default=argparse.SUPPRESS,
                    help="the server's SQLite file or PostgreSQL URL (default: riichi.sqlite3 if this folder has"
                         " one, else the database of scripts/run.sh in the user's data folder)")
    what = players.add_subparsers(dest="players_command", required=True)
    add = what.add_parser("add", parents=[db],
                          help="a player with a key issued here: prints the link that gives it the key")
    add.add_argument("name", help="the player's display name (the player may change it)")
    add.add_argument("--bot", action="store_true", help="a program, not a person (its key goes to riichi-bot)")
    add.add_argument("--url", default=None,
                     help="the server's address as players reach it, for the link (default: http://HOST:PORT/ of"
                          " riichi-server's --host and --port)")
    what.add_parser("list", parents=[db], help="every player, the oldest first")


def run(args: argparse.Namespace) -> int:
    """`players add` or `players list` from riichi-server's parsed arguments; the exit status."""
    return run_on_store(args, _run, writes=True)


async def _run(args: argparse.Namespace, db: str) -> int:
    store = await open_store(db)
    try:
        if args.players_command == "list":
            return list_players(await store.players(), where(db))
        key = new_key()
        kind = PlayerKind.BOT if args.bot else PlayerKind.HUMAN
        player = await store.add_player(new_player(args.name, kind, issued=True), key_hash(key))
    finally:
        await store.aclose()
    print_added(player, key, args.url or page_of(args.host, args.port))
    return 0


def page_of(host: str, port: int) -> str:
    """The page's address from the server's --host and --port (every interface: this host's name)."""
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def link(page: str, key: str) -> str:
    return page.rstrip("/") + "/" + LINK_FRAGMENT + key


def print_added(player: PlayerRow, key: str, page: str) -> None:
    print(f"added {player.name} (player {player.id}); the key is shown once, keep it secret")
    if player.kind is PlayerKind.BOT:
        print(f"key (riichi-bot --player-key): {key}")
    else:
        print(f"open this link in {player.name}'s browser (it keeps the key): {link(page, key)}")
        print(f"or in the terminal: riichi-play --player-key {key}")


def list_players(players: list[PlayerRow], db: str) -> int:
    if not players:
        print(f"no players in {db}")
        return 0
    rows = [(p.id, p.name, p.kind.value, "issued" if p.issued else "-",
             time.strftime("%Y-%m-%d %H:%M", time.localtime(p.created))) for p in players]
    print("\n".join(aligned([HEADER, *rows])))
    return 0
