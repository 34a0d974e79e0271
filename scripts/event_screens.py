#!/usr/bin/env python3
"""A finished event's page as a screenshot, to look at by eye (issue 27: "The note shows a finished
event's standings page"): a small event run to its end on a real server, and `/events/ID` saved
as a PNG, the whole page at 1366 wide.

    scripts/event_screens.py [--out /tmp/riichi-screens] [--rounds 2] [--players 8] [--session-minutes M]

It starts its own riichi-server (a database in a temporary folder), and does what an organiser
and the players do: `riichi-server event create` and `event add` (each new player's key as the
command prints it), `event start-round` for each round, and each player (a builtin SDK bot with
its key) finds its table's link on its own page (/players/ID) and plays it; between the rounds
the organiser gives one chombo penalty.  The PNG goes to `--out` (outside the repository); the
script prints its path and the standings as `event standings` gives them.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from client_cli.bot.sdk import play  # noqa: E402
from client_cli.bot.strategies import make_bot  # noqa: E402
from tests.harness import SERVER, ServerProcess  # noqa: E402
from tests.web.browser import LAPTOP, chromium  # noqa: E402

NAMES = ["Aiko", "Bram", "Chiara", "Dmitri", "Eun-ji", "Farid", "Greta", "Hiro", "Ines", "Jun", "Kofi", "Lena"]
JOIN = re.compile(r'href="/join/([A-Za-z0-9_-]+)"')


def organiser(db: Path, *args: str) -> str:
    """An `event` command on the server's database, as the organiser types it: its standard output."""
    done = subprocess.run([str(SERVER), "event", *args, "--db", str(db)], capture_output=True, text=True, timeout=60)
    if done.returncode:
        raise SystemExit(f"event {args[0]}: {done.stderr.strip()}")
    return done.stdout


def get(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
        return answer.read().decode()


def invite_on_page(port: int, player: str, seconds: float = 30) -> str:
    """The join link on a player's page, once the server has opened the round's table."""
    deadline = time.monotonic() + seconds
    while not (found := JOIN.search(get(port, f"/players/{player}"))):
        if time.monotonic() > deadline:
            raise SystemExit(f"no table link on /players/{player} after {seconds:g} s")
        time.sleep(0.2)
    return found.group(1)


async def play_round(server: ServerProcess, keys: dict[str, str], round_: int) -> None:
    codes = {player: invite_on_page(server.port, player) for player in keys}
    await asyncio.gather(*(play(make_bot("builtin", f"r{round_}-{player[:6]}", seed=round_ * 100 + i), server.url,
                                code=codes[player], player_key=key, timeout=300)
                           for i, (player, key) in enumerate(keys.items())))


def until_round_ended(db: Path, event: str, round_: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        rows = [line.split() for line in organiser(db, "tables", event).splitlines()[1:]]
        if all(row[6] in ("done", "abandoned") for row in rows if row[0] == str(round_)):  # (its STATE column)
            return
        if time.monotonic() > deadline:
            raise SystemExit(f"round {round_} did not end")
        time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "riichi-screens")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--players", type=int, default=8, choices=range(4, len(NAMES) + 1), metavar="4-12")
    parser.add_argument("--session-minutes", type=float, metavar="M",
                        help="a timed event (a fraction of a minute: the bots play fast), so that some tables end"
                             " by time; default untimed")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="riichi-event-screens-"))
    db = folder / "riichi.sqlite3"
    server = ServerProcess(db, "--event-poll", "0.2").start()
    browser = chromium(folder / "browser", LAPTOP)
    try:
        timed = ("--session-minutes", str(args.session_minutes)) if args.session_minutes else ()
        event = organiser(db, "create", "--name", "Autumn club night", "--rounds", str(args.rounds), "--scoring",
                          "table-points", *timed, "--url", f"http://127.0.0.1:{server.port}/").strip()
        added = organiser(db, "add", event, *NAMES[:args.players], "--url", f"http://127.0.0.1:{server.port}/")
        keys = dict(zip(re.findall(r"\(player ([0-9a-f]+)\)", added)[::2],
                        re.findall(r"--player-key (\S+)", added), strict=True))
        for round_ in range(1, args.rounds + 1):
            organiser(db, "start-round", event)
            asyncio.run(play_round(server, keys, round_))
            until_round_ended(db, event, round_)
            if round_ == 1:
                organiser(db, "penalty", event, NAMES[1], "-1", "--reason", "chombo (a wrong tsumo)", "--round",
                          "1")
        browser.get(f"http://127.0.0.1:{server.port}/events/{event}")
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": LAPTOP[0], "height": height, "deviceScaleFactor": 1, "mobile": False})
        time.sleep(0.3)
        path = args.out / f"event-standings-{LAPTOP[0]}.png"
        browser.save_screenshot(str(path))
        print(organiser(db, "standings", event), end="")
        print(path)
    finally:
        browser.quit()
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
