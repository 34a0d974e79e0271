"""Start a local riichi-server, seat three built-in bots and a simple player, and show a
whole game as it is played: each hand's result and the final standings.  This is the
screenless form of the first command (`scripts/run.sh --plain`); `scripts/run.sh` itself
opens the terminal client, riichi-play.

    python scripts/demo_game.py [--rules ema2016|tenhou] [--port 0] [--db FILE] [--keep-server]

The server is a real process on 127.0.0.1 with its database in FILE (scripts/run.sh gives
the one in the user's data folder, which `riichi-server games` lists), else in a temporary
folder that is left for the game's export; it stops when the game is over (unless
--keep-server).  It is --ephemeral: it rebuilds no table of an earlier server at start.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from protocol.client import Client  # noqa: E402
from protocol.events import EventType, HandResult  # noqa: E402

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db: Path) -> subprocess.Popen:
    script = Path(sys.executable).parent / "riichi-server"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "server.app"]
    process = subprocess.Popen([*command, "--port", str(port), "--db", str(db), "--ephemeral"], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("demo_game: the server did not start")


def choose(actions: list[dict[str, Any]], drawn: int | None) -> dict[str, Any]:
    """A plain player: win when it can, riichi when it can, else discard the drawn tile, pass calls."""
    for wanted in ("tsumo", "ron"):
        for a in actions:
            if a["type"] == wanted:
                return a
    riichi = [a for a in actions if a["type"] == "discard" and a.get("riichi")]
    if riichi:
        return riichi[0]
    discards = [a for a in actions if a["type"] == "discard"]
    for a in discards:
        if a["tile"] == drawn:
            return a
    if discards:
        return discards[-1]
    return next(a for a in actions if a["type"] == "pass")


def describe(result: dict[str, Any], names: list[str]) -> str:
    if result["type"] == HandResult.WIN:
        parts = []
        for w in result["wins"]:
            how = "tsumo" if w["tsumo"] else f"ron off {names[w['from']]}"
            yaku = ", ".join([f"{n} {h}" for n, h in w["yaku"]] + ([f"dora {w['dora']}"] if w["dora"] else []))
            parts.append(f"{names[w['seat']]} wins by {how}: {w['han']} han {w['fu']} fu, {w['points']} ({yaku})")
        text = "; ".join(parts)
    elif result["type"] == HandResult.EXHAUSTIVE_DRAW:
        tenpai = ", ".join(names[s] for s in result["tenpai"]) or "nobody"
        text = f"exhaustive draw, tenpai: {tenpai}"
    else:
        text = f"abortive draw ({result['reason']})"
    deltas = "  ".join(f"{names[s]} {d:+d}" for s, d in enumerate(result["deltas"]))
    return f"{text}\n        {deltas}"


async def play(url: str, rules: str, db: Path) -> int:
    client = await Client.connect(url, "you")
    await client.send({"type": "create_table", "rules": rules, "clock": {"none": True}})
    for _ in range(3):
        await client.send({"type": "add_bot"})  # the server's built-in strategy
    await client.send({"type": "ready"})
    names: list[str] = ["you", "bot", "bot", "bot"]
    drawn: int | None = None
    while True:
        message = await client.recv()
        kind = message["type"]
        if kind == "table":
            seats = message.get("seats") or []
            names = [s["name"] if s else "-" for s in seats] if seats else names
        elif kind == "event":
            event = message["event"]
            if event["type"] == EventType.HAND_START:
                print(f"{event['round']} honba {event['honba']}  scores {event['scores']}", flush=True)
            elif event["type"] == EventType.DRAW and event["seat"] == 0:
                drawn = event.get("tile")
            elif event["type"] == EventType.HAND_END:
                print("        " + describe(event["result"], names), flush=True)
        elif kind == "offer":
            await client.send({"type": "act", "decision": message["decision"],
                               "action": choose(message["actions"], drawn)})
        elif kind == "result":
            final = message["final"]
            print("final standings:")
            width = max(len(name) for name in names)
            for place, seat in enumerate(sorted(range(4), key=lambda s: final["places"][s])):
                print(f"  {place + 1}. {names[seat]:<{width}} {final['scores'][seat]:>7}  "
                      f"{final['results'][seat]:+.1f}")
            print(f"game {message['game']} is stored; export it with: "
                  f".venv/bin/riichi-server export {message['game']} --db {db} --format tenhou6")
            await client.close()
            return 0
        elif kind == "error":
            print(f"server error: {message['message']}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Watch a whole game on a local riichi-server: you (a plain player) and three bots.")
    parser.add_argument("--rules", choices=["ema2016", "tenhou"], default="ema2016")
    parser.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    parser.add_argument("--db", type=Path, default=None, help="the server's database (default: a new one in a"
                        " temporary folder)")
    parser.add_argument("--keep-server", action="store_true", help="leave the server running afterwards")
    args = parser.parse_args(argv)
    port = args.port or free_port()
    db = args.db or Path(tempfile.mkdtemp(prefix="riichi-demo-")) / "riichi.sqlite3"
    server = start_server(port, db)
    print(f"riichi-server on ws://127.0.0.1:{port} (database {db})", flush=True)
    try:
        return asyncio.run(play(f"ws://127.0.0.1:{port}", args.rules, db))
    finally:
        if args.keep_server:
            print(f"the server keeps running (pid {server.pid}); stop it with: kill {server.pid}")
        else:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
