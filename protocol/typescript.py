"""The protocol's names for the web client: writes web/src/protocol_names.ts from protocol/.

The page (web/src/) names message types, event types, hands' results, error and bye codes
and the values of the protocol's closed fields with the constants of that file, never with
strings of its own, so that they are defined once, here in Python.  The file is generated and
committed; tests/protocol/test_typescript.py fails when it is not what this module makes now.

    .venv/bin/python -m protocol.typescript          # write web/src/protocol_names.ts
    .venv/bin/python -m protocol.typescript --check  # exit 1 (and say so) when it is not current
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path

from protocol.events import AbortiveReason, EventType, HandResult
from protocol.messages import (ACTIONS, CALL_MELDS, CATCHUP_REASONS, CLIENT_MESSAGES, PHASES, SEAT_KINDS,
                               SERVER_MESSAGES, TABLE_STATES, VERSION, ByeCode, ErrorCode, MessageType)

OUT = Path(__file__).resolve().parents[1] / "web" / "src" / "protocol_names.ts"
COMMAND = ".venv/bin/python -m protocol.typescript"

# (the TypeScript name, what it is, its values: an enum, or strings named by their capitals)
NAMES: list[tuple[str, str, type[StrEnum] | Iterable[str]]] = [
    ("MessageType", "The `type` of every message, both ways (protocol/messages.py MessageType).", MessageType),
    ("EventType", "The `type` of a game event (protocol/events.py EventType).", EventType),
    ("HandResult", "The `type` of a hand's result (protocol/events.py HandResult).", HandResult),
    ("AbortiveReason", "The `reason` of an abortive draw (protocol/events.py AbortiveReason).", AbortiveReason),
    ("ErrorCode", "The `code` of an `error` (protocol/messages.py ErrorCode).", ErrorCode),
    ("ByeCode", "The `code` of a `bye` (protocol/messages.py ByeCode).", ByeCode),
    ("ActionType", "The `type` of an action offered and sent back in `act` (protocol/messages.py ACTIONS).",
     ACTIONS),
    ("CallMeld", "A `call` event's `meld` (protocol/messages.py CALL_MELDS).", CALL_MELDS),
    ("TableState", "A `table` message's `state` (protocol/messages.py TABLE_STATES).", TABLE_STATES),
    ("CatchupReason", "Why a `catchup` is followed by a snapshot (protocol/messages.py CATCHUP_REASONS).",
     CATCHUP_REASONS),
    ("SeatKind", "A seat's `kind` in a `table` message (protocol/messages.py SEAT_KINDS).", SEAT_KINDS),
    ("Phase", "A view's `phase` (protocol/messages.py PHASES).", PHASES),
]


def members_of(values: type[StrEnum] | Iterable[str]) -> list[tuple[str, str]]:
    if isinstance(values, type):
        return [(member.name, member.value) for member in values]
    return [(value.upper(), value) for value in values]


def _union(name: str, values: Iterable[str]) -> list[str]:
    """A union type of the strings, one a line."""
    members = [f'  | "{value}"' for value in values]
    return [f"export type {name} =", *members[:-1], members[-1] + ";"]


def render() -> str:
    """The whole file, as it should be on disk."""
    lines = [f"// Generated from protocol/ by `{COMMAND}`: do not edit it by hand.",
             "// The protocol's names (protocol/typescript.py says which), for the page to use instead of strings of",
             "// its own; tests/protocol/test_typescript.py fails when this file is not current.",
             "",
             "/** The protocol version that `hello` says and `welcome` answers with. */",
             f"export const VERSION = {VERSION};"]
    for name, doc, values in NAMES:
        lines += ["", f"/** {doc} */", f"export const {name} = {{"]
        lines += [f'  {key}: "{value}",' for key, value in members_of(values)]
        lines += ["} as const;", f"export type {name} = (typeof {name})[keyof typeof {name}];"]
    lines += ["", "/** The message types a client sends. */", *_union("ClientMessageType", CLIENT_MESSAGES),
              "/** The message types the server sends. */", *_union("ServerMessageType", SERVER_MESSAGES)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m protocol.typescript", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the file is current (exit 1 if not)")
    args = parser.parse_args(argv)
    text = render()
    current = OUT.exists() and OUT.read_text() == text
    if args.check:
        if not current:
            print(f"{OUT} is not current: run {COMMAND}", file=sys.stderr)
        return 0 if current else 1
    if not current:
        OUT.write_text(text)
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
