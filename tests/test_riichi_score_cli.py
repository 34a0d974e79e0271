"""The `riichi-score` console script, run for real as a subprocess.

The script is looked up next to the running interpreter (sys.executable's directory), so
the test uses whatever virtual environment runs pytest.

The JSON contract of `--jsonl` (server/cli/score_request.py): one answer line per request
line, in order, never stopping at a bad line; an answer is
{"id", "ok": true, "han", "fu", "yaku": [{"name", "han"}], "dora", "limit",
 "payment": {"ron"} | {"dealer", "non_dealer"} | {"all"}, "total"}
or {"id", "ok": false, "error"}.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SCRIPT = BIN / ("riichi-score.exe" if os.name == "nt" else "riichi-score")

OK_KEYS = {"id", "ok", "han", "fu", "yaku", "dora", "limit", "payment", "total"}
ERROR_KEYS = {"id", "ok", "error"}
PAYMENT_SHAPES = ({"ron"}, {"dealer", "non_dealer"}, {"all"})

EXAMPLE = ["123456789s234m55p", "--win", "9s", "--tsumo", "--riichi", "--seat", "S", "--round", "E",
           "--dora", "6s"]


def _run(*args, stdin: bytes | str | None = None, env=None):
    if not SCRIPT.exists():
        pytest.fail(f"the console script is not installed next to the interpreter: {SCRIPT}")
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run([str(SCRIPT), *args], input=data, capture_output=True, cwd=REPO,
                          timeout=120, env=env)


def _jsonl(lines: list[str] | bytes, env=None):
    data = lines if isinstance(lines, bytes) else "".join(line + "\n" for line in lines)
    result = _run("--jsonl", stdin=data, env=env)
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    return result, answers


def _check_shape(answer):
    """The exact keys of the contract."""
    if answer["ok"] is True:
        assert set(answer) == OK_KEYS, answer
        assert isinstance(answer["han"], int) and isinstance(answer["fu"], int)
        assert isinstance(answer["dora"], int) and isinstance(answer["total"], int)
        assert answer["limit"] is None or isinstance(answer["limit"], str)
        assert answer["yaku"] and all(set(y) == {"name", "han"} for y in answer["yaku"]), answer
        assert set(answer["payment"]) in PAYMENT_SHAPES, answer
    else:
        assert answer["ok"] is False
        assert set(answer) == ERROR_KEYS, answer
        assert isinstance(answer["error"], str) and answer["error"]
        assert "\n" not in answer["error"]


# --- one hand on the command line -------------------------------------------------------


def test_issue_example_prints_the_breakdown():
    """The issue's example: `riichi-score 123456789s234m55p --win 9s --tsumo --riichi --seat
    S --round E --dora 6s` prints each yaku with its han, the fu line, the totals, the limit
    name and who pays what. Riichi 1, menzen tsumo 1, pinfu 1, pure straight 2, dora 1 (6s
    indicates 7s) = 6 han: haneman (guide: "Haneman, 6 or 7 han ... 3,000 from each
    non-dealer and 6,000 from the dealer on a tsumo"); pinfu tsumo is 20 fu."""
    result = _run(*EXAMPLE)
    assert result.returncode == 0, result.stderr.decode()
    out = result.stdout.decode()
    for pattern in (r"riichi\s+1 han", r"tsumo\s+1 han", r"pinfu\s+1 han", r"ittsu\s+2 han",
                    r"\bdora\s+1 han"):
        assert re.search(pattern, out), f"{pattern!r} not in:\n{out}"
    assert re.search(r"pinfu tsumo\s+20", out), out  # the fu line
    assert "6 han 20 fu" in out
    assert "haneman" in out
    assert "6000" in out and "3000" in out  # the dealer pays 6,000, each non-dealer 3,000
    assert re.search(r"dealer pays 6000", out), out
    assert re.search(r"non-dealer 3000", out), out
    assert "12000" in out  # the winner collects 12,000
    assert result.stderr == b""


def test_honba_and_riichi_sticks_on_the_command_line():
    """Guide: "Say a non-dealer wins a 3 han 30 fu hand with two honba and one riichi stick
    on the table. On a ron, the discarder pays 3,900 + 600 = 4,500, and with the stick you
    collect 5,500." Pinfu and pure straight by ron is 3 han 30 fu."""
    result = _run("123456789s234m55p", "--win", "9s", "--seat", "S", "--honba", "2", "--sticks", "1")
    assert result.returncode == 0, result.stderr.decode()
    out = result.stdout.decode()
    assert "3 han 30 fu" in out
    assert re.search(r"discarder pays 4500", out), out
    assert "1000 in riichi sticks" in out


@pytest.mark.parametrize("args, names", [
    (["123456789s234m5p", "--win", "9s"], "13"),             # a tile short
    (["123456789s234m5x5p", "--win", "9s"], "'x'"),          # a stray character
    (["123456789s234m55", "--win", "9s"], "'55'"),           # digits with no suit
    (["123456789s234m55p8z", "--win", "9s"], "'8z'"),        # not a tile
    (["123456789s234m55p", "--win", "8z"], "'8z'"),          # a bad winning tile
    (["123456789s234m56p", "--win", "9s"], "not complete"),  # 14 tiles, not a winning hand
    (["456p789s234s99m", "--win", "9m", "--meld", "chi 123m", "--seat", "S"], "yaku"),  # no yaku
    (["123456789s234m55p", "--win", "9s", "--seat", "X"], "'X'"),
])
def test_a_bad_hand_prints_a_one_line_error_and_exits_non_zero(args, names):
    """A bad hand prints a one-line error (naming the bad part) and exits non-zero (docs/riichi-score.md:
    "A hand that cannot win prints one line saying why and exits 1.")."""
    result = _run(*args)
    assert result.returncode == 1
    assert result.stdout == b""
    err = result.stderr.decode().strip()
    assert err and len(err.splitlines()) == 1, err
    assert names in err
    assert "Traceback" not in err


def test_help_works():
    """`--help` prints the usage and the example and exits 0."""
    result = _run("--help")
    assert result.returncode == 0
    out = result.stdout.decode()
    assert "usage: riichi-score" in out
    assert "--jsonl" in out
    assert "--win" in out
    assert "123456789s234m55p" in out


def test_no_hand_is_a_usage_error():
    """Without a hand and --win the script says what it needs and exits non-zero."""
    result = _run()
    assert result.returncode != 0
    assert b"--win" in result.stderr


# --- --jsonl ---------------------------------------------------------------------------

GOOD = {"hand": "123456789s234m55p", "win": "9s"}


def _req(**fields):
    return json.dumps({**GOOD, **fields})


REQUESTS = [
    (_req(id=1, tsumo=True, riichi=True, seat="S", round="E", dora=["6s"]), True),
    ("this is not json", False),
    ("[1, 2, 3]", False),                                        # not an object
    ('"a string"', False),                                       # not an object
    ("42", False),                                               # not an object
    (_req(id=6, colour="red"), False),                           # unknown field
    (_req(id=7, hand=123456789), False),                         # wrong type
    (_req(id=8, tsumo="yes"), False),                            # wrong type
    (_req(id=9, honba=-1), False),                               # wrong value
    (_req(id=10, melds="chi 123m"), False),                      # wrong type
    (_req(id=11, dora=6), False),                                # wrong type
    (json.dumps({"id": 12, "hand": "123456789s234m5p", "win": "9s"}), False),   # incomplete hand
    (json.dumps({"id": 13, "hand": "123456789s234m56p", "win": "9s"}), False),  # not a winning hand
    (json.dumps({"id": 14, "hand": "456p789s234s99m", "win": "9m", "melds": ["chi 123m"],
                 "seat": "S"}), False),                          # no yaku
    (json.dumps({"id": 15, "win": "9s"}), False),                # no hand
    (_req(id=16, rules="mcr"), False),                           # unknown preset
    (_req(id=17, seat="X"), False),                              # not a wind
    (_req(id=18, seat="E"), True),                               # dealer ron
    (_req(id=19, seat="E", tsumo=True), True),                   # dealer tsumo
    (_req(id="last", seat="S"), True),
]


def test_jsonl_answers_one_line_per_request_in_order_never_stopping_at_a_bad_line():
    """`--jsonl`: "One answer line per input line, in order, never stopping at a bad line"
    (not JSON, not an object, unknown field, wrong types, incomplete hand, no yaku)."""
    result, answers = _jsonl([line for line, _ in REQUESTS])
    assert result.returncode == 0, result.stderr.decode()
    assert len(answers) == len(REQUESTS)
    for (line, ok), answer in zip(REQUESTS, answers):
        assert answer["ok"] is ok, (line, answer)
        _check_shape(answer)
        try:
            sent = json.loads(line)
        except json.JSONDecodeError:
            sent = None
        expected_id = sent.get("id") if isinstance(sent, dict) else None
        assert answer["id"] == expected_id, (line, answer)


def test_jsonl_answer_values_for_the_issue_example():
    """The JSON answer for the issue's example: 6 han 20 fu haneman, riichi 1, menzen tsumo
    1, pinfu 1, pure straight 2, one dora; the dealer pays 6,000 and each non-dealer 3,000."""
    _, answers = _jsonl([REQUESTS[0][0]])
    answer = answers[0]
    assert answer == {
        "id": 1, "ok": True, "han": 6, "fu": 20,
        "yaku": [{"name": "riichi", "han": 1}, {"name": "menzen_tsumo", "han": 1},
                 {"name": "pinfu", "han": 1}, {"name": "ittsu", "han": 2}],
        "dora": 1, "limit": "haneman", "payment": {"dealer": 6000, "non_dealer": 3000}, "total": 12000,
    }


def test_jsonl_payment_shapes():
    """Guide: "Non-dealer ron: the discarder pays base x 4. Dealer ron: ... base x 6.
    Non-dealer tsumo: the dealer pays base x 2, and each of the other two non-dealers pays
    base x 1. Dealer tsumo: each of the other three pays base x 2." - as {"ron"},
    {"dealer", "non_dealer"} and {"all"}. Pinfu + straight, 3 han 30 fu by ron; riichi-less
    tsumo adds menzen tsumo (4 han 20 fu)."""
    _, answers = _jsonl([_req(id="a", seat="S"), _req(id="b", seat="E"),
                         _req(id="c", seat="S", tsumo=True), _req(id="d", seat="E", tsumo=True)])
    assert [a["payment"] for a in answers] == [
        {"ron": 3900}, {"ron": 5800}, {"dealer": 2600, "non_dealer": 1300}, {"all": 2600}]
    assert [a["total"] for a in answers] == [3900, 5800, 5200, 7800]


def test_jsonl_skips_blank_lines_and_keeps_going():
    """Blank lines are not requests; the requests around them are all answered, in order."""
    data = "\n".join([_req(id=1), "", "   ", _req(id=2), "oops", _req(id=3)]) + "\n"
    result = _run("--jsonl", stdin=data)
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [a["id"] for a in answers] == [1, 2, None, 3]
    assert [a["ok"] for a in answers] == [True, True, False, True]


def test_jsonl_a_deeply_nested_line_is_a_bad_line():
    """"never stopping at a bad line": a line of JSON nested deeper than the interpreter's
    recursion limit (here 2,000 arrays, a 4,000-byte line) is not a request object; it gets
    an error answer and the next line is answered."""
    deep = "[" * 2_000 + "]" * 2_000
    result, answers = _jsonl([_req(id=1), deep, _req(id=3)])
    assert "Traceback" not in result.stderr.decode(), result.stderr.decode()[-400:]
    assert [a["id"] for a in answers] == [1, None, 3]
    assert [a["ok"] for a in answers] == [True, False, True]
    for answer in answers:
        _check_shape(answer)


@pytest.mark.parametrize("env", [None, {"PYTHONIOENCODING": "utf-8"}], ids=["default-env", "strict-utf8-stdin"])
def test_jsonl_a_line_that_is_not_utf8_is_a_bad_line(env):
    """"never stopping at a bad line": a line of bytes that are not UTF-8 is not JSON; it
    gets an error answer and the next line is answered. With PYTHONIOENCODING=utf-8 stdin
    decodes strictly, as it does under an ordinary UTF-8 locale such as en_US.UTF-8."""
    if env is not None:
        env = {**os.environ, **env}
    data = (_req(id=1) + "\n").encode() + b"\xff\xfe{\"id\": 2}\n" + (_req(id=3) + "\n").encode()
    result, answers = _jsonl(data, env=env)
    assert "Traceback" not in result.stderr.decode(), result.stderr.decode()[-400:]
    assert [a["id"] for a in answers] == [1, None, 3]
    assert [a["ok"] for a in answers] == [True, False, True]


# --- yakuman on the command line -------------------------------------------------------


def test_a_yakuman_prints_the_yakuman_and_the_limit_with_no_fu():
    """Guide, 'Limit hands': a yakuman is 8,000 base points, whatever its fu; thirteen
    orphans has no fu at all, and printed an empty "Fu:" and "13 han 0 fu"."""
    result = _run("19m19p19s12345677z", "--win", "1m", "--tsumo", "--dora", "1m")
    assert result.returncode == 0, result.stderr.decode()
    lines = result.stdout.decode().splitlines()
    assert lines[:3] == ["Yaku:", "  kokushi          yakuman", "Total: yakuman (base points 8000)"]
    assert lines[3] == "Tsumo: 16000 all (each of the three pays 16000)"
    assert not any(line.startswith("Fu:") or " fu" in line or "dora" in line for line in lines), lines


def test_two_yakuman_print_both_and_the_double_limit():
    """Under the tenhou preset yakuman are added: four concealed pungs and big three dragons."""
    result = _run("555666777z11122m", "--win", "2m", "--tsumo", "--rules", "tenhou")
    lines = result.stdout.decode().splitlines()
    assert lines[:4] == ["Yaku:", "  suuankou         yakuman", "  daisangen        yakuman",
                         "Total: 2 yakuman (base points 16000)"]
    assert "Fu:" not in lines


def test_a_counted_yakuman_still_shows_its_han_and_fu():
    """Thirteen han of yaku and dora (kazoe) reach the yakuman limit but are not a yakuman:
    the han that make it are the breakdown."""
    result = _run("123456789s234m55p", "--win", "9s", "--riichi", "--dora", "1s" * 10, "--rules", "tenhou")
    out = result.stdout.decode()
    assert "Fu:" in out and re.search(r"\bdora\s+10 han", out) and "14 han 30 fu, yakuman" in out, out


# --- the answers of the first implementation, byte for byte ------------------------------

FIXTURE = REPO / "tests" / "data" / "riichi_score_jsonl"


def _fixture(name: str) -> bytes:
    return gzip.decompress((FIXTURE / f"{name}.jsonl.gz").read_bytes())


def test_jsonl_answers_are_byte_for_byte_the_first_implementations_from_a_pipe():
    """3,000 lines, good and bad (tests/data/riichi_score_jsonl/README.md), written into a pipe."""
    result = _run("--jsonl", stdin=_fixture("requests"))
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout == _fixture("answers")


@pytest.mark.parametrize("workers", ["1", "3"])
def test_jsonl_answers_are_byte_for_byte_the_first_implementations_from_a_file(tmp_path, workers):
    """The same lines read from a file (`riichi-score --jsonl < requests.jsonl > answers.jsonl`),
    in large reads, so that three workers share them."""
    requests, answers = tmp_path / "requests.jsonl", tmp_path / "answers.jsonl"
    requests.write_bytes(_fixture("requests"))
    with open(requests, "rb") as stdin, open(answers, "wb") as stdout:
        result = subprocess.run([str(SCRIPT), "--jsonl", "--workers", workers], stdin=stdin, stdout=stdout,
                                stderr=subprocess.PIPE,
                                timeout=120)
    assert result.returncode == 0 and result.stderr == b""
    assert answers.read_bytes() == _fixture("answers")
