"""What goes into a table core and what comes out: plain, frozen data.

An input is handed to `TableCore.handle` with the `Member` it comes from (None for the
table's own inputs: its clock, the lobby's janitor, the server stopping) and the time as a
number; the core answers with a list of outputs for its actor to carry out, in order.
Nothing here holds a socket, a session object or a store, so inputs and outputs can be
logged, relayed to another process and replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protocol.messages import ByeCode, MessageType
from server.finished import GameFinished
from server.game.actions import Action
from server.rules.config import Rules
from server.store.rows import SeatRow
from server.table.seats import TableState


@dataclass(frozen=True, slots=True)
class Member:
    """A client as a table knows it: outputs are addressed to `id` (its session's), and a
    seat is held by `token_hash` (its resume token's), which outlives the session."""

    id: str
    token_hash: str
    name: str
    program: bool = False  # the client said it is a bot (hello's `bot`): its seat says so
    player_id: str | None = None  # the player's id, when its session knows it (a reserved seat waits for it)


# ---- inputs ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Join:
    """Take a seat (`seat`, else the first free one, else a bot's before the game)."""

    seat: int | None = None
    host: bool = False  # the table's creator: it seats bots and is given the codes


@dataclass(frozen=True, slots=True)
class Watch:
    """Watch the table: the public events only."""


@dataclass(frozen=True, slots=True)
class AddBot:
    seat: int | None = None
    strategy: str | None = None


@dataclass(frozen=True, slots=True)
class Ready:
    pass


@dataclass(frozen=True, slots=True)
class Act:
    """An answer to the offer `decision`; `action` is its plain-data form, checked by the core.
    `kept`: its client's node kept it across a failover (the table's old node never heard
    it): it answers the decision only if this node has not offered it to the seat again,
    since the client answers a new offer anew (docs/cluster.md, "A node lost")."""

    decision: int
    action: Mapping[str, Any]
    kept: bool = False


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table: the client asked (answered with `left`), or (`moved`) it took a
    place at another table, which is the one that answers it."""

    moved: bool = False


@dataclass(frozen=True, slots=True)
class ResultClosed:
    """The member's player has closed the last hand's result (the next hand may start)."""


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The member's connection is gone; its seat is kept."""


@dataclass(frozen=True, slots=True)
class Reconnect:
    """The member is back (a resume): its seat again (`watch`: its place as a spectator),
    caught up from `since`, the last seq it saw; `restart`: the server restarted since."""

    since: int | None = None
    restart: bool = False
    watch: bool = False


@dataclass(frozen=True, slots=True)
class ClockFired:
    """The timer the core last asked for (`SetTimer`) has run out."""


@dataclass(frozen=True, slots=True)
class Abandon:
    """No player has been connected for the server's limit: end the game unfinished."""

    reason: str


TABLE_MOVED = "the table moved to another server node"


@dataclass(frozen=True, slots=True)
class Stop:
    """Close the table: the server is stopping (`keep`: it is rebuilt at the next start), the
    table moved to another node (TABLE_MOVED, kept), or the lobby expired it (`keep` false)."""

    reason: str = "the server is stopping"
    keep: bool = True
    code: ByeCode | None = None  # None: server_restarting when kept, else table_closed


@dataclass(frozen=True, slots=True)
class SitIn:
    """A substitute for the player of `seat` in a game in play (an event's: server/events/runner.py):
    the seat's holder gives it up; it is reserved for `player`, who takes it with the table's invite
    code (played for until then), or a server bot of `strategy` takes it at once."""

    seat: int
    player: str | None = None
    strategy: str | None = None


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The store's answer to `StartGame`: the game's id and the seed it was stored with (None:
    it was stored with the spec's walls, and is dealt from them)."""

    game_id: int
    seed: bytes | None


@dataclass(frozen=True, slots=True)
class Restored:
    """The table was rebuilt after a restart: open its offers again (bots answer at once)."""


@dataclass(frozen=True, slots=True)
class StoreHeld:
    """The table's last step waited `seconds` on its store (the database away): every open
    clock, and the pause between hands, gets that time back."""

    seconds: float


@dataclass(frozen=True, slots=True)
class ExtraTime:
    """The organiser gives the table's session `seconds` more (before its time is up)."""

    seconds: float


Input = (Join | Watch | AddBot | Ready | Act | Leave | ResultClosed | Disconnect | Reconnect | ClockFired | Abandon
         | Stop | GameStarted | Restored | StoreHeld | SitIn | ExtraTime)


# ---- outputs: to members ----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Send:
    """A message to one member."""

    member: str
    message: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Broadcast:
    """One message (encoded once) to several members."""

    members: tuple[str, ...]
    message: Mapping[str, Any]


# ---- outputs: replies for the lobby, which owns each session's membership ----------

@dataclass(frozen=True, slots=True)
class Seated:
    """The member is at this table now, in `seat` (None: as a spectator); `joined`: it came
    by a join or a watch, so any other table it was at lets it go."""

    member: str
    seat: int | None
    joined: bool


@dataclass(frozen=True, slots=True)
class Released:
    """The member is no longer at this table (it left, another connection took its seat over,
    or the table closed)."""

    member: str


@dataclass(frozen=True, slots=True)
class Holds:
    """The resume token now holds `seat` here (None: no seat), or watches the table; a seat
    `handed_to_bot` went to a bot while its player was away."""

    token_hash: str
    seat: int | None
    watching: bool = False
    handed_to_bot: bool = False


@dataclass(frozen=True, slots=True)
class TableClosed:
    """The table has ended: nothing more goes in or comes out."""


# ---- outputs: the table's clock and log --------------------------------------

@dataclass(frozen=True, slots=True)
class SetTimer:
    """Feed `ClockFired` at time `at` (replacing any timer asked for before)."""

    at: float


@dataclass(frozen=True, slots=True)
class CancelTimer:
    pass


@dataclass(frozen=True, slots=True)
class Log:
    event: str
    fields: Mapping[str, Any]
    error: bool = False


# ---- outputs: what the store keeps (in order, before what follows is sent) -------

@dataclass(frozen=True, slots=True)
class SaveTable:
    invite: str
    watch: str
    rules: Rules
    clock: Mapping[str, float] | None
    spec: Mapping[str, Any] | None = None  # the table spec's plain data (TableSpec.to_data)


@dataclass(frozen=True, slots=True)
class SaveSeat:
    row: SeatRow


@dataclass(frozen=True, slots=True)
class SaveSpec:
    """The table's spec changed in play (a substitute's seat: SitIn), kept so that a restart, or
    another node, rebuilds the table with it."""

    spec: Mapping[str, Any]  # TableSpec.to_data


@dataclass(frozen=True, slots=True)
class RemoveSeat:
    seat: int


@dataclass(frozen=True, slots=True)
class SetSeatLeft:
    seat: int
    left: bool


@dataclass(frozen=True, slots=True)
class SetSeatHost:
    seat: int


@dataclass(frozen=True, slots=True)
class SaveWatcher:
    token_hash: str


@dataclass(frozen=True, slots=True)
class RemoveWatcher:
    token_hash: str


@dataclass(frozen=True, slots=True)
class SetTableState:
    state: TableState
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class SetSessionEnd:
    """When the table's session ends, in wall-clock seconds since the epoch (stored: a restart
    or another node keeps the same end)."""

    ends_at: float


@dataclass(frozen=True, slots=True)
class SetBroadcasts:
    """How many table broadcasts the table has sent (so seq goes on after a restart)."""

    count: int


@dataclass(frozen=True, slots=True)
class StartGame:
    """Store a new game with `seed` (None: a fresh one), and answer with `GameStarted`; with
    `walls` (the spec's) the game is stored with them and dealt from them, and has no seed."""

    rules: Rules
    names: tuple[str, ...]
    seed: bytes | None = None
    walls: tuple[tuple[int, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class AppendDecisions:
    """Decisions first_index, first_index+1, ... of a game (the store's group commit)."""

    game_id: int
    first_index: int
    decisions: tuple[tuple[int, Action], ...]


@dataclass(frozen=True, slots=True)
class FinishGame:
    game_id: int
    final: Mapping[str, Any]
    result_seq: int | None  # the seq of the `result` broadcast (None: abandoned, no result)


@dataclass(frozen=True, slots=True)
class Announce:
    """Publish the game's end (server/finishes.py): it comes right after the FinishGame that
    stores it."""

    finished: GameFinished


Persist = (SaveTable | SaveSeat | RemoveSeat | SetSeatLeft | SetSeatHost | SaveWatcher | RemoveWatcher
           | SetTableState | SetBroadcasts | StartGame | AppendDecisions | FinishGame | SetSessionEnd | SaveSpec)
Output = Send | Broadcast | Seated | Released | Holds | TableClosed | SetTimer | CancelTimer | Log | Persist | Announce


def from_client(message: Mapping[str, Any]) -> Input | None:
    """The input a client's checked message (protocol.messages.check) makes for its table, or
    None for a message that is not a table's (create_table, join, watch, hello, ping)."""
    match message["type"]:
        case MessageType.ACT:
            return Act(message["decision"], message["action"])
        case MessageType.READY:
            return Ready()
        case MessageType.LEAVE:
            return Leave()
        case MessageType.ADD_BOT:
            return AddBot(message.get("seat"), message.get("strategy"))
        case MessageType.RESULT_CLOSED:
            return ResultClosed()
    return None
