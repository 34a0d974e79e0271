"""riichi-score --jsonl input lines, good and bad, from seeded random winning hands: for the
test that holds the answers byte for byte to the ones of the first implementation, and for
scripts/bench_score_jsonl.py.

`request_for(hand)` is the request a caller would write for a hand; `request_lines(seed, n)`
gives n raw lines (bytes, each ending in a newline but possibly the last), about a third of
them broken in one of the ways a caller breaks them: not JSON, not UTF-8, not an object, a
field of the wrong type or value, an unknown field, a hand that is no hand, flags that
contradict, odd ids (strings with non-ASCII, floats, lists), blank lines, CRLF endings.
"""

from __future__ import annotations

import json
import random
from typing import Any

from server.cli.score_request import FLAGS
from tests.rules.random_hands import RandomHand, random_hand
from server.rules.tiles import format_tiles

WINDS = "ESWN"


def request_for(hand: RandomHand, ident: Any = None, every_field: bool = False) -> dict[str, Any]:
    """The riichi-score request for a hand; flags that are false and counts that are 0 are
    left out, as a caller would (all written out with every_field)."""
    c = hand.ctx
    request: dict[str, Any] = {} if ident is None else {"id": ident}
    request.update(hand=format_tiles(hand.tiles), win=format_tiles([hand.win_tile]))
    if hand.melds or every_field:
        request["melds"] = [str(m) for m in hand.melds]
    request.update({flag: getattr(c, flag) for flag in FLAGS if every_field or getattr(c, flag)})
    request.update(seat=WINDS[c.seat_wind], round=WINDS[c.round_wind],
                   dora=[format_tiles([k]) for k in c.dora_indicators])
    if c.ura_indicators or every_field:
        request["ura"] = [format_tiles([k]) for k in c.ura_indicators]
    for count in ("honba", "sticks"):
        if getattr(c, count) or every_field:
            request[count] = getattr(c, count)
    if every_field:
        request["rules"] = "ema2016"
    return request


def _good(rng: random.Random, ident: Any) -> dict[str, Any]:
    request = request_for(random_hand(rng), ident, every_field=rng.random() < 0.2)
    roll = rng.random()
    if roll < 0.1:
        request["rules"] = "tenhou"
        if "5" in request["hand"] and rng.random() < 0.5:  # a red five, which only tenhou allows
            request["hand"] = request["hand"].replace("5", "0", 1)
    elif roll < 0.15:
        request["dora"] = "".join(request["dora"])  # indicators as one string
    elif roll < 0.2:
        request["hand"] = " " + request["hand"] + " "
    return request


_BAD_FIELDS: list[tuple[str, Any]] = [
    ("hand", 123), ("hand", ""), ("hand", "123m"), ("hand", "123m456p789s1122z3"), ("hand", "11111m23456p789s"),
    ("hand", "123x456p"), ("hand", "0m23456789m111p22z"), ("hand", "123m 456p 789s 11z 22z"), ("hand", None),
    ("win", "8z"), ("win", "1m2m"), ("win", 5), ("win", "9p"), ("win", ""),
    ("melds", "pon 555z"), ("melds", [5]), ("melds", ["pon 556z"]), ("melds", ["chi 135m"]), ("melds", ["ron 111m"]),
    ("melds", ["pon"]), ("melds", ["kan 111m"]), ("melds", None),
    ("tsumo", "yes"), ("riichi", 1), ("ippatsu", True), ("rinshan", True), ("chankan", True), ("haitei", True),
    ("houtei", True), ("tenhou", True), ("chiihou", True), ("renhou", True), ("double_riichi", True),
    ("tsumo", None), ("riichi", True),
    ("seat", "X"), ("seat", 1), ("seat", "east"), ("seat", "e"), ("round", "Q"), ("round", ""),
    ("dora", [3]), ("dora", ["8z"]), ("dora", {"a": 1}), ("dora", "3m4"), ("ura", ["1m", "2m"]), ("ura", 7),
    ("honba", -1), ("honba", 1.5), ("honba", True), ("honba", "2"), ("sticks", -3), ("sticks", 10 ** 20),
    ("rules", "mleague"), ("rules", 2016), ("rules", None),
    ("yaku", []), ("Hand", "123m"), ("", 1),
]

_ODD_IDS: list[Any] = ["a string", "東風戦 #3", "\u2028", 1.5, -0.0, 10 ** 30, [1, 2], {"k": [None]}, True, None,
                       "quote \" and backslash \\"]


def _broken_line(rng: random.Random, good: dict[str, Any]) -> bytes:
    text = json.dumps(good, ensure_ascii=rng.random() < 0.5)
    kind = rng.randrange(12)
    if kind == 0:
        return text[: rng.randrange(1, len(text))].encode()  # cut short
    if kind == 1:
        return (text + rng.choice(["}", " x", ",", "{}"])).encode()
    if kind == 2:
        return text.replace('"', "'").encode()
    if kind == 3:
        return b"\xff\xfe" + text.encode() if rng.random() < 0.5 else text.encode()[:-2] + b"\xc3\x28}"
    if kind == 4:
        return rng.choice([b"[" * 1200 + b"]" * 1200, b'{"a": ' * 1100 + b"1" + b"}" * 1100])
    if kind == 5:
        return rng.choice([b"42", b"[]", b'"hand"', b"null", b"true", b"[{}]", b"1e400", b"NaN", b"-Infinity"])
    if kind == 6:
        return b"\xef\xbb\xbf" + text.encode()  # a UTF-8 byte-order mark
    if kind == 7:
        del good[rng.choice([k for k in ("hand", "win") if k in good])]
        return json.dumps(good).encode()
    if kind == 8:
        good["id"] = rng.choice(_ODD_IDS)
        return json.dumps(good, ensure_ascii=rng.random() < 0.5).encode()
    if kind == 9:
        return (text[:-1] + ', "hand": "19m19p19s12345677z"}').encode()  # a field given twice: the last counts
    for _ in range(1 + (kind == 11)):  # one or two bad fields
        field, value = rng.choice(_BAD_FIELDS)
        good[field] = value
    return json.dumps(good, ensure_ascii=rng.random() < 0.5).encode()


def request_lines(seed: int, n: int) -> list[bytes]:
    """n raw input lines, the same for the same seed."""
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        ident: Any = i if rng.random() < 0.9 else rng.choice(_ODD_IDS)
        good = _good(rng, ident)
        roll = rng.random()
        if roll < 0.3:
            line = _broken_line(rng, good)
        elif roll < 0.32:
            line = rng.choice([b"", b"   ", b"\t", b"\x0c", b"\r"])  # blank: no answer
        else:
            line = json.dumps(good, ensure_ascii=rng.random() < 0.5).encode()
        if rng.random() < 0.03:
            line += b"\r"  # a CRLF line end
        lines.append(line + b"\n")
    if lines and rng.random() < 0.5:
        lines[-1] = lines[-1][:-1]  # a last line with no newline
    return lines
