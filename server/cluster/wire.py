"""What nodes send one another through Redis (docs/cluster.md): a table's inputs from the node
that holds a client's connection to the node that runs the table, and the outputs meant for
that node's clients back.

A game's end (`GameFinished`) goes to every node as a frame of its own (`finished_frame`), on
the service's one channel for them.

A frame is one msgpack map: `k` its kind (an input's or output's class name), `table` the
table's id, `node` the node that sent it, and the kind's own fields.  Never pickle: a node
takes nothing from Redis but data, and a frame of an unknown kind or with fields that are
not the kind's is refused (`WireError`), not guessed at.  A message for clients travels as
the bytes the clients will get (`protocol.messages.Message.frame`), encoded once by the
table's node whatever the number of members and nodes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

from protocol.messages import Message
from server.finished import GameFinished
from server.table.io import (
    Act, AddBot, Broadcast, Disconnect, Holds, Input, Join, Leave, Member, Ready, Reconnect, Released, ResultClosed,
    Seated, Send, TableClosed, Watch,
)

@dataclass(frozen=True, slots=True)
class Answered:
    """The table has taken in (or refused) a join, watch or resume of the member's: its node's
    lobby routes the member's messages by its membership again (Membership.answered)."""

    member: str


# The inputs a client's node relays to the table's node, and the outputs that come back.
RELAYED_INPUTS: dict[str, type] = {kind.__name__: kind for kind in (
    Join, Watch, AddBot, Ready, Act, Leave, ResultClosed, Disconnect, Reconnect)}
RELAYED_OUTPUTS: dict[str, type] = {kind.__name__: kind for kind in (
    Send, Broadcast, Seated, Released, Holds, TableClosed, Answered)}
RelayedOutput = Send | Broadcast | Seated | Released | Holds | TableClosed | Answered
_MEMBER_FIELDS = tuple(f.name for f in dataclasses.fields(Member))


class WireError(ValueError):
    """A frame that is not one this version of the nodes sends."""


@dataclass(frozen=True, slots=True)
class InputFrame:
    table: str
    node: str  # the node that holds the member's connection (where its outputs go)
    member: Member
    item: Input


@dataclass(frozen=True, slots=True)
class OutputFrame:
    table: str
    node: str  # the table's node
    item: RelayedOutput


def input_frame(table: str, node: str, member: Member, item: Input) -> bytes:
    kind = type(item).__name__
    if RELAYED_INPUTS.get(kind) is not type(item):
        raise WireError(f"{kind} is not relayed between nodes")
    return _pack({"k": kind, "table": table, "node": node, "member": dataclasses.astuple(member),
                  **_fields(item)})


def output_frame(table: str, node: str, item: RelayedOutput) -> bytes:
    kind = type(item).__name__
    if RELAYED_OUTPUTS.get(kind) is not type(item):
        raise WireError(f"{kind} is not relayed between nodes")
    fields = _fields(item)
    if "message" in fields:
        message = fields["message"]
        fields["message"] = message.frame() if isinstance(message, Message) else Message(message).frame()
    return _pack({"k": kind, "table": table, "node": node, **fields})


def read_frame(frame: bytes) -> InputFrame | OutputFrame:
    """The input or output a frame holds; WireError for anything else."""
    try:
        data = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as problem:
        raise WireError(f"not a frame: {problem}") from None
    if not isinstance(data, dict):
        raise WireError("not a frame: a frame is a map")
    kind, table, node = data.pop("k", None), data.pop("table", None), data.pop("node", None)
    if not isinstance(table, str) or not isinstance(node, str):
        raise WireError("a frame names its table and its node")
    if kind in RELAYED_INPUTS:
        member = data.pop("member", None)
        if not isinstance(member, list) or len(member) != len(_MEMBER_FIELDS):
            raise WireError(f"a {kind} frame carries its member")
        return InputFrame(table, node, Member(*member), _make(RELAYED_INPUTS[kind], data))
    if kind in RELAYED_OUTPUTS:
        if "message" in data:
            if not isinstance(data["message"], bytes):
                raise WireError(f"a {kind} frame's message is its encoded frame")
            data["message"] = Message.of_frame(data["message"])
        if "members" in data:
            data["members"] = tuple(data["members"]) if isinstance(data["members"], list) else data["members"]
        return OutputFrame(table, node, _make(RELAYED_OUTPUTS[kind], data))
    raise WireError(f"unknown frame kind {kind!r}")


def finished_frame(node: str, finished: GameFinished) -> bytes:
    """A game's end as the node that finished it says it to the others."""
    return _pack({"k": "GameFinished", "node": node, "game": finished.to_data()})


def read_finished(frame: bytes) -> tuple[str, GameFinished]:
    """(the node that finished it, the game's end) of a `finished_frame`; WireError for anything else."""
    try:
        data = msgpack.unpackb(frame, raw=False)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as problem:
        raise WireError(f"not a frame: {problem}") from None
    if not isinstance(data, dict) or data.get("k") != "GameFinished" or not isinstance(data.get("node"), str):
        raise WireError("not a GameFinished frame")
    try:
        return data["node"], GameFinished.from_data(data["game"])
    except (KeyError, TypeError, ValueError) as problem:
        raise WireError(f"not a GameFinished frame: {problem}") from None


def _fields(item: Any) -> dict[str, Any]:
    return {f.name: _plain(getattr(item, f.name)) for f in dataclasses.fields(item)}


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        return value
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _make(kind: type, data: dict[str, Any]) -> Any:
    names = {f.name for f in dataclasses.fields(kind)}
    if not set(data) <= names:
        raise WireError(f"{kind.__name__} has no field {sorted(set(data) - names)[0]!r}")
    try:
        return kind(**data)
    except TypeError as problem:
        raise WireError(f"{kind.__name__}: {problem}") from None


def _pack(data: dict[str, Any]) -> bytes:
    return msgpack.packb(data, use_bin_type=True)
