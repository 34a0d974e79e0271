"""The wire protocol: every message is one msgpack map with a "type" field.

This module is the one source of truth for message shapes; protocol/PROTOCOL.md documents
them.  `decode` turns a frame into a checked message or raises ProtocolError with an
error code and a one-line reason; `encode` packs a message.
"""

from __future__ import annotations

import struct
from enum import StrEnum
from typing import Any

import msgpack

VERSION = 1
MAX_FRAME = 64 * 1024  # bytes; larger frames are refused

# Client to server: field -> (accepted types, required).
_STR, _INT, _BOOL, _MAP, _LIST = (str,), (int,), (bool,), (dict,), (list,)
CLIENT_MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"name": (_STR, True), "version": (_INT, True), "resume": (_STR, False), "since": (_INT, False),
              "bot": (_BOOL, False), "client": (_STR, False), "takeover": (_BOOL, False)},
    "create_table": {"rules": (_STR, False), "overrides": (_MAP, False), "clock": (_MAP, False)},
    "join": {"code": (_STR, True), "seat": (_INT, False)},
    "watch": {"code": (_STR, True)},
    "add_bot": {"seat": (_INT, False), "strategy": (_STR, False)},
    "ready": {},
    "act": {"decision": (_INT, True), "action": (_MAP, True)},
    "leave": {},
    "ping": {"id": (_INT + _STR, False)},
}
SERVER_MESSAGES = ("welcome", "table", "catchup", "event", "snapshot", "offer", "timeout", "result", "left", "error",
                   "pong", "bye")
# Error codes a server sends (protocol/PROTOCOL.md says when each is sent).
ERROR_CODES = ("bad_frame", "too_large", "bad_message", "unknown_type", "version", "hello_first", "rate_limited",
               "closing", "bad_rules", "no_table", "watch_code", "table_full", "seat_taken", "bad_seat", "in_play", "not_host",
               "bad_strategy", "seat_in_use", "not_seated", "not_at_table", "no_seat", "stale_decision", "illegal_action", "internal")


class ByeCode(StrEnum):
    """Why a `bye` was sent, for clients to act on (its `reason` says it in words)."""

    GAME_OVER = "game_over"  # the game ended: its `result` came before
    TABLE_CLOSED = "table_closed"  # the host left before the game, or the table was idle too long
    ABANDONED = "abandoned"  # no player was connected for the server's limit: the game ended unfinished
    SERVER_RESTARTING = "server_restarting"  # games in play are kept: resume once the server is back
    SERVER_ENDED = "server_ended"  # the server is not coming back (riichi-play --local quit): nor its games
    REPLACED = "replaced"  # another connection resumed this session (hello's takeover, or the same client)


def bye(code: ByeCode, reason: str, **extra: Any) -> dict[str, Any]:
    """A bye frame: `code` for programs, `reason` for people."""
    return {"type": "bye", "code": code.value, "reason": reason, **extra}


class ProtocolError(ValueError):
    """A frame or message that breaks the protocol; `code` is machine-readable."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def encode(message: dict[str, Any]) -> bytes:
    if type(message) is Message:
        return message.frame()
    return msgpack.packb(message, use_bin_type=True)


def ws_frame(payload: bytes) -> bytes:
    """An unmasked, final, binary websocket frame holding payload (RFC 6455 5.2): what a
    server sends; no extension is negotiated, so this is all there is to it."""
    n = len(payload)
    if n < 126:
        return bytes((0x82, n)) + payload
    if n < 65536:
        return struct.pack("!BBH", 0x82, 126, n) + payload
    return struct.pack("!BBQ", 0x82, 127, n) + payload


class Message(dict):
    """A server message that is encoded once however many clients it goes to (a dict as well,
    so whoever reads it in-process sees the same map the clients decode)."""

    __slots__ = ("_frame", "_wire")

    def frame(self) -> bytes:
        try:
            return self._frame
        except AttributeError:
            self._frame = frame = msgpack.packb(self, use_bin_type=True)
            return frame

    def wire(self) -> bytes:
        """The frame as a whole unmasked binary websocket frame (what a server writes)."""
        try:
            return self._wire
        except AttributeError:
            self._wire = wire = ws_frame(self.frame())
            return wire

    @classmethod
    def of_frame(cls, frame: bytes) -> Message:
        """The message an encoded frame holds, keeping the frame."""
        message = cls(msgpack.unpackb(frame, raw=False, strict_map_key=False))
        message._frame = frame
        return message


def decode(frame: bytes | str) -> dict[str, Any]:
    """A checked client message from one frame; raises ProtocolError."""
    if isinstance(frame, str):
        raise ProtocolError("bad_frame", "frames are binary msgpack, not text")
    if len(frame) > MAX_FRAME:
        raise ProtocolError("too_large", f"a frame is at most {MAX_FRAME} bytes, this one is {len(frame)}")
    try:
        message = msgpack.unpackb(frame, raw=False, strict_map_key=True)
    except msgpack.ExtraData:
        raise ProtocolError("bad_frame", "trailing bytes after the message: send one msgpack map a frame") from None
    except (msgpack.StackError, RecursionError):
        raise ProtocolError("bad_frame", "msgpack nested too deeply") from None
    except UnicodeDecodeError:
        raise ProtocolError("bad_frame", "not msgpack that can be read: a string is not valid UTF-8") from None
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise ProtocolError("bad_frame", _unpack_problem(error)) from None
    return check(message)


# msgpack's names for the kinds of map key it refuses, in words.
_KEY_KINDS = {"int": "an integer", "float": "a number with a fraction", "bool": "true or false", "NoneType": "nil",
              "list": "a list", "dict": "a map", "bytes": "binary data"}


def _unpack_problem(error: Exception) -> str:
    """Why a frame could not be unpacked, in words rather than the Python exception's name."""
    text = str(error)
    if " is not allowed for map key" in text:
        kind = text.split(" is not allowed for map key")[0].strip()
        return f"map keys must be strings: this frame has a map with {_KEY_KINDS.get(kind, 'a ' + kind)} as a key"
    if "incomplete input" in text or isinstance(error, msgpack.OutOfData):
        return "not msgpack: the frame ends in the middle of a value"
    return "not msgpack: these bytes are not a msgpack value"


def check(message: Any) -> dict[str, Any]:
    """The message itself if it has a known type and the right fields; raises ProtocolError."""
    if not isinstance(message, dict):
        raise ProtocolError("bad_message", "a message is a map with a 'type' field")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a 'type' string")
    fields = CLIENT_MESSAGES.get(kind)
    if fields is None:
        raise ProtocolError("unknown_type", f"unknown message type '{kind[:40]}': use one of {', '.join(CLIENT_MESSAGES)}")
    for name, (types, required) in fields.items():
        if name not in message:
            if required:
                raise ProtocolError("bad_message", f"'{kind}' needs the field '{name}'")
            continue
        value = message[name]
        if not _is_a(value, types):
            raise ProtocolError("bad_message", f"'{kind}.{name}' must be {_wanted(types)}")
    _no_unknown_fields(message, fields, kind)
    if kind == "act":
        _check_action(message["action"])
    elif kind == "create_table" and "clock" in message and "none" in message["clock"]:
        if not isinstance(message["clock"]["none"], bool):
            raise ProtocolError("bad_message", "'create_table.clock.none' must be true or false")
    return message


# The fields of each action map in `act` (server/game/actions.py `action_to_data` writes them).
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "discard": ("tile", "riichi"), "tsumo": (), "ron": (), "pass": (), "chi": ("tiles",), "pon": ("tiles",),
    "daiminkan": (), "ankan": ("kind",), "kakan": ("tile",), "nine_terminals": (),
}

# What each accepted type is called in a message to the client (the protocol's words, not Python's).
_TYPE_WORDS = {str: "a string", int: "an integer", bool: "true or false", dict: "a map", list: "a list"}


def _is_a(value: Any, types: tuple[type, ...]) -> bool:
    return isinstance(value, types) and not (isinstance(value, bool) and bool not in types)


def _wanted(types: tuple[type, ...]) -> str:
    return " or ".join(_TYPE_WORDS[t] for t in types)


def _no_unknown_fields(message: dict[str, Any], fields: Any, where: str) -> None:
    extra = sorted(str(k) for k in message if k != "type" and k not in fields)
    if extra:
        raise ProtocolError("bad_message", f"'{where}' has unknown field(s): {', '.join(extra)[:80]}")


def _check_action(action: dict[str, Any]) -> None:
    """Unknown fields in an action map are refused like unknown fields anywhere else; what
    the known ones hold (and an unknown action type) is the table's to judge (illegal_action)."""
    kind = action.get("type")
    fields = ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is not None:
        _no_unknown_fields(action, fields, "act.action")


def error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """An error frame; the message is kept to one line, whatever client text it quotes."""
    one_line = "".join(c if c.isprintable() else " " for c in message)
    return {"type": "error", "code": code, "message": one_line[:300], **extra}
