// Generated from protocol/ by `.venv/bin/python -m protocol.typescript`: do not edit it by hand.
// The protocol's names (protocol/typescript.py says which), for the page to use instead of strings of
// its own; tests/protocol/test_typescript.py fails when this file is not current.

/** The protocol version that `hello` says and `welcome` answers with. */
export const VERSION = 1;

/** The `type` of every message, both ways (protocol/messages.py MessageType). */
export const MessageType = {
  HELLO: "hello",
  CREATE_TABLE: "create_table",
  JOIN: "join",
  WATCH: "watch",
  ADD_BOT: "add_bot",
  READY: "ready",
  ACT: "act",
  LEAVE: "leave",
  RESULT_CLOSED: "result_closed",
  REMATCH: "rematch",
  PING: "ping",
  RENAME: "rename",
  REGISTER_EVENT: "register_event",
  LADDER_JOIN: "ladder_join",
  WELCOME: "welcome",
  TABLE: "table",
  CATCHUP: "catchup",
  EVENT: "event",
  SNAPSHOT: "snapshot",
  OFFER: "offer",
  TIMEOUT: "timeout",
  RESULT: "result",
  LEFT: "left",
  ERROR: "error",
  PONG: "pong",
  REMATCH_OFFERED: "rematch_offered",
  PLAYER: "player",
  EVENT_REGISTERED: "event_registered",
  LADDER_JOINED: "ladder_joined",
  LADDER_TABLE: "ladder_table",
  BYE: "bye",
  SESSION: "session",
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/** The `type` of a game event (protocol/events.py EventType). */
export const EventType = {
  GAME_START: "game_start",
  HAND_START: "hand_start",
  DRAW: "draw",
  DISCARD: "discard",
  RIICHI_ACCEPTED: "riichi_accepted",
  CALL: "call",
  DORA: "dora",
  HAND_END: "hand_end",
  GAME_END: "game_end",
  STOPPED: "stopped",
} as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

/** The `type` of a hand's result (protocol/events.py HandResult). */
export const HandResult = {
  WIN: "win",
  EXHAUSTIVE_DRAW: "exhaustive_draw",
  ABORTIVE_DRAW: "abortive_draw",
} as const;
export type HandResult = (typeof HandResult)[keyof typeof HandResult];

/** The `reason` of an abortive draw (protocol/events.py AbortiveReason). */
export const AbortiveReason = {
  NINE_TERMINALS: "nine_terminals",
  TRIPLE_RON: "triple_ron",
  FOUR_WINDS: "four_winds",
  FOUR_RIICHI: "four_riichi",
  FOUR_KONGS: "four_kongs",
} as const;
export type AbortiveReason = (typeof AbortiveReason)[keyof typeof AbortiveReason];

/** The `code` of an `error` (protocol/messages.py ErrorCode). */
export const ErrorCode = {
  BAD_FRAME: "bad_frame",
  TOO_LARGE: "too_large",
  BAD_MESSAGE: "bad_message",
  UNKNOWN_TYPE: "unknown_type",
  VERSION: "version",
  HELLO_FIRST: "hello_first",
  RATE_LIMITED: "rate_limited",
  CLOSING: "closing",
  BAD_RULES: "bad_rules",
  TOO_MANY_TABLES: "too_many_tables",
  NO_TABLE: "no_table",
  NO_GAME: "no_game",
  WATCH_CODE: "watch_code",
  TABLE_FULL: "table_full",
  SEAT_TAKEN: "seat_taken",
  SEAT_RESERVED: "seat_reserved",
  BAD_SEAT: "bad_seat",
  IN_PLAY: "in_play",
  NOT_HOST: "not_host",
  BAD_STRATEGY: "bad_strategy",
  ALREADY_SEATED: "already_seated",
  SEAT_IN_USE: "seat_in_use",
  SEAT_LOST: "seat_lost",
  NOT_SEATED: "not_seated",
  NOT_AT_TABLE: "not_at_table",
  NO_SEAT: "no_seat",
  STALE_DECISION: "stale_decision",
  ILLEGAL_ACTION: "illegal_action",
  UNKNOWN_PLAYER: "unknown_player",
  REGISTRATION: "registration",
  NO_PLAYER: "no_player",
  NO_LADDER: "no_ladder",
  LADDER_DROPPED: "ladder_dropped",
  UNAVAILABLE: "unavailable",
  INTERNAL: "internal",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The `code` of a `bye` (protocol/messages.py ByeCode). */
export const ByeCode = {
  GAME_OVER: "game_over",
  TABLE_CLOSED: "table_closed",
  ABANDONED: "abandoned",
  SERVER_RESTARTING: "server_restarting",
  SERVER_ENDED: "server_ended",
  REPLACED: "replaced",
} as const;
export type ByeCode = (typeof ByeCode)[keyof typeof ByeCode];

/** The `type` of an action offered and sent back in `act` (protocol/messages.py ACTIONS). */
export const ActionType = {
  DISCARD: "discard",
  TSUMO: "tsumo",
  RON: "ron",
  PASS: "pass",
  CHI: "chi",
  PON: "pon",
  DAIMINKAN: "daiminkan",
  ANKAN: "ankan",
  KAKAN: "kakan",
  NINE_TERMINALS: "nine_terminals",
} as const;
export type ActionType = (typeof ActionType)[keyof typeof ActionType];

/** A `call` event's `meld` (protocol/messages.py CALL_MELDS). */
export const CallMeld = {
  CHI: "chi",
  PON: "pon",
  KAN: "kan",
  ANKAN: "ankan",
  KAKAN: "kakan",
} as const;
export type CallMeld = (typeof CallMeld)[keyof typeof CallMeld];

/** A `table` message's `state` (protocol/messages.py TABLE_STATES). */
export const TableState = {
  WAITING: "waiting",
  PLAYING: "playing",
  FINISHED: "finished",
  CLOSED: "closed",
} as const;
export type TableState = (typeof TableState)[keyof typeof TableState];

/** Why a `catchup` is followed by a snapshot (protocol/messages.py CATCHUP_REASONS). */
export const CatchupReason = {
  HISTORY: "history",
  RESTART: "restart",
  UNKNOWN_SEQ: "unknown_seq",
} as const;
export type CatchupReason = (typeof CatchupReason)[keyof typeof CatchupReason];

/** A seat's `kind` in a `table` message (protocol/messages.py SEAT_KINDS). */
export const SeatKind = {
  HUMAN: "human",
  BOT: "bot",
} as const;
export type SeatKind = (typeof SeatKind)[keyof typeof SeatKind];

/** A view's `phase` (protocol/messages.py PHASES). */
export const Phase = {
  TURN: "turn",
  CALLS: "calls",
  CHANKAN: "chankan",
  GAME_OVER: "game_over",
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

/** The message types a client sends. */
export type ClientMessageType =
  | "hello"
  | "create_table"
  | "join"
  | "watch"
  | "add_bot"
  | "ready"
  | "act"
  | "leave"
  | "result_closed"
  | "rematch"
  | "ping"
  | "rename"
  | "register_event"
  | "ladder_join";
/** The message types the server sends. */
export type ServerMessageType =
  | "welcome"
  | "table"
  | "catchup"
  | "event"
  | "snapshot"
  | "offer"
  | "timeout"
  | "result"
  | "left"
  | "error"
  | "pong"
  | "rematch_offered"
  | "player"
  | "event_registered"
  | "ladder_joined"
  | "ladder_table"
  | "bye"
  | "session";
