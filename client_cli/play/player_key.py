"""riichi-play's player key (PROTOCOL.md "Players"): a secret made once at random and said in
every hello, so that the server knows this user as one player on every connection and in
every game.  It is kept in $XDG_CONFIG_HOME/riichi-server/player-key (an absolute one; else
~/.config/riichi-server/), written with mode 0600 (the key is a password to the player);
`riichi-play --player-key KEY` keeps a key a server issued (riichi-server players add) there
instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

FILE_NAME = "player-key"
KEY_LENGTHS = (16, 128)  # as the server takes them (server/identity.py)


class KeyProblem(Exception):
    """A key given or kept that cannot be one (one line)."""


def config_folder(env: Mapping[str, str] = os.environ) -> Path:
    base = env.get("XDG_CONFIG_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path(env.get("HOME") or Path.home()) / ".config"
    return root / "riichi-server"


def usable(key: str) -> bool:
    return KEY_LENGTHS[0] <= len(key) <= KEY_LENGTHS[1] and key.isprintable() and key == key.strip()


def player_key(given: str | None = None, path: Path | None = None) -> str:
    """The key to say: `given` (then kept from now on), else the one kept, else a new one kept."""
    path = path or config_folder() / FILE_NAME
    if given is not None:
        if not usable(given):
            raise KeyProblem(f"--player-key: a player key is {KEY_LENGTHS[0]} to {KEY_LENGTHS[1]} printable characters"
                             " (copy the one riichi-server players add printed)")
        _keep(path, given)
        return given
    kept = kept_key(path)
    if kept is not None:
        return kept
    key = secrets.token_urlsafe(24)
    _keep(path, key)
    return key


def kept_key(path: Path | None = None) -> str | None:
    """The key kept in the config folder, or None when none is (this user has played nowhere
    yet): what `--history` reads, which makes no key of its own."""
    path = path or config_folder() / FILE_NAME
    try:
        kept = path.read_text().strip()
    except OSError:
        return None
    return kept if usable(kept) else None


def _keep(path: Path, key: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(key + "\n")
