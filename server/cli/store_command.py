"""What each of riichi-server's store commands (`players`, `ratings`, `event`) does around its
work: the database named by --db (or the default one, said on standard error, its folder
made), the command's coroutine run on it, and a store problem said in one line with exit 2."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from server.cli.games import fail
from server.cli.local_games import database_to_read
from server.store.opening import StoreProblem

Command = Callable[[argparse.Namespace, str], Awaitable[int]]


def run_on_store(args: argparse.Namespace, command: Command, writes: bool = False,
                 problems: tuple[type[Exception], ...] = ()) -> int:
    """Run `command(args, db)`; the exit status.  `writes`: the default database is said as
    used, not read; `problems`: the command's own errors, said as a store problem is."""
    db, which = database_to_read(getattr(args, "db", None))
    if which is not None:
        Path(db).parent.mkdir(parents=True, exist_ok=True)
        print(f"riichi-server: {which.replace('reading', 'using', 1) if writes else which}", file=sys.stderr)
    try:
        return asyncio.run(command(args, db))
    except (StoreProblem, *problems) as problem:
        return fail(str(problem))
