"""The wire protocol: every message is one msgpack map with a "type" field.

This module is the one definition of the protocol: the client's messages, the server's
messages with the game events, the hands' results and a seat's view inside them, the
error codes and the bye codes (protocol/PROTOCOL.md says the same in words).  Fields are
(kinds, required) as protocol/shapes.py reads them, keyed by `MessageType`.  `decode` turns a
frame into a checked client message or raises ProtocolError with an error code and a one-line
reason; `check_server` checks a server message the same way; `encode` packs a message.  The
server builds its messages with protocol/server_messages.py's constructors, one a server
message type; protocol/typescript.py writes these names out for the web client.
"""

from __future__ import annotations

import struct
from enum import StrEnum
from typing import Any

import msgpack

from protocol.events import AbortiveReason, EventType, HandResult
from protocol.shapes import (NONE, PLAIN, TILE, Among, Fields, KeyedMap, ListOf, MapOf, ShapeError, Typed, check_fields,
                             no_unknown_fields)

VERSION = 1
MAX_FRAME = 64 * 1024  # bytes; larger frames are refused


class ErrorCode(StrEnum):
    """Every code an `error` frame carries (PROTOCOL.md "Errors" says when each is sent);
    the server's `error` takes one of these, so that it sends no code a client cannot know."""

    BAD_FRAME = "bad_frame"  # not one msgpack map: a text frame, trailing bytes, not msgpack
    TOO_LARGE = "too_large"
    BAD_MESSAGE = "bad_message"  # a missing, unknown or mistyped field; a second hello
    UNKNOWN_TYPE = "unknown_type"
    VERSION = "version"
    HELLO_FIRST = "hello_first"
    RATE_LIMITED = "rate_limited"
    CLOSING = "closing"  # the server is stopping
    BAD_RULES = "bad_rules"
    TOO_MANY_TABLES = "too_many_tables"
    NO_TABLE = "no_table"
    NO_GAME = "no_game"  # a rematch of a game that did not end here lately
    WATCH_CODE = "watch_code"  # a join with a watch code
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    SEAT_RESERVED = "seat_reserved"  # a join of a seat the table keeps for another player
    BAD_SEAT = "bad_seat"
    IN_PLAY = "in_play"
    NOT_HOST = "not_host"
    BAD_STRATEGY = "bad_strategy"
    ALREADY_SEATED = "already_seated"  # a watch of the table one is seated at
    SEAT_IN_USE = "seat_in_use"  # a resume of a session another client is connected to
    SEAT_LOST = "seat_lost"  # a resume token that holds nothing any more
    NOT_SEATED = "not_seated"
    NOT_AT_TABLE = "not_at_table"
    NO_SEAT = "no_seat"
    STALE_DECISION = "stale_decision"
    ILLEGAL_ACTION = "illegal_action"
    UNKNOWN_PLAYER = "unknown_player"  # the server admits only the player keys it issued (the connection closes)
    REGISTRATION = "registration"  # a register_event refused: a link no event's, registration closed, a name taken
    NO_PLAYER = "no_player"  # a rename, register_event or ladder_join from a connection whose hello said no player key
    NO_LADDER = "no_ladder"  # a ladder_join of a ladder the server does not have
    LADDER_DROPPED = "ladder_dropped"  # a bot out of a ladder's queue: not seated and ready in time
    UNAVAILABLE = "unavailable"  # the service cannot reach what it needs (Redis) just now: try again soon
    INTERNAL = "internal"


ERROR_CODES = tuple(code.value for code in ErrorCode)


class ByeCode(StrEnum):
    """Why a `bye` was sent, for clients to act on (its `reason` says it in words)."""

    GAME_OVER = "game_over"  # the game ended: its `result` came before
    TABLE_CLOSED = "table_closed"  # the host left before the game, or the table was idle too long
    ABANDONED = "abandoned"  # no player was connected for the server's limit: the game ended unfinished
    SERVER_RESTARTING = "server_restarting"  # games in play are kept: resume once the server is back
    SERVER_ENDED = "server_ended"  # the server is not coming back (riichi-play --local quit): nor its games
    REPLACED = "replaced"  # another connection resumed this session (hello's takeover, or the same client), or
    # an event's substitute took the seat (server/table/seating.py SitIn)


class MessageType(StrEnum):
    """The `type` of every message: the client's (CLIENT_MESSAGES), then the server's
    (SERVER_MESSAGES); no name is used both ways."""

    HELLO = "hello"
    CREATE_TABLE = "create_table"
    JOIN = "join"
    WATCH = "watch"
    ADD_BOT = "add_bot"
    READY = "ready"
    ACT = "act"
    LEAVE = "leave"
    RESULT_CLOSED = "result_closed"
    REMATCH = "rematch"
    PING = "ping"
    RENAME = "rename"
    REGISTER_EVENT = "register_event"
    LADDER_JOIN = "ladder_join"
    WELCOME = "welcome"
    TABLE = "table"
    CATCHUP = "catchup"
    EVENT = "event"
    SNAPSHOT = "snapshot"
    OFFER = "offer"
    TIMEOUT = "timeout"
    RESULT = "result"
    LEFT = "left"
    ERROR = "error"
    PONG = "pong"
    REMATCH_OFFERED = "rematch_offered"
    PLAYER = "player"
    EVENT_REGISTERED = "event_registered"
    LADDER_JOINED = "ladder_joined"
    LADDER_TABLE = "ladder_table"
    BYE = "bye"
    SESSION = "session"


# ---- client to server: type -> field -> (kinds, required) (protocol/shapes.py) ----------

_STR, _INT, _BOOL, _MAP, _LIST = (str,), (int,), (bool,), (dict,), (list,)
_T = MessageType  # (short, for the tables)
CLIENT_MESSAGES: dict[MessageType, Fields] = {
    _T.HELLO: {"name": (_STR, True), "version": (_INT, True), "resume": (_STR, False), "since": (_INT, False),
               "bot": (_BOOL, False), "client": (_STR, False), "takeover": (_BOOL, False),
               "player": (_STR, False)},  # the secret player key (PROTOCOL.md "Players")
    _T.CREATE_TABLE: {"rules": (_STR, False), "overrides": (_MAP, False), "clock": (_MAP, False)},
    _T.JOIN: {"code": (_STR, True), "seat": (_INT, False)},
    _T.WATCH: {"code": (_STR, True)},
    _T.ADD_BOT: {"seat": (_INT, False), "strategy": (_STR, False)},
    _T.READY: {},
    _T.ACT: {"decision": (_INT, True), "action": (_MAP, True)},
    _T.LEAVE: {},
    _T.RESULT_CLOSED: {},  # the player closed the hand's result: the next hand's clock may start
    _T.REMATCH: {"game": (_INT, True)},
    _T.PING: {"id": (_INT + _STR, False)},
    _T.RENAME: {"name": (_STR, True)},  # the player's display name, from now on
    # self-registration from an event's link (docs/events.md): the event, the link's token, the name to play under
    _T.REGISTER_EVENT: {"event": (_STR, True), "token": (_STR, True), "name": (_STR, False)},
    _T.LADDER_JOIN: {"ladder": (_STR, True)},  # a bot queues on a ladder (docs/ladder.md)
}

# ---- server to client ------------------------------------------------------------------

_NUM, _OPT_INT, _TILES, _INTS = (int, float), (int, NONE), (ListOf((TILE,)),), (ListOf((int,)),)
TABLE_STATES = ("waiting", "playing", "finished", "closed")
CATCHUP_REASONS = ("history", "restart", "unknown_seq")  # why a resume gets a snapshot, not a replay
SEAT_KINDS = ("human", "bot")
CALL_MELDS = ("chi", "pon", "kan", "ankan", "kakan")  # a `call` event's meld (server/rules/melds.py MeldKind)
PHASES = ("turn", "calls", "chankan", "game_over")  # a view's phase (server/game/state.py Phase)

# The actions offered (server/game/actions.py `action_to_data`); `act.action` sends one back.
ACTIONS: dict[str, Fields] = {
    "discard": {"tile": ((TILE,), True), "riichi": (_BOOL, False)}, "tsumo": {}, "ron": {}, "pass": {},
    "chi": {"tiles": (_TILES, True)}, "pon": {"tiles": (_TILES, True)}, "daiminkan": {},
    "ankan": {"kind": (_INT, True)}, "kakan": {"tile": ((TILE,), True)}, "nine_terminals": {},
}
ACTION_FIELDS: dict[str, tuple[str, ...]] = {kind: tuple(fields) for kind, fields in ACTIONS.items()}
_ACTION = (Typed(ACTIONS),)

_FINAL: Fields = {"scores": (_INTS, True), "places": (_INTS, True), "results": ((ListOf(_NUM),), True),
                  "seed": ((str, NONE), True)}
_MELD_SHOWN = (MapOf({"kind": (_STR, True), "tiles": (_TILES, True)}),)
_WIN: Fields = {
    "seat": (_INT, True), "from": (_OPT_INT, True), "tile": ((TILE,), True), "tsumo": (_BOOL, True),
    "hand": (_TILES, True), "melds": ((ListOf(_MELD_SHOWN),), True), "han": (_INT, True), "fu": (_INT, True),
    "yaku": ((ListOf((ListOf((str, int)),)),), True), "dora": (_INT, True), "limit": ((str, NONE), True),
    "yakuman": (_INT, True), "points": (_INT, True), "payers": ((KeyedMap(_INT),), True),
    "liable": (_OPT_INT, True), "sticks": (_INT, True)}
_SETTLED: Fields = {"deltas": (_INTS, True), "scores": (_INTS, True)}
# A hand's end (server/game/settle.py), by its "type".
HAND_RESULTS: dict[HandResult, Fields] = {
    HandResult.WIN: {"wins": ((ListOf((MapOf(_WIN),)),), True), "ura_indicators": (_TILES, True), **_SETTLED},
    HandResult.EXHAUSTIVE_DRAW: {"tenpai": (_INTS, True), "nagashi": (_INTS, True),
                                 "hands": ((KeyedMap(_TILES),), True), **_SETTLED},
    # nine_terminals shows the seat and its hand, triple_ron the seats that called ron
    HandResult.ABORTIVE_DRAW: {"reason": ((Among(frozenset(AbortiveReason)),), True), "seat": (_INT, False),
                               "hand": (_TILES, False), "seats": (_INTS, False), **_SETTLED},
}
# The game events (server/game/engine.py), by their "type"; the fields that are not
# required are a seat's private part: `hand` to its own seat, `tile` to the drawing seat.
EVENTS: dict[EventType, Fields] = {
    EventType.GAME_START: {"rules": (_STR, True), "overrides": ((KeyedMap(PLAIN),), True),
                           "names": ((ListOf(_STR),), True), "seed_hash": ((str, NONE), True), "scores": (_INTS, True)},
    EventType.HAND_START: {"round": (_STR, True), "round_wind": (_INT, True), "dealer": (_INT, True),
                           "honba": (_INT, True), "sticks": (_INT, True), "scores": (_INTS, True),
                           "dora_indicators": (_TILES, True), "hand_number": (_INT, True), "hand": (_TILES, False)},
    EventType.DRAW: {"seat": (_INT, True), "tiles_left": (_INT, True), "replacement": (_BOOL, True),
                     "tile": ((TILE,), False)},
    EventType.DISCARD: {"seat": (_INT, True), "tile": ((TILE,), True), "tsumogiri": (_BOOL, True),
                        "riichi": (_BOOL, True)},
    EventType.CALL: {"seat": (_INT, True), "meld": ((Among(frozenset(CALL_MELDS)),), True),
                     "tiles": (_TILES, True), "called": ((TILE, NONE), True), "from": (_OPT_INT, True)},
    EventType.RIICHI_ACCEPTED: {"seat": (_INT, True), "scores": (_INTS, True), "sticks": (_INT, True)},
    EventType.DORA: {"indicator": ((TILE,), True), "dora_indicators": (_TILES, True)},
    EventType.HAND_END: {"result": ((Typed(HAND_RESULTS),), True)},
    EventType.GAME_END: _FINAL,
}
# The fields of an event that go to one seat only (server/game/events.py: its private part).
PRIVATE_EVENT_FIELDS: dict[EventType, tuple[str, ...]] = {EventType.HAND_START: ("hand",), EventType.DRAW: ("tile",)}
# A seat's picture of the game in a snapshot (server/game/views.py); a spectator's has no
# `you` and no `actions`.
_MELD = (MapOf({"kind": (_STR, True), "tiles": (_TILES, True), "called": ((TILE, NONE), True),
                "from": (_OPT_INT, True)}),)
_SEAT_PUBLIC: Fields = {"discards": (_TILES, True), "tsumogiri": ((ListOf(_BOOL),), True), "claimed": (_INTS, True),
                        "riichi_index": (_OPT_INT, True), "riichi": (_BOOL, True), "melds": ((ListOf(_MELD),), True)}
_YOU: Fields = {"seat": (_INT, True), "hand": (_TILES, True), "drawn": ((TILE, NONE), True), "waits": (_INTS, True),
                "furiten": (_BOOL, True)}
VIEW: Fields = {
    "rules": (_STR, True), "overrides": ((KeyedMap(PLAIN),), True), "names": ((ListOf(_STR),), True),
    "seed_hash": ((str, NONE), True), "round": (_STR, True), "round_wind": (_INT, True), "dealer": (_INT, True),
    "honba": (_INT, True), "sticks": (_INT, True), "scores": (_INTS, True), "dora_indicators": (_TILES, True),
    "tiles_left": (_INT, True), "turn": (_INT, True), "phase": ((Among(frozenset(PHASES)),), True),
    "last_discard": ((TILE, NONE), True), "hand_sizes": (_INTS, True), "seats": ((ListOf((MapOf(_SEAT_PUBLIC),)),), True),
    "final": ((MapOf(_FINAL), NONE), True), "you": ((MapOf(_YOU),), False), "actions": ((ListOf(_ACTION),), False)}
_CLOCK = MapOf({"per_decision": (_NUM, True), "bank": (_NUM, True), "absence": (_NUM, True),
                "between_hands": (_NUM, True)})
_SEAT = MapOf({"name": (_STR, True), "kind": ((Among(frozenset(SEAT_KINDS)),), True), "ready": (_BOOL, True),
               "host": (_BOOL, True), "connected": (_BOOL, True), "program": (_BOOL, True),
               "player": ((str, NONE), True)})  # the seat's player's id (null: a seat of before players)
_PLAYER: Fields = {"id": (_STR, True), "name": (_STR, True)}
ENDINGS = ("finish-hand", "one-more-hand")  # server/table/session.py Ending
# A timed table's session clock (server/table/session.py): its length with any extra time, the
# ending policy, the milliseconds left when sent and the end in the server's wall-clock seconds
# (null: the game has not started), whether the time is up and then the number of the game's
# last hand.
_SESSION = MapOf({"seconds": (_NUM, True), "ending": ((Among(frozenset(ENDINGS)),), True),
                  "left_ms": (_OPT_INT, True), "ends_at": ((int, float, NONE), True), "time_up": (_BOOL, True),
                  "last_hand": (_OPT_INT, True)})
_SEQ: Fields = {"seq": (_INT, True)}  # (PROTOCOL.md "Server to client": what numbers mean)
SERVER_MESSAGES: dict[MessageType, Fields] = {
    _T.WELCOME: {"version": (_INT, True), "session": (_STR, True), "resume": (_STR, True), "resumed": (_BOOL, True),
                 "player": ((MapOf(_PLAYER),), False)},  # the hello's player, when it said its key (or is a bot)
    _T.TABLE: {**_SEQ, "table": (_STR, True), "state": ((Among(frozenset(TABLE_STATES)),), True), "rules": (_STR, True),
               "clock": ((_CLOCK, NONE), True), "you": (_OPT_INT, True), "game": (_OPT_INT, True),
               "seats": ((ListOf((_SEAT, NONE)),), True), "invite": (_STR, False), "watch": (_STR, False),
               "session": ((_SESSION,), False)},
    _T.CATCHUP: {**_SEQ, "since": (_INT, True), "replay": (_BOOL, True),
                 "reason": ((Among(frozenset(CATCHUP_REASONS)),), False)},
    _T.EVENT: {**_SEQ, "event": ((Typed(EVENTS),), True)},
    _T.SNAPSHOT: {**_SEQ, "game": (_INT, True), "view": ((MapOf(VIEW),), True)},
    _T.OFFER: {**_SEQ, "decision": (_INT, True), "seat": (_INT, True), "actions": ((ListOf(_ACTION),), True),
               "deadline_ms": (_INT, False), "bank_ms": (_INT, False)},
    _T.TIMEOUT: {**_SEQ, "decision": (_INT, True), "action": (_ACTION, True)},
    # `you` and `names` when it is sent again after the end (PROTOCOL.md "After the end")
    _T.RESULT: {**_SEQ, "game": (_INT, True), "final": ((MapOf(_FINAL),), True), "you": (_INT, False),
                "names": ((ListOf(_STR),), False), "uma": ((ListOf(_NUM),), False)},
    _T.LEFT: {**_SEQ, "table": (_STR, True), "seat": (_OPT_INT, True), "seat_kept": (_BOOL, True)},
    _T.ERROR: {"code": ((Among(frozenset(ERROR_CODES)),), True), "message": (_STR, True), "decision": (_INT, False),
               "version": (_INT, False)},
    _T.PONG: {"id": (_INT + _STR, False)},
    # to a player of a game that ended: another player asked for its rematch (no seq: at no table)
    _T.REMATCH_OFFERED: {"game": (_INT, True), "invite": (_STR, True), "seat": (_INT, True), "by": (_STR, True)},
    # the answer to rename: the player as it is now
    _T.PLAYER: _PLAYER,
    # the answer to register_event: the event (its id and name) and the player as registered
    _T.EVENT_REGISTERED: {"event": (_STR, True), "event_name": (_STR, True), "player": ((MapOf(_PLAYER),), True),
                          "added": (_BOOL, True)},  # false: the player was in the event already
    # a bot is queued on a ladder; later, the table of its next game there (join it with `invite`)
    _T.LADDER_JOINED: {"ladder": (_STR, True), "player": (_STR, True)},
    _T.LADDER_TABLE: {"ladder": (_STR, True), "set": (_INT, True), "rotation": (_INT, True), "invite": (_STR, True),
                      "seat": (_INT, True)},
    # a server that stops says bye to connections at no table too: without a seq then
    _T.BYE: {"seq": (_INT, False), "code": ((Among(frozenset(ByeCode)),), True), "reason": (_STR, True)},
    # a timed table's session clock changed: extra time given (`extra_ms`), or the time is up
    _T.SESSION: {**_SEQ, "session": ((_SESSION,), True), "extra_ms": (_INT, False)},
}


class ProtocolError(ValueError):
    """A frame or message that breaks the protocol; `code` is machine-readable."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = ErrorCode(code)


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
        raise ProtocolError(ErrorCode.BAD_FRAME, "frames are binary msgpack, not text")
    if len(frame) > MAX_FRAME:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a frame is at most {MAX_FRAME} bytes, this one is {len(frame)}")
    try:
        message = msgpack.unpackb(frame, raw=False, strict_map_key=True)
    except msgpack.ExtraData:
        raise ProtocolError(ErrorCode.BAD_FRAME,
                            "trailing bytes after the message: send one msgpack map a frame") from None
    except (msgpack.StackError, RecursionError):
        raise ProtocolError(ErrorCode.BAD_FRAME, "msgpack nested too deeply") from None
    except UnicodeDecodeError:
        raise ProtocolError(ErrorCode.BAD_FRAME, "not msgpack that can be read: a string is not valid UTF-8") from None
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise ProtocolError(ErrorCode.BAD_FRAME, _unpack_problem(error)) from None
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
    """The client message itself if it has a known type and the right fields; raises ProtocolError."""
    kind = _type_of(message, CLIENT_MESSAGES)
    try:
        check_fields(message, CLIENT_MESSAGES[kind], kind)
    except ShapeError as problem:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(problem)) from None
    if kind == MessageType.ACT:
        _check_action(message["action"])
    elif kind == MessageType.CREATE_TABLE and "clock" in message and "none" in message["clock"]:
        if not isinstance(message["clock"]["none"], bool):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "'create_table.clock.none' must be true or false")
    return message


def check_server(message: Any, tiles: list[tuple[str, int]] | None = None) -> dict[str, Any]:
    """The server message itself if SERVER_MESSAGES defines it, down to its events' and views'
    fields; raises ProtocolError.  With `tiles`, every tile id in it is added there, with
    where it is (`event.event.discard.tile`)."""
    kind = _type_of(message, SERVER_MESSAGES)
    try:
        check_fields(message, SERVER_MESSAGES[kind], kind, tiles)
    except ShapeError as problem:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(problem)) from None
    return message


def _type_of(message: Any, messages: dict[MessageType, Fields]) -> str:
    if not isinstance(message, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a map with a 'type' field")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a 'type' string")
    if kind not in messages:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type '{kind[:40]}': use one of"
                            f" {', '.join(messages)}")
    return kind


def _check_action(action: dict[str, Any]) -> None:
    """Unknown fields in an action map are refused like unknown fields anywhere else; what
    the known ones hold (and an unknown action type) is the table's to judge (illegal_action)."""
    kind = action.get("type")
    fields = ACTIONS.get(kind) if isinstance(kind, str) else None
    if fields is not None:
        try:
            no_unknown_fields(action, fields, "act.action")
        except ShapeError as problem:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, str(problem)) from None

