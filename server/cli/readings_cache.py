"""The prefilled readings table (server/rules/decompose.prefill: some 0.2 s of building, and
most of `riichi-score --jsonl`'s start) kept in a file, read back in a tenth of the time.

The file is written by this module only, from decompose's own tables, and is named after
a key: two checksums (CRC-32 and Adler-32, 64 bits in all) of the source of every module of
server/rules, the Python version and the marshal format.  A change to any of them gives
another name, so an old file is never read (and is removed when the new one is written).
The file starts with its length and the CRC-32 of the rest, checked on reading, and is
written under a temporary name and then renamed, so a torn or damaged file is never taken:
it is rebuilt.  zlib's checksums, not hashlib's SHA-256: the cache guards against accidents,
not against an attacker who can write to the user's own cache folder, and hashlib's import
(OpenSSL) and its hashing of the 2 MB file were a tenth of a start that reads the file.  Where the cache folder cannot be
written, the table is built in memory as before.  marshal (ints, tuples and dicts only)
rather than pickle: it reads back no objects of any other kind.  Paths are os.path's, not
pathlib's: its import was a twentieth of riichi-score's start.
"""

from __future__ import annotations

import marshal
import os
import struct
import sys
import zlib

from server.rules import decompose

RULES = os.path.dirname(os.path.realpath(decompose.__file__))
PREFIX, SUFFIX = "readings-", ".marshal"
_HEAD = struct.Struct("<QI")  # the payload's length and CRC-32


def cache_folder() -> str:
    """$XDG_CACHE_HOME/riichi-server, or ~/.cache/riichi-server."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "riichi-server")


def cache_key() -> str:
    """What the table is made from: the rules modules' source, Python and marshal versions."""
    made = [f"{sys.version}\0{marshal.version}\0".encode()]
    for name in sorted(n for n in os.listdir(RULES) if n.endswith(".py")):
        with open(os.path.join(RULES, name), "rb") as source:
            made.append(name.encode() + b"\0" + source.read() + b"\0")
    whole = b"".join(made)
    return f"{zlib.crc32(whole):08x}{zlib.adler32(whole):08x}"


def prefill_readings(folder: str | os.PathLike[str] | None = None) -> str:
    """decompose's tables filled, from the cache file if it holds them, else built (and
    the file written); says which: "read", "built and kept" or "built"."""
    folder = cache_folder() if folder is None else folder
    path = os.path.join(folder, f"{PREFIX}{cache_key()}{SUFFIX}")
    tables = _read(path)
    if tables is not None:
        decompose.install_prefilled(tables)
        return "read"
    payload = marshal.dumps(decompose.prefilled_tables())
    return "built and kept" if _write(path, payload) else "built"


def _read(path: str) -> decompose.PrefilledTables | None:
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return None
    if len(data) < _HEAD.size:
        return None
    size, crc = _HEAD.unpack_from(data)
    payload = memoryview(data)[_HEAD.size:]
    if size != len(payload) or zlib.crc32(payload) != crc:
        return None  # torn or damaged: built again
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


def _write(path: str, payload: bytes) -> bool:
    """Write the file whole or not at all; old files of other keys go."""
    import tempfile  # only here: its import is a tenth of a start that reads the file

    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".writing-")
    except OSError:
        return False
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(_HEAD.pack(len(payload), zlib.crc32(payload)) + payload)
        os.replace(temporary, path)
    except OSError:
        _remove(temporary)
        return False
    for name in os.listdir(folder):
        if name.startswith(PREFIX) and name.endswith(SUFFIX) and name != os.path.basename(path):
            _remove(os.path.join(folder, name))
    return True


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
