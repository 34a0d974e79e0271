"""The public JSON contract of `riichi-score --jsonl` (docs/riichi-score.md, "Scoring many hands").

`answer(request)` turns one request object into one answer object and never raises.
"""

from __future__ import annotations

from typing import Any

from server.rules.config import preset
from server.rules.context import WinContext
from server.rules.melds import parse_meld
from server.rules.scoring import HandScore, ScoringError, score_hand
from server.rules.tiles import TileError, kind_of, parse_tile, parse_tiles, wind_index

FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
         "tenhou", "chiihou", "renhou")
FIELDS = {"id", "hand", "win", "melds", "seat", "round", "dora", "ura", "honba", "sticks", "rules", *FLAGS}


class RequestError(ValueError):
    pass


def answer(request: Any) -> dict[str, Any]:
    """One answer for one decoded JSON request: {"ok": true, ...} or {"ok": false, "error": ...}."""
    ident = request.get("id") if isinstance(request, dict) else None
    try:
        score = score_request(request)
    except (RequestError, ScoringError, TileError, ValueError) as error:
        return {"id": ident, "ok": False, "error": str(error)}
    return {"id": ident, "ok": True, **score_as_dict(score)}


def score_as_dict(score: HandScore) -> dict[str, Any]:
    return {
        "han": score.han,
        "fu": score.fu,
        "yaku": [{"name": name, "han": han} for name, han in score.yaku],
        "dora": score.dora,
        "limit": score.limit,
        "payment": score.payment.as_dict(),
        "total": score.total,
    }


def score_request(request: Any) -> HandScore:
    if not isinstance(request, dict):
        raise RequestError("a request is a JSON object such as {\"hand\": \"123m...\", \"win\": \"5p\"}")
    unknown = sorted(set(request) - FIELDS)
    if unknown:
        raise RequestError(f"unknown field(s): {', '.join(unknown)}")
    rules = preset(_text(request, "rules", "ema2016"))
    if "hand" not in request or "win" not in request:
        raise RequestError("a request needs 'hand' (concealed tiles, winning tile included) and 'win'")
    tiles = parse_tiles(_text(request, "hand", ""))
    win = parse_tile(_text(request, "win", ""))
    melds_field = request.get("melds", [])
    if not isinstance(melds_field, list) or not all(isinstance(m, str) for m in melds_field):
        raise RequestError("'melds' is a list of strings such as [\"pon 555z\", \"chi 123m\"]")
    melds = [parse_meld(m) for m in melds_field]
    flags = {}
    for flag in FLAGS:
        value = request.get(flag, False)
        if not isinstance(value, bool):
            raise RequestError(f"'{flag}' is true or false, not {value!r}")
        flags[flag] = value
    ctx = WinContext(
        **flags,
        seat_wind=wind_index(_text(request, "seat", "E")),
        round_wind=wind_index(_text(request, "round", "E")),
        dora_indicators=_indicators(request, "dora"),
        ura_indicators=_indicators(request, "ura"),
        honba=_count(request, "honba"),
        sticks=_count(request, "sticks"),
    )
    return score_hand(tiles, win, melds, ctx, rules)


def _text(request: dict, field: str, default: str) -> str:
    value = request.get(field, default)
    if not isinstance(value, str):
        raise RequestError(f"'{field}' is a string, not {value!r}")
    return value


def _count(request: dict, field: str) -> int:
    value = request.get(field, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RequestError(f"'{field}' is a whole number 0 or more, not {value!r}")
    return value


def _indicators(request: dict, field: str) -> tuple[int, ...]:
    value = request.get(field, [])
    if isinstance(value, str):
        return tuple(kind_of(t) for t in parse_tiles(value))
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError(f"'{field}' is a list of indicator tiles such as [\"3m\", \"7z\"]")
    return tuple(kind_of(parse_tile(v)) for v in value)
