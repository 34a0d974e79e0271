"""The names a player reads for the yaku in a hand's result (`wins[].yaku` holds the keys:
`tanyao`, `yakuhai_haku`, ...).  One table, protocol/yaku_names.json, for every client:
riichi-play reads it here, and the web client bundles the same file."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


@cache
def yaku_names() -> dict[str, str]:
    """Each yaku's (and yakuman's) key -> the name shown to players."""
    text = resources.files("protocol").joinpath("yaku_names.json").read_text(encoding="utf-8")
    return {key: name for key, name in json.loads(text).items() if not key.startswith("_")}


def yaku_name(key: str) -> str:
    """The name shown for `key`; a key the table does not know (a newer server's) is shown
    as itself, with spaces for its underscores."""
    return yaku_names().get(key) or key.replace("_", " ")
