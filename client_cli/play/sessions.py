"""The resume token of the seat riichi-play holds at each server, kept in a small JSON file
so that `riichi-play --resume` takes the seat back after the client was closed (the server
keeps a seat and plays for it while its player is away).

The file is $RIICHI_PLAY_STATE, else $XDG_STATE_HOME/riichi-play/sessions.json, else
~/.local/state/riichi-play/sessions.json; it is written with mode 0600 (a token is a
password to the seat).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def default_path() -> Path:
    if os.environ.get("RIICHI_PLAY_STATE"):
        return Path(os.environ["RIICHI_PLAY_STATE"])
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "riichi-play" / "sessions.json"


class SessionFile:
    def __init__(self, path: Path | None = None):
        self.path = path or default_path()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump(data, f)
            os.replace(tmp, self.path)
        except OSError:
            pass  # not being able to remember a seat must not stop a game

    def load(self, url: str) -> dict[str, Any] | None:
        """{"resume": token, "name": name, "table": id} of the seat held at `url`, if any."""
        entry = self._read().get(url)
        return entry if isinstance(entry, dict) and isinstance(entry.get("resume"), str) else None

    def save(self, url: str, resume: str, name: str, table: str) -> None:
        data = self._read()
        if data.get(url) != {"resume": resume, "name": name, "table": table}:
            data[url] = {"resume": resume, "name": name, "table": table}
            self._write(data)

    def forget(self, url: str) -> None:
        data = self._read()
        if data.pop(url, None) is not None:
            self._write(data)
