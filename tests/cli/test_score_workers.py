"""riichi-score --jsonl on several cores (server/cli/score_workers.py): a large batch is
shared with forked helpers, the answers come back in input order and are the same bytes,
a helper lost costs only speed, and a program asking one line at a time never forks one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from server.cli.score_lines import answer_line
from server.cli.score_workers import SHARE_AT_LEAST, Shares
from tests.cli.jsonl_requests import request_lines

SCRIPT = Path(sys.executable).parent / "riichi-score"


def _children() -> set[int]:
    """This process's child processes, from /proc."""
    found: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        text = Path(f"/proc/self/task/{task}/children").read_text()
        found.update(int(pid) for pid in text.split())
    return found


def _here(lines: list[bytes]) -> bytes:
    return b"".join(answer_line(raw) for raw in lines if raw.strip())


def test_a_large_batch_shared_by_three_processes_gets_every_answer_in_input_order():
    lines = request_lines(21, 3000)
    before = _children()
    shares = Shares(answer_line, helpers=2)
    try:
        assert b"".join(shares.answers(lines)) == _here(lines)
        assert len(_children() - before) == 2  # the work was shared, not all done here
        assert b"".join(shares.answers(lines[:1500])) == _here(lines[:1500])
    finally:
        shares.close()
    assert _children() == before  # close waits for its helpers


def test_a_batch_too_small_to_share_is_answered_here_and_forks_nothing():
    lines = request_lines(22, SHARE_AT_LEAST * 2 - 1)
    before = _children()
    shares = Shares(answer_line, helpers=3)
    try:
        for line in lines[:50]:  # a program asking one hand at a time
            assert shares.answers([line]) == [_here([line])]
        assert b"".join(shares.answers(lines)) == _here(lines)
        assert _children() == before
    finally:
        shares.close()


def test_a_helper_that_dies_costs_only_speed_its_share_is_answered_here():
    parent = os.getpid()

    def answer_or_die(raw: bytes) -> bytes:
        if raw == b"die\n" and os.getpid() != parent:
            os._exit(3)  # a helper killed in the middle of its share
        return raw.upper()

    lines = [b"line %d\n" % n for n in range(1000)]
    lines[900] = b"die\n"  # in the second half: the helper's share
    shares = Shares(answer_or_die, helpers=1)
    try:
        assert b"".join(shares.answers(lines)) == b"".join(raw.upper() for raw in lines)
        assert b"".join(shares.answers(lines)) == b"".join(raw.upper() for raw in lines)  # no helper left
    finally:
        shares.close()


def test_a_last_line_without_its_newline_reaches_a_helper_as_it_was_read():
    lines = [b"%d\n" % n for n in range(999)] + [b"last"]
    shares = Shares(lambda raw: b"<" + raw + b">", helpers=1)
    try:
        assert b"".join(shares.answers(lines)) == b"".join(b"<" + raw + b">" for raw in lines)
    finally:
        shares.close()


def test_workers_must_be_a_number_of_one_or_more_and_go_with_jsonl():
    for args, says in ((["--jsonl", "--workers", "0"], "is not a number of processes"),
                       (["--jsonl", "--workers", "two"], "is not a number of processes"),
                       (["1m", "--win", "1m", "--workers", "2"], "--workers goes with --jsonl")):
        result = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and says in result.stderr, result.stderr
