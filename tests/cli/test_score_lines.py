"""The bulk path of riichi-score --jsonl (server/cli/score_lines.py) against the contract's
plain path, and its reading of the input: what it answers, and when.

The contract (docs/riichi-score.md, "Scoring many hands") is public and stable: every line
gets the bytes the plain path (score_request.answer, then json.dumps) gives it, and "each
answer is written and flushed as soon as its line is read, so a program can ask one hand
at a time over a pipe"."""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from server.cli.score_lines import CONTEXT_FIELDS, answer_line, lines_as_they_come, plain_answer
from server.rules.context import WinContext
from tests.cli.jsonl_requests import request_lines

SCRIPT = Path(sys.executable).parent / "riichi-score"


@pytest.mark.parametrize("seed", [15, 16])
def test_the_bulk_path_gives_every_line_the_bytes_of_the_plain_path(seed):
    """4,000 lines a seed, about a third broken (tests/cli/jsonl_requests.py)."""
    for raw in request_lines(seed, 4000):
        if raw.strip():
            assert answer_line(raw) == (json.dumps(plain_answer(raw)) + "\n").encode(), raw


def test_the_bulk_path_gives_shuffled_and_retyped_fields_the_bytes_of_the_plain_path():
    """Fields in any order, and values of a neighbouring type (1 for true, 1.0 for 1, a
    tuple-like list of lists for a list of tiles) that a memo must not take for another."""
    rng = random.Random(3)
    odd = [1, 0, 1.0, 2.0, "1", [], [[]], ["1m", ["2m"]], {}, None, "", "E ", " E", "1m ", ["1m "], ["1M"]]
    for raw in request_lines(17, 2000):
        try:
            request = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if not isinstance(request, dict):
            continue
        fields = list(request.items())
        rng.shuffle(fields)
        request = dict(fields)
        if rng.random() < 0.5:
            request[rng.choice(list(request) or ["hand"])] = rng.choice(odd)
        line = json.dumps(request).encode() + b"\n"
        assert answer_line(line) == (json.dumps(plain_answer(line)) + "\n").encode(), line


def test_win_context_is_built_in_the_order_of_its_fields():
    """_plain_answer passes WinContext's fields by position: a field moved there would move
    every value after it."""
    assert CONTEXT_FIELDS == WinContext._fields


def test_lines_come_in_batches_of_what_each_read_brought_and_a_split_line_waits_for_its_end():
    read_end, write_end = os.pipe()
    with open(read_end, "rb", buffering=0) as reader:
        batches = lines_as_they_come(reader)
        os.write(write_end, b'{"a": 1}\n{"b": ')
        assert next(batches) == [b'{"a": 1}\n']
        os.write(write_end, b'2}\n{"c": 3}\n\n{"d"')
        assert next(batches) == [b'{"b": 2}\n', b'{"c": 3}\n', b"\n"]
        os.write(write_end, b": 4}")
        os.close(write_end)
        assert next(batches) == [b'{"d": 4}']  # the last line, with no newline
        assert next(batches, None) is None


def _read_line(pipe, timeout: float) -> bytes:
    ready, _, _ = select.select([pipe], [], [], timeout)
    assert ready, f"no answer within {timeout} s"
    return pipe.readline()


def test_a_program_that_writes_one_line_and_waits_gets_its_answer_before_it_writes_the_next():
    with subprocess.Popen([str(SCRIPT), "--jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as process:
        for ident in range(3):
            process.stdin.write(json.dumps({"id": ident, "hand": "123456789s234m55p", "win": "9s"}).encode() + b"\n")
            process.stdin.flush()
            answer = json.loads(_read_line(process.stdout, timeout=60))
            assert answer["id"] == ident and answer["ok"] is True
        process.stdin.write(b"not json\n")
        process.stdin.flush()
        assert json.loads(_read_line(process.stdout, timeout=60))["ok"] is False
        process.stdin.close()
        assert process.wait(timeout=60) == 0
        assert process.stderr.read() == b""


def test_a_line_written_in_pieces_is_answered_once_whole():
    with subprocess.Popen([str(SCRIPT), "--jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as process:
        line = json.dumps({"id": 9, "hand": "123456789s234m55p", "win": "9s"}).encode() + b"\n"
        process.stdin.write(line[:20])
        process.stdin.flush()
        assert not select.select([process.stdout], [], [], 1.0)[0]  # half a line: nothing yet
        process.stdin.write(line[20:])
        process.stdin.flush()
        assert json.loads(_read_line(process.stdout, timeout=60))["id"] == 9
        process.stdin.close()
        process.wait(timeout=60)


def test_a_large_input_from_a_writer_thread_gets_every_answer_in_order():
    """A busy pipe: the writer never waits for answers (batches of many lines a read)."""
    lines = [json.dumps({"id": i, "hand": "123456789s234m55p", "win": "9s"}).encode() + b"\n" for i in range(5000)]
    with subprocess.Popen([str(SCRIPT), "--jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as process:
        writer = threading.Thread(target=lambda: (process.stdin.write(b"".join(lines)), process.stdin.close()))
        writer.start()
        answers = [json.loads(line) for line in process.stdout]
        writer.join()
        assert process.wait(timeout=60) == 0
    assert [a["id"] for a in answers] == list(range(5000)) and all(a["ok"] for a in answers)


def test_a_line_of_many_megabytes_in_many_reads_is_one_line_and_one_answer(tmp_path):
    """Its pieces are joined once, not once a read (which grew as the square of its length)."""
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(b'{"id": 1, "note": "' + b"x" * 20_000_000 + b'"}\n{"id": 2}')
    with open(requests, "rb") as stdin:
        done = subprocess.run([str(SCRIPT), "--jsonl"], stdin=stdin, capture_output=True, timeout=120)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and [a["id"] for a in answers] == [1, 2]
    assert answers[0]["error"] == "unknown field(s): note" and answers[1]["ok"] is False
