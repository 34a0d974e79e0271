"""riichi-play: the full-screen terminal client.

    riichi-play                              # connect to ws://127.0.0.1:8765: create, join or watch
    riichi-play --local --bots 3             # a local server, a table with three bots
    riichi-play --join CODE [--seat N]       # take a seat (a bot's, before the start)
    riichi-play --watch CODE                 # watch a table
    riichi-play --resume [--seat N]          # take back a seat left at that server
    riichi-play --history                    # the games you finished at that server, with their links

The command line: arguments, a terminal (checked before anything is started or sent),
the local server (--local), the first connection and what
the command asks for (so a bad code or a server that is down is one line on the terminal,
before the screen opens), then the app (client_cli/play/game_app.py).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from client_cli.play import render
from client_cli.play.connection import DEFAULT_SERVER, Connection, ConnectError, LocalType, SeatInUse, address_problem
from client_cli.play.game_app import PlayApp
from client_cli.play.history import NOT_PLAYED, HistoryProblem, history, history_text
from client_cli.play.local import LocalServer
from client_cli.play.player_key import KeyProblem, config_folder, kept_key, player_key
from client_cli.play.panes import create_messages, option
from client_cli.play.sessions import SavedSeat, SessionFile
from protocol import client_messages
from protocol.messages import ErrorCode, MessageType

Message = dict[str, Any]
ENDED = (LocalType.CLOSED, LocalType.FATAL, MessageType.BYE)  # what ends the first connection's answers


# ---- the command ----------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="riichi-play",
        description="Play riichi mahjong on a riichi-server in the terminal: create a private table (with bots),"
                    " join one with its invite code, or watch one with its watch code.",
        epilog="Keys at the table: <- -> or 1-9 0 - = [ ] choose a tile, Enter discards it (so does its key"
               " again, or a click); the offered actions show their keys (t tsumo, r ron, i riichi, p pon,"
               " c/v/b/m/z chi, k/j/l kong, x or Esc pass); w shows your waits and furiten; B (the host)"
               " gives the seat of a player who is away to a bot; Ctrl+Q quits.")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"server address (default {DEFAULT_SERVER})")
    p.add_argument("--name", help="your name (default: $USER; your player's name once it has one, which --name"
                                  " changes); with --resume: the seat held under this name")
    p.add_argument("--player-key", metavar="KEY",
                   help="the player key a server issued you (riichi-server players add): kept in"
                        " ~/.config/riichi-server/player-key, and said from now on (by default one made at random)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--join", metavar="CODE", help="take a seat at the table with this invite code")
    what.add_argument("--watch", metavar="CODE", help="watch the table with this watch code")
    what.add_argument("--create", action="store_true", help="create a private table at once (you are the host)")
    what.add_argument("--resume", action="store_true",
                      help="take back a seat you left at this server (after quitting or closing the terminal);"
                           " with several, it asks which (or give --seat or --name)")
    what.add_argument("--history", action="store_true",
                      help="list the games your player finished at this server, latest first, each with the link"
                           " to its replay (no terminal needed)")
    p.add_argument("--seat", type=int, choices=range(4),
                   help="with --join: the seat to take (0-3); with --resume: the seat to take back")
    p.add_argument("--rules", choices=["ema2016", "tenhou"], default="ema2016", help="with --create (default ema2016)")
    p.add_argument("--per-decision", type=int, default=10, metavar="S",
                   help="with --create: seconds for each decision (default 10)")
    p.add_argument("--bank", type=int, default=60, metavar="S",
                   help="with --create: seconds a seat may overrun over the game (default 60)")
    p.add_argument("--no-clock", action="store_true", help="with --create: no clock at all")
    p.add_argument("--bots", type=int, choices=range(4), default=None, metavar="N",
                   help="create a table and seat N built-in bots (0-3; implies --create)")
    p.add_argument("--local", action="store_true",
                   help="start a riichi-server on 127.0.0.1 for this session (port 8765 if free) and play there")
    p.add_argument("--port", type=int, default=0, help="with --local: the port (default 8765, else a free one)")
    p.add_argument("--keep-data", action="store_true",
                   help="with --local: keep the server's temporary folder (database, server.log) when you quit,"
                        " and print where it is (by default it is removed)")
    p.add_argument("--db", type=Path, default=None, metavar="FILE",
                   help="with --local: the server's database, kept when you quit with its finished games"
                        " (scripts/run.sh gives the one in your data folder; by default a temporary one)")
    p.add_argument("--unicode", action="store_true", help="draw the Unicode mahjong tiles instead of 5p-style text")
    return p


def default_name() -> str:
    """$USER, else the login name, else `player`."""
    if os.environ.get("USER"):
        return os.environ["USER"]
    try:
        return getpass.getuser()
    except Exception:
        return "player"


def this_command() -> str:
    """How this client was started, for a friend at the same machine: `.venv/bin/riichi-play`
    run from the checkout, else `riichi-play`."""
    path = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(path) != "riichi-play":
        return "riichi-play"
    relative = os.path.relpath(path)
    return relative if not relative.startswith("..") else path


def intent_of(args: argparse.Namespace) -> list[Message] | None:
    """The messages the command line asks for, before the screen opens (None: the start pane)."""
    if args.join:
        return [client_messages.join(args.join, args.seat)]
    if args.watch:
        return [client_messages.watch(args.watch)]
    if args.create or args.bots is not None:
        clock = {"none": True} if args.no_clock else {"per_decision": args.per_decision, "bank": args.bank}
        return create_messages(args.rules, clock, args.bots or 0)
    return None


async def first_answer(conn: Connection, intent: list[Message], timeout: float = 10.0) -> tuple[list[Message], str | None]:
    """Send the intent and read until the table answers; returns what was read and an error, if any."""
    for message in intent:
        await conn.send(message)
    read: list[Message] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            message = await asyncio.wait_for(conn.recv(), max(0.1, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return read, "the server did not answer"
        read.append(message)
        if message["type"] == MessageType.TABLE:
            return read, None
        if message["type"] == MessageType.ERROR:
            return read, f"{message['message']} ({message['code']})"
        if message["type"] in ENDED:
            return read, message.get("text") or message.get("reason") or "the connection closed"


def watch_code_problem(code: str, command: str, url: str) -> str:
    """A `--join` given the table's watch code: say so, and how to watch with it."""
    server = "" if url == DEFAULT_SERVER else f" --server {url}"
    return f"that is a watch code, not an invite code: watch the table with {command}{server} {option('--watch', code)}"


async def choose_seat(saved: list[SavedSeat], args: argparse.Namespace, url: str) -> SavedSeat | str:
    """The saved seat `--resume` takes back: the one with `--seat` and `--name` if given, else
    the only one, else the one the user picks at the terminal; a string says why none."""
    fitting = [s for s in saved if (args.seat is None or s.seat == args.seat)
               and (args.name is None or s.name == args.name)]
    if not fitting:
        if not saved:
            return f"no seat at {url} to resume (join with --join CODE)"
        return f"no saved seat at {url} fits {_asked(args)}: saved are {'; '.join(s.label() for s in saved)}"
    if len(fitting) == 1:
        return fitting[0]
    print(f"Seats you left at {url}:")
    for number, seat in enumerate(fitting, 1):
        print(f"  {number}) {seat.label()}")
    for _ in range(3):
        try:
            answer = (await asyncio.to_thread(input, f"Which one do you take back? [1-{len(fitting)}] ")).strip()
        except EOFError:
            break
        if answer.isdigit() and 1 <= int(answer) <= len(fitting):
            return fitting[int(answer) - 1]
    return "no seat chosen (or say which with --seat N)"


def _asked(args: argparse.Namespace) -> str:
    return " and ".join(part for part in (f"--seat {args.seat}" if args.seat is not None else "",
                                          f"--name {args.name}" if args.name is not None else "") if part)


async def open_or_take_over(conn: Connection, saved: SavedSeat | None) -> Message:
    """`conn.open()`; when the seat to resume is held by a client that is connected, the
    user is asked first, and only a yes takes it over (raises SeatInUse otherwise)."""
    try:
        return await conn.open()
    except SeatInUse:
        if saved is None:
            raise
        question = (f"The player of {saved.label()} is connected now (another riichi-play?)."
                    f" Take the seat over? Its client is closed. [y/N] ")
        try:
            answer = await asyncio.to_thread(input, question)
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            raise
        conn.takeover = True
        return await conn.open()


async def not_resumed(conn: Connection, timeout: float = 1.0) -> Message | None:
    """After a `welcome` with `resumed: false`, what the server says instead: the `result` of
    the game the seat played, when it has ended, or the `seat_lost` error that says why (the
    seat was handed to a bot, the table closed); None if it says neither."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = await asyncio.wait_for(conn.recv(), left)
        except asyncio.TimeoutError:
            return None
        if message.get("type") == MessageType.RESULT or (message.get("type") == MessageType.ERROR
                                                         and message.get("code") == ErrorCode.SEAT_LOST):
            return message
        if message.get("type") in ENDED:
            return None
    return None


async def run(args: argparse.Namespace, local: LocalServer | None = None) -> int:
    url, note = args.server, ""
    if local is not None:
        url = local.url
        note = f"local riichi-server on {url} (stops when you quit)"
        print(note, flush=True)
    try:
        key = player_key(args.player_key)  # the one kept in the config folder, else a new one kept there
    except KeyProblem as bad:
        print(f"riichi-play: {bad}", file=sys.stderr)
        return 2
    conn = Connection(url, args.name or default_name(), player_key=key)
    command = this_command()
    sessions = SessionFile()
    saved = None
    if args.resume:
        saved = await choose_seat(sessions.seats(url), args, url)
        if isinstance(saved, str):
            print(f"riichi-play: {saved}", file=sys.stderr)
            return 1
        conn.resume, conn.name = saved.resume, saved.name
    try:
        try:
            welcome = await open_or_take_over(conn, saved)
        except SeatInUse:
            print(f"riichi-play: not taken over: the player of that seat is connected now (another riichi-play?);"
                  f" to take back another seat: {command} --resume --seat N", file=sys.stderr)
            return 1
        except ConnectError as problem:
            hint = "; to play on a server of your own: riichi-play --local --bots 3" if local is None else ""
            if getattr(problem, "code", None) == ErrorCode.UNKNOWN_PLAYER:
                hint = "; give the key it printed: riichi-play --player-key KEY"
            print(f"riichi-play: {problem}{hint}", file=sys.stderr)
            return 1
        if saved is not None and not welcome.get("resumed"):
            sessions.forget(url, saved.resume)
            answer = await not_resumed(conn)
            if answer is not None and answer["type"] == MessageType.RESULT:  # the game ended while we were away
                names = answer.get("names") or [f"seat {i}" for i in range(4)]
                print(f"the game is over (game {answer.get('game')}):")
                print(render.final_text(answer["final"], names, url, answer.get("game")).plain)
                return 0
            why = answer.get("message") if answer is not None else None
            print(f"riichi-play: the server no longer holds that seat: {why}" if why else
                  "riichi-play: the server no longer holds that seat (its game is over, or the table closed)",
                  file=sys.stderr)
            return 1
        known = welcome.get("player")
        if known is not None and args.name is not None and known["name"] != args.name:
            await conn.send(client_messages.rename(args.name))  # --name: the player's name from now on
        intent = intent_of(args)
        buffered: list[Message] = []
        if intent:
            buffered, problem = await first_answer(conn, intent)
            if problem and buffered and buffered[-1].get("code") == ErrorCode.WATCH_CODE:
                problem = watch_code_problem(args.join, command, url)
            if problem:
                print(f"riichi-play: {problem}", file=sys.stderr)
                return 1
            table = buffered[-1]
            if table.get("invite"):
                server = "" if url == DEFAULT_SERVER else f" --server {url}"
                print(f"invite code {table['invite']}  (a friend: {command}{server} {option('--join', table['invite'])})"
                      f"\nwatch code  {table['watch']}", flush=True)
        app = PlayApp(conn, buffered=buffered, unicode=args.unicode, note=note, command=command, sessions=sessions,
                      local=local is not None)
        await app.run_async()
        if app.fatal:
            print(f"riichi-play: {app.fatal}", file=sys.stderr)
            return 1
        if app.final is not None and app.state is not None and app.state.view is not None:
            print(render.final_text(app.final, app.state.view["names"], url, app.game).plain)
        return 0
    finally:
        await conn.close()


async def show_history(args: argparse.Namespace) -> int:
    """`--history`: the player's finished games at `--server`, printed as a table."""
    try:
        key = player_key(args.player_key) if args.player_key is not None else kept_key()
    except KeyProblem as bad:
        print(f"riichi-play: {bad}", file=sys.stderr)
        return 2
    if key is None:
        print(f"riichi-play: {NOT_PLAYED} (no player key is kept in {config_folder()})", file=sys.stderr)
        return 1
    try:
        found = await history(args.server, key, args.name or default_name())
    except HistoryProblem as problem:
        print(f"riichi-play: {problem}", file=sys.stderr)
        return 1
    print(history_text(found, args.server))
    return 0


def argument_problem(args: argparse.Namespace) -> str | None:
    """A value argparse lets through that cannot work, in one line (None: none)."""
    if args.history and (args.local or args.bots is not None):
        return "--history reads a server's games: give its --server, not --local or --bots"
    if args.keep_data and not args.local:
        return "--keep-data goes with --local"
    if args.db is not None and not args.local:
        return "--db goes with --local (a server of your own: riichi-server --db FILE)"
    if args.local:
        if not 0 <= args.port <= 65535:
            return f"--port {args.port}: a port is 1-65535 (or 0: 8765 if free, else any free one)"
    else:
        problem = address_problem(args.server)
        if problem:
            return f"--server {args.server}: {problem}"
    return None


def in_a_terminal() -> bool:
    """Textual reads the keys from standard input and draws on standard error."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def remove_on_signals(local: LocalServer) -> None:
    """Killed by SIGTERM or SIGHUP (its terminal closed), riichi-play ends as before, but
    stops the local server and removes its folder first."""
    def ending(signum: int, frame: object) -> None:
        local.remove()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, ending)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.seat is not None and not (args.join or args.resume):
        parser().error("--seat goes with --join or --resume")
    problem = argument_problem(args)
    if problem:
        print(f"riichi-play: {problem}", file=sys.stderr)
        return 2
    if args.history:  # printed: no terminal needed
        return asyncio.run(show_history(args))
    # Before anything is started or sent: joining, creating or resuming changes the server
    # (a resume takes the seat over from the client that holds it, which the server closes).
    if not in_a_terminal():
        print("riichi-play: it needs a terminal (run it in one, or under tmux)", file=sys.stderr)
        return 2
    local = None
    if args.local:  # started from the main thread: it is sent SIGTERM when this process ends
        try:
            local = LocalServer(args.port, db=args.db).start()
        except (RuntimeError, OSError, OverflowError) as problem:
            print(f"riichi-play: {problem}", file=sys.stderr)
            return 1
        if not args.keep_data:
            remove_on_signals(local)
    try:
        return asyncio.run(run(args, local))
    except KeyboardInterrupt:
        return 130
    finally:
        if local is not None:
            if args.keep_data:
                local.stop()
                print(f"riichi-play: the local server's folder is kept (database, server.log): {local.folder}",
                      file=sys.stderr)
            else:
                local.remove()
            if args.db is not None:
                print(f"riichi-play: the games are kept in {args.db}: riichi-server games lists them", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
