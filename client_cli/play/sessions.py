"""The resume tokens of the seats riichi-play holds, one per server, table and seat, kept in
a small JSON file so that `riichi-play --resume` takes a seat back after the client was
closed (the server keeps a seat and plays for it while its player is away).  Two clients of
one user on one machine (a friend in a second terminal) each keep their own entry, so that
neither resumes the other's seat.

The file is $RIICHI_PLAY_STATE, else $XDG_STATE_HOME/riichi-play/sessions.json, else
~/.local/state/riichi-play/sessions.json; it is written with mode 0600 (a token is a
password to the seat).  It maps each server URL to a list of
{"resume", "name", "table", "seat"}; the older form, one such map per URL, is read as a
list of one.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


def default_path() -> Path:
    if os.environ.get("RIICHI_PLAY_STATE"):
        return Path(os.environ["RIICHI_PLAY_STATE"])
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "riichi-play" / "sessions.json"


@dataclass(frozen=True)
class SavedSeat:
    resume: str  # the token
    name: str
    table: str
    seat: int | None = None  # None in a file written before seats were kept

    def label(self) -> str:
        where = f"seat {self.seat}" if self.seat is not None else "a seat"
        return f"{self.name}, {where} at table {self.table}"

    @classmethod
    def of(cls, entry: Any) -> SavedSeat | None:
        if not isinstance(entry, dict) or not isinstance(entry.get("resume"), str):
            return None
        seat = entry.get("seat")
        return cls(entry["resume"], str(entry.get("name") or "player"), str(entry.get("table") or "?"),
                   seat if isinstance(seat, int) and not isinstance(seat, bool) else None)


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
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")  # two clients may write at once
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump(data, f)
            os.replace(tmp, self.path)
        except OSError:
            pass  # not being able to remember a seat must not stop a game

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Around a read and write: the two clients of a friend flow save at the same moment
        (on the same `table` broadcast), and neither may drop the other's seat."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path.with_suffix(".lock"), os.O_WRONLY | os.O_CREAT, 0o600)
        except OSError:
            yield  # no lock to be had: as before, the last writer wins
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    @staticmethod
    def _entries(data: dict[str, Any], url: str) -> list[SavedSeat]:
        raw = data.get(url)
        entries = raw if isinstance(raw, list) else [raw]
        return [s for s in map(SavedSeat.of, entries) if s is not None]

    def seats(self, url: str) -> list[SavedSeat]:
        """The seats held at `url`, oldest first."""
        return self._entries(self._read(), url)

    def save(self, url: str, resume: str, name: str, table: str, seat: int | None = None) -> None:
        """Keep this token's seat; it replaces what the token held before (a session holds
        one table at a time) and what another token held at that table and seat."""
        saved = SavedSeat(resume, name, table, seat)
        with self._locked():
            data = self._read()
            old = self._entries(data, url)
            if saved in old:
                return
            kept = [s for s in old if s.resume != resume and (s.table, s.seat) != (table, seat)]
            data[url] = [asdict(s) for s in kept + [saved]]
            self._write(data)

    def forget(self, url: str, resume: str) -> None:
        """Forget the seat of this token (its game ended, or the server no longer holds it)."""
        with self._locked():
            data = self._read()
            old = self._entries(data, url)
            kept = [s for s in old if s.resume != resume]
            if kept != old:
                if kept:
                    data[url] = [asdict(s) for s in kept]
                else:
                    data.pop(url, None)
                self._write(data)
