"""A command whose reader goes away (`... | head`) stops quietly, through real processes and
real pipes: no traceback, no "Exception ignored", the status a shell shows for SIGPIPE."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from server.cli.pipes import CLOSED_PIPE_STATUS

BIN = Path(sys.executable).parent
REQUEST = b'{"hand": "123456789s234m55p", "win": "9s", "tsumo": true}\n'
# Buffered standard output, as a user's shell gives it (this machine sets PYTHONUNBUFFERED).
BUFFERED = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def _read_one_line_then_leave(command: list[str], stdin_path: Path | None = None) -> tuple[int, str]:
    with open(stdin_path or "/dev/null", "rb") as stdin:
        process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=BUFFERED)
    first = process.stdout.readline()
    assert first, "the command wrote nothing"
    process.stdout.close()  # the reader leaves, as head does after its lines
    stderr = process.stderr.read().decode()
    return process.wait(timeout=60), stderr


def test_riichi_score_jsonl_stops_quietly_when_its_reader_leaves(tmp_path):
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(REQUEST * 20_000)
    status, stderr = _read_one_line_then_leave([str(BIN / "riichi-score"), "--jsonl"], requests)
    assert stderr == ""
    assert status == CLOSED_PIPE_STATUS


def test_output_still_buffered_at_the_end_meets_the_closed_pipe_quietly(tmp_path):
    """The last writes sit in Python's buffer until main returns; the flush then fails."""
    program = ("import sys\nfrom server.cli.pipes import quiet_when_the_reader_leaves\n"
               "@quiet_when_the_reader_leaves\ndef main() -> int:\n"
               "    print('first', flush=True)\n    sys.stdin.read()\n"
               "    print('x' * 100)\n    return 0\nsys.exit(main())\n")
    with subprocess.Popen([sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=BUFFERED) as process:
        assert process.stdout.readline() == b"first\n"
        process.stdout.close()
        process.stdin.close()  # only now does the program write again, into the closed pipe
        stderr = process.stderr.read().decode()
        assert process.wait(timeout=60) == CLOSED_PIPE_STATUS
    assert stderr == ""
