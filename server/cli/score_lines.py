"""The bulk path of `riichi-score --jsonl`: raw input lines in, answer lines out, with the very
bytes of the contract's plain path (score_request.answer, then json.dumps) but a few times
faster.

The plain path spends most of a hand's time outside scoring: checking each of the eleven
flags by name, reading each tile, meld and wind afresh, and encoding the answer as a
general dict.  Here a request that is plainly valid (known fields only, values of the
right types, texts seen before or read by the same functions) is read with memos and its
answer written from a template; anything else, including every request that fails before
scoring, is answered by the plain path itself, so its error is the plain path's word for
word.  Scoring is the same call with the same values, and a scoring error is the same
exception, written as the plain path writes it.
"""

from __future__ import annotations

import json
import json.scanner
import os
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from server.cli.score_request import FIELDS, FLAGS, answer
from server.cli.score_workers import Shares
from server.rules.config import PRESETS, Rules
from server.rules.context import WinContext
from server.rules.melds import Meld, parse_meld
from server.rules.scoring import HandScore, ScoringError, score_hand
from server.rules.tiles import TileError, kind_of, parse_tile, parse_tiles, wind_index

# WinContext's fields in order, as _plain_answer passes them (tests check they still are)
CONTEXT_FIELDS = (*FLAGS, "seat_wind", "round_wind", "dora_indicators", "ura_indicators", "honba", "sticks")
_FIELDS = frozenset(FIELDS)
_FLAGS = frozenset(FLAGS)
_SCORING_ERRORS = (ScoringError, TileError, ValueError)  # what answer() turns into an error answer
MEMO_LIMIT = 20_000  # texts kept per memo: enough for every tile, meld and wind there is, bounded
READ_SIZE = 1 << 18  # what one read may bring: a few thousand lines from a file


class _NotPlain(Exception):
    """The request is not plainly valid: the plain path answers it."""


def _memo(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """`read(text)` remembered by text; a text `read` refuses is not plain (and not kept)."""
    seen: dict[str, Any] = {}

    def memoised(text: str) -> Any:
        value = seen.get(text)
        if value is None:
            try:
                value = read(text)
            except (TileError, ValueError):
                raise _NotPlain from None
            if len(seen) < MEMO_LIMIT:
                seen[text] = value
        return value

    return memoised


_tile = _memo(parse_tile)
_indicator = _memo(lambda text: kind_of(parse_tile(text)))
_indicators_text = _memo(lambda text: tuple(kind_of(t) for t in parse_tiles(text)))
_meld: Callable[[str], Meld] = _memo(parse_meld)
_wind = _memo(wind_index)


class _NotARequest(Exception):
    """The line is no JSON request; args[0] is its error answer."""


def _read(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _NotARequest({"id": None, "ok": False, "error": "not UTF-8 text: a request is one JSON object a line"})
    except json.JSONDecodeError as error:
        raise _NotARequest({"id": None, "ok": False, "error": f"not JSON: {error}"}) from None
    except RecursionError:
        raise _NotARequest({"id": None, "ok": False, "error": "not a request: JSON nested too deeply"}) from None


class _NotScanned(Exception):
    """The line is not one JSON value and its line end: json.loads reads it (or says why not)."""


_scan = json.scanner.make_scanner(json.JSONDecoder())  # what json.loads reads a line with
_LINE_ENDS = ("\n", "", "\r\n")


def _scan_request(raw: bytes) -> Any:
    """json.loads(raw.decode()) for the usual line, without its checks and wrappers (a
    second of the time): one value from the first character, then only the line's end."""
    try:
        text = raw.decode()
        value, end = _scan(text, 0)
    except (UnicodeDecodeError, StopIteration, ValueError, RecursionError):
        raise _NotScanned from None
    if text[end:] not in _LINE_ENDS:
        raise _NotScanned
    return value


def plain_answer(raw: bytes) -> dict[str, Any]:
    """The contract's plain path: the answer to one raw input line, as a dict for json.dumps
    (a line that is not a JSON object gets an error answer).  answer_line must give its bytes."""
    try:
        return answer(_read(raw))
    except _NotARequest as problem:
        return problem.args[0]


def answer_line(raw: bytes) -> bytes:
    """The answer to one raw, non-blank input line (its newline included, as read), as
    bytes ending in a newline: json.dumps(plain_answer(raw)) + newline, faster."""
    try:
        request = _scan_request(raw)
    except _NotScanned:
        try:
            request = _read(raw)
        except _NotARequest as problem:
            return (json.dumps(problem.args[0]) + "\n").encode()
    if type(request) is dict:
        try:
            return _plain_answer(request)
        except _NotPlain:
            pass
    return (json.dumps(answer(request)) + "\n").encode()


def _plain_answer(request: dict[str, Any]) -> bytes:
    """The answer to a plainly valid request (fields read as score_request reads them, in
    memos); _NotPlain for any other."""
    flags = _flags_of(tuple(request))
    values = _NO_FLAGS
    if flags:  # one request in three: the others name no flag
        values = list(_NO_FLAGS)
        for flag in flags:
            value = values[_FLAG_AT[flag]] = request[flag]
            if type(value) is not bool:
                raise _NotPlain
    get = request.get
    ident = get("id")
    rules = _rules(get("rules", "ema2016"))
    hand, win, seat, round_wind = get("hand"), get("win"), get("seat", "E"), get("round", "E")
    if type(hand) is not str or type(win) is not str or type(seat) is not str or type(round_wind) is not str:
        raise _NotPlain
    try:
        tiles = parse_tiles(hand)
    except TileError:
        raise _NotPlain from None
    melds = _list(get("melds", _NONE))
    melds = _melds(tuple(melds)) if melds else ()
    # positional, in WinContext's field order: a third of the time of keywords
    context = WinContext(*values, _wind(seat), _wind(round_wind), _indicators(get("dora", _NONE)),
                         _indicators(get("ura", _NONE)), _count(get("honba", 0)), _count(get("sticks", 0)))
    try:
        score = score_hand(tiles, _tile(win), melds, context, rules)
    except _SCORING_ERRORS as error:
        return _error_line(ident, str(error))
    return _score_line(ident, score)


_NONE: list[str] = []
_NO_FLAGS = (False,) * len(FLAGS)
_FLAG_AT = {flag: at for at, flag in enumerate(FLAGS)}


def _bounded_memo(read: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """As _memo, for keys that are tuples: a key that cannot be hashed is not plain."""
    seen: dict[Any, Any] = {}

    def memoised(key: Any) -> Any:
        try:
            value = seen.get(key)
        except TypeError:  # a list or a dict among the values
            raise _NotPlain from None
        if value is None:
            value = read(key)
            if len(seen) < MEMO_LIMIT:
                seen[key] = value
        return value

    return memoised


@_bounded_memo
def _flags_of(fields: tuple[str, ...]) -> tuple[str, ...]:
    """The flags among a request's fields (memoised by the fields, in their order)."""
    if not _FIELDS.issuperset(fields):
        raise _NotPlain
    return tuple(field for field in fields if field in _FLAGS)


@_bounded_memo
def _melds(texts: tuple[Any, ...]) -> tuple[Meld, ...]:
    return tuple(_meld(m) if type(m) is str else _not_plain() for m in texts)


@_bounded_memo
def _indicator_list(texts: tuple[Any, ...]) -> tuple[int, ...]:
    return tuple(_indicator(v) if type(v) is str else _not_plain() for v in texts)


def _rules(name: Any) -> Rules:
    if type(name) is not str or name not in PRESETS:
        raise _NotPlain
    return PRESETS[name]


def _list(value: Any) -> list[Any]:
    if type(value) is not list:
        raise _NotPlain
    return value


def _not_plain() -> Any:
    raise _NotPlain


def _indicators(value: Any) -> tuple[int, ...]:
    if type(value) is str:
        return _indicators_text(value)
    return _indicator_list(tuple(_list(value)))


def _count(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise _NotPlain
    return value


# ---- answers, as json.dumps writes them --------------------------------------------------

def _id_json(ident: Any) -> str:
    if ident is None:
        return "null"
    if type(ident) is int:
        return str(ident)
    return json.dumps(ident)


def _error_line(ident: Any, message: str) -> bytes:
    return f'{{"id": {_id_json(ident)}, "ok": false, "error": {json.dumps(message)}}}\n'.encode()


_yaku_json: dict[tuple[tuple[str, int], ...], str] = {}  # by a hand's whole list: few lists recur
_LIMIT_JSON = {None: "null"}


def _score_line(ident: Any, score: HandScore) -> bytes:
    yaku = _yaku_json.get(score.yaku)
    if yaku is None:
        yaku = json.dumps([{"name": name, "han": han} for name, han in score.yaku])
        if len(_yaku_json) < MEMO_LIMIT:
            _yaku_json[score.yaku] = yaku
    limit = _LIMIT_JSON.get(score.limit)
    if limit is None:
        limit = _LIMIT_JSON[score.limit] = json.dumps(score.limit)
    p = score.payment
    if p.ron:
        payment = f'{{"ron": {p.ron}}}'
    elif p.all:
        payment = f'{{"all": {p.all}}}'
    else:
        payment = f'{{"dealer": {p.dealer}, "non_dealer": {p.non_dealer}}}'
    return (f'{{"id": {_id_json(ident)}, "ok": true, "han": {score.han}, "fu": {score.fu}, '
            f'"yaku": {yaku}, "dora": {score.dora}, "limit": {limit}, '
            f'"payment": {payment}, "total": {p.total}}}\n').encode()


# ---- the stream ------------------------------------------------------------------------------

def lines_as_they_come(stdin: BinaryIO) -> Iterator[list[bytes]]:
    """The input's lines (each with its newline, the last perhaps without), in batches: each
    batch is every complete line that one read brought, so a caller that answers a batch
    and then flushes answers a program that writes one line and waits at once, and a file
    or a busy pipe in large writes."""
    fd = stdin.fileno()
    pending: list[bytes] = []  # a line not ended yet, in the pieces it came in (joined once)
    while True:
        chunk = os.read(fd, READ_SIZE)
        if not chunk:
            break
        end = chunk.rfind(b"\n")
        if end < 0:
            pending.append(chunk)
            continue
        lines = b"".join([*pending, chunk[:end]]).split(b"\n")
        pending = [chunk[end + 1:]]
        yield [line + b"\n" for line in lines]
    if any(pending):
        yield [b"".join(pending)]


def serve(stdin: BinaryIO, stdout: BinaryIO, workers: int = 1) -> None:
    """Answer every non-blank line in order; each batch of answers is written and flushed
    before the next read, so no answer waits on input that has not come.  A large batch is
    shared among `workers` processes (score_workers)."""
    shares = Shares(answer_line, workers - 1)
    try:
        for batch in lines_as_they_come(stdin):
            stdout.write(b"".join(shares.answers(batch)))
            stdout.flush()
    finally:
        shares.close()
