"""What each of riichi-server's store commands (`players`, `ratings`, `event`) does around its
work: the database named by --db (or the default one, said on standard error, its folder
made), the command's coroutine run on it, and a store problem said in one line with exit 2."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from server.cli.games import fail
from server.cli.local_games import database_to_read
from server.store.opening import StoreProblem, open_store
from server.store.protocol import Store

Command = Callable[[argparse.Namespace, str], Awaitable[int]]
Subcommand = Callable[[Store, argparse.Namespace], Awaitable[int]]


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


def run_subcommand(args: argparse.Namespace, commands: Mapping[str, Subcommand], chosen: str,
                   problems: tuple[type[Exception], ...] = ()) -> int:
    """Run `commands[chosen](store, args)` on the store --db names, opened and closed around it (as
    run_on_store says, writing); the exit status."""
    async def on_store(args: argparse.Namespace, db: str) -> int:
        store = await open_store(db)
        try:
            return await commands[chosen](store, args)
        finally:
            await store.aclose()
    return run_on_store(args, on_store, writes=True, problems=problems)
