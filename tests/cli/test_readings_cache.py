"""The readings table kept in a file (server/cli/readings_cache.py): what is read back is
what prefill() builds; a torn or altered file, or one made from other rules source, is
never taken; a folder that cannot be written still gives the table.  Each reading runs in
a fresh process, as riichi-score does, since the table is the process's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli import readings_cache

REPO = Path(__file__).resolve().parents[2]
PROGRAM = """
import marshal, sys
from pathlib import Path
from server.cli.readings_cache import prefill_readings
from server.rules import decompose
if sys.argv[1] == "plain":
    decompose.prefill()
    print("plain")
else:
    print(prefill_readings(Path(sys.argv[1])))
Path(sys.argv[2]).write_bytes(marshal.dumps(decompose.prefilled_tables()))
"""


def _fill(folder: Path | str, tables: Path) -> str:
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(folder), str(tables)], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("readings-*.marshal"))


def test_the_table_read_back_from_the_file_is_the_table_prefill_builds(tmp_path):
    assert _fill("plain", tmp_path / "plain") == "plain"
    assert _fill(tmp_path / "cache", tmp_path / "first") == "built and kept"
    assert len(_cache_files(tmp_path / "cache")) == 1
    assert _fill(tmp_path / "cache", tmp_path / "second") == "read"
    plain = (tmp_path / "plain").read_bytes()
    assert (tmp_path / "first").read_bytes() == plain and (tmp_path / "second").read_bytes() == plain


@pytest.mark.parametrize("damage", ["torn", "altered", "empty"])
def test_a_torn_or_altered_file_is_not_taken_but_built_again(tmp_path, damage):
    folder = tmp_path / "cache"
    _fill(folder, tmp_path / "tables")
    [path] = _cache_files(folder)
    data = path.read_bytes()
    if damage == "torn":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "altered":
        path.write_bytes(data[:1000] + bytes([data[1000] ^ 1]) + data[1001:])
    else:
        path.write_bytes(b"")
    assert _fill(folder, tmp_path / "again") == "built and kept"
    assert (tmp_path / "again").read_bytes() == (tmp_path / "tables").read_bytes()
    assert path.read_bytes() == data  # written whole again
    assert _fill(folder, tmp_path / "third") == "read"


def test_a_change_to_any_rules_module_names_another_file(tmp_path, monkeypatch):
    key = readings_cache.cache_key()
    rules = tmp_path / "rules"
    shutil.copytree(readings_cache.RULES, rules, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(readings_cache, "RULES", rules)
    assert readings_cache.cache_key() == key  # the same source, the same name
    fu = rules / "fu.py"
    fu.write_text(fu.read_text() + "\n# one more line\n")
    assert readings_cache.cache_key() != key


def test_writing_a_new_file_removes_the_files_of_other_keys(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    stale = folder / "readings-0123456789abcdef0123456789abcdef.marshal"
    stale.write_bytes(b"made from older rules")
    _fill(folder, tmp_path / "tables")
    assert [p.name for p in _cache_files(folder)] == [f"readings-{readings_cache.cache_key()}.marshal"]
    assert not [p for p in folder.iterdir() if p.name.startswith(".writing-")]


def test_a_folder_that_cannot_be_written_still_gives_the_table(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert _fill(blocker / "cache", tmp_path / "tables") == "built"
    _fill("plain", tmp_path / "plain")
    assert (tmp_path / "tables").read_bytes() == (tmp_path / "plain").read_bytes()


def test_the_cache_folder_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert Path(readings_cache.cache_folder()) == tmp_path / "riichi-server"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert Path(readings_cache.cache_folder()) == Path(os.path.expanduser("~")) / ".cache" / "riichi-server"


def test_riichi_score_jsonl_keeps_the_table_in_the_cache_folder(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run([str(Path(sys.executable).parent / "riichi-score"), "--jsonl"], input=b"", env=env,
                          capture_output=True, timeout=120)
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
    assert [p.name for p in _cache_files(tmp_path / "riichi-server")] == [
        f"readings-{readings_cache.cache_key()}.marshal"]
