"""The prefilled readings table (server/rules/decompose.prefill: some 0.2 s of building, and
most of `riichi-score --jsonl`'s start) kept in a file, read back in a tenth of the time.

The file is written by this module only, from decompose's own tables, and is named after
a key: the SHA-256 of the source of every module of server/rules, the Python version and
the marshal format.  A change to any of them gives another name, so an old file is never
read (and is removed when the new one is written).  The file starts with the SHA-256 of
the rest, checked on reading, and is written under a temporary name and then renamed, so
a torn or altered file is never taken: it is rebuilt.  Where the cache folder cannot be
written, the table is built in memory as before.  marshal (ints, tuples and dicts only)
rather than pickle: it reads back no objects of any other kind.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from pathlib import Path

from server.rules import decompose

RULES = Path(decompose.__file__).resolve().parent
PREFIX, SUFFIX = "readings-", ".marshal"


def cache_folder() -> Path:
    """$XDG_CACHE_HOME/riichi-server, or ~/.cache/riichi-server."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "riichi-server"


def cache_key() -> str:
    """What the table is made from: the rules modules' source, Python and marshal versions."""
    digest = hashlib.sha256(f"{sys.version}\0{marshal.version}\0".encode())
    for source in sorted(RULES.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def prefill_readings(folder: Path | None = None) -> str:
    """decompose's tables filled, from the cache file if it holds them, else built (and
    the file written); says which: "read", "built and kept" or "built"."""
    folder = cache_folder() if folder is None else folder
    path = folder / f"{PREFIX}{cache_key()}{SUFFIX}"
    tables = _read(path)
    if tables is not None:
        decompose.install_prefilled(tables)
        return "read"
    payload = marshal.dumps(decompose.prefilled_tables())
    return "built and kept" if _write(path, payload) else "built"


def _read(path: Path) -> decompose.PrefilledTables | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) < 32 or hashlib.sha256(data[32:]).digest() != data[:32]:
        return None  # torn or altered: built again
    try:
        return marshal.loads(data[32:])
    except (EOFError, ValueError, TypeError):
        return None


def _write(path: Path, payload: bytes) -> bool:
    """Write the file whole or not at all; old files of other keys go."""
    import tempfile  # only here: its import is a tenth of a start that reads the file

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".writing-")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(hashlib.sha256(payload).digest() + payload)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        return False
    for old in path.parent.glob(f"{PREFIX}*{SUFFIX}"):
        if old != path:
            try:
                old.unlink()
            except OSError:
                pass
    return True
