"""Where the games played on this machine with scripts/run.sh are kept: one database in the
user's data folder ($XDG_DATA_HOME/riichi-server, else ~/.local/share/riichi-server), and
which database `riichi-server games` and `export` read when no --db is given.

    python -m server.cli.local_games    # prints that database's path (its folder made)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

SERVER_DEFAULT = "riichi.sqlite3"  # riichi-server's own --db default, in the folder it runs in


def data_folder(env: Mapping[str, str] = os.environ) -> Path:
    """riichi-server's folder in the user's data folder (the XDG base directory rules: a
    relative $XDG_DATA_HOME is ignored)."""
    base = env.get("XDG_DATA_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path(env.get("HOME") or Path.home()) / ".local" / "share"
    return root / "riichi-server"


def local_games(env: Mapping[str, str] = os.environ) -> Path:
    """The database scripts/run.sh's servers keep their games in."""
    return data_folder(env) / SERVER_DEFAULT


def database_to_read(given: str | None) -> tuple[str, str | None]:
    """The database `games` and `export` read, and, when none was given, a line saying which
    one it is and why: the server's default in this folder if there is one, else the local
    games of scripts/run.sh."""
    if given is not None:
        return given, None
    if Path(SERVER_DEFAULT).exists():
        return SERVER_DEFAULT, f"reading {Path(SERVER_DEFAULT).resolve()} (riichi-server's default in this folder;" \
                               " give --db for another)"
    local = local_games()
    return str(local), f"reading {local} (the games played with scripts/run.sh; give --db for another)"


if __name__ == "__main__":
    path = local_games()
    path.parent.mkdir(parents=True, exist_ok=True)
    print(path)
    sys.exit(0)
