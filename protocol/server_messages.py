"""The server's messages, built: one constructor for each server message type, named after it.

These are the one way the server builds a message (tests/protocol/test_server_messages.py
proves that every server type of protocol/messages.py has one, whose parameters are the
type's fields).  Each returns the map as it goes on the wire, its fields in the order the
clients have always received them; a field the protocol lets be left out is a parameter that
defaults to None and is left out when it is None.  `event` and `result` go to many clients at
once, so they are Messages (encoded once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from protocol.messages import VERSION, ByeCode, ErrorCode, Message, MessageType

_T = MessageType


def _present(**fields: Any) -> dict[str, Any]:
    """The fields that are not None (the ones a message may leave out)."""
    return {name: value for name, value in fields.items() if value is not None}


def welcome(session: str, resume: str, resumed: bool, player: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The answer to hello: the session's id and its resume token, whether a seat was taken
    back, and the player the hello's key names ({id, name}) when it has one."""
    return {"type": _T.WELCOME.value, "version": VERSION, "session": session, "resume": resume, "resumed": resumed,
            **_present(player=player)}


def table(seq: int, table: str, state: str, rules: str, clock: Mapping[str, Any] | None, you: int | None,
          game: int | None, seats: Sequence[Mapping[str, Any] | None], invite: str | None = None,
          watch: str | None = None, session: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A table's seats and state as `you` sees them (None: a spectator); the host's also has the
    codes; a timed table's its session clock."""
    return {"type": _T.TABLE.value, "seq": seq, "table": table, "state": state, "rules": rules, "clock": clock,
            "you": you, "game": game, "seats": seats, **_present(invite=invite, watch=watch, session=session)}


def session(seq: int, session: Mapping[str, Any], extra_ms: int | None = None) -> dict[str, Any]:
    """A table's session clock as it is now: the organiser gave extra time (`extra_ms`), or the
    time is up."""
    return {"type": _T.SESSION.value, "seq": seq, "session": dict(session), **_present(extra_ms=extra_ms)}


def table_for(base: Mapping[str, Any], you: int | None, invite: str | None = None,
              watch: str | None = None) -> dict[str, Any]:
    """A table message built for everyone (`you` None) as it goes to `you`."""
    return {**base, "you": you, **_present(invite=invite, watch=watch)}


def catchup(seq: int, since: int, reason: str | None = None) -> dict[str, Any]:
    """What a resume gets: the broadcasts after `since` follow (reason None), or a snapshot does (why)."""
    return {"type": _T.CATCHUP.value, "seq": seq, "since": since, "replay": reason is None, **_present(reason=reason)}


def event(seq: int, event: Mapping[str, Any]) -> Message:
    """A game event as one seat (or every spectator) may see it."""
    return Message(type=_T.EVENT.value, seq=seq, event=event)


def snapshot(seq: int, game: int, view: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's (or a spectator's) whole view of the game, instead of what it missed."""
    return {"type": _T.SNAPSHOT.value, "seq": seq, "game": game, "view": view}


def offer(seq: int, decision: int, seat: int, actions: list[dict[str, Any]], deadline_ms: int | None = None,
          bank_ms: int | None = None) -> dict[str, Any]:
    """The actions a seat may take for `decision`, with its time left when the table has a clock."""
    return {"type": _T.OFFER.value, "seq": seq, "decision": decision, "seat": seat, "actions": actions,
            **_present(deadline_ms=deadline_ms, bank_ms=bank_ms)}


def timeout(seq: int, decision: int, action: dict[str, Any]) -> dict[str, Any]:
    """A seat's time ran out: the server played `action` for it."""
    return {"type": _T.TIMEOUT.value, "seq": seq, "decision": decision, "action": action}


def result(seq: int, game: int, final: Mapping[str, Any], you: int | None = None,
           names: Sequence[str] | None = None, uma: Sequence[float] | None = None) -> Message:
    """A game's final standings: with `uma` when it ends, with `you` and `names` when sent again after the end."""
    return Message(type=_T.RESULT.value, seq=seq, game=game, final=final, **_present(you=you, names=names, uma=uma))


def left(seq: int, table: str, seat: int | None, seat_kept: bool) -> dict[str, Any]:
    """A client left the table: the seat it had, and whether the seat is kept for it."""
    return {"type": _T.LEFT.value, "seq": seq, "table": table, "seat": seat, "seat_kept": seat_kept}


def error(code: ErrorCode, message: str, decision: int | None = None, version: int | None = None) -> dict[str, Any]:
    """An error frame; the message is kept to one line, whatever client text it quotes.
    Raises ValueError for a code ErrorCode does not define: none is sent that clients cannot know."""
    one_line = "".join(c if c.isprintable() else " " for c in message)
    return {"type": _T.ERROR.value, "code": ErrorCode(code).value, "message": one_line[:300],
            **_present(decision=decision, version=version)}


def pong(id: int | str | None = None) -> dict[str, Any]:  # noqa: A002 (the field's name)
    """The answer to a ping, with the ping's id if it had one."""
    return {"type": _T.PONG.value, **_present(id=id)}


def rematch_offered(game: int, invite: str, seat: int, by: str) -> dict[str, Any]:
    """To a player of a game that ended: `by` asked for its rematch, at the table of `invite`."""
    return {"type": _T.REMATCH_OFFERED.value, "game": game, "invite": invite, "seat": seat, "by": by}


def player(id: str, name: str) -> dict[str, Any]:  # noqa: A002 (the field's name)
    """The connection's player as it is now: the answer to a rename."""
    return {"type": _T.PLAYER.value, "id": id, "name": name}


def event_registered(event: str, event_name: str, player: dict[str, str], added: bool) -> dict[str, Any]:
    """The answer to register_event: the player (`{id, name}`) is in the event (`added` false: was already)."""
    return {"type": _T.EVENT_REGISTERED.value, "event": event, "event_name": event_name, "player": player,
            "added": added}
def ladder_joined(ladder: str, player: str) -> dict[str, Any]:
    """A bot (`player`) is queued on `ladder`: its tables follow as they open."""
    return {"type": _T.LADDER_JOINED.value, "ladder": ladder, "player": player}


def ladder_table(ladder: str, set: int, rotation: int, invite: str, seat: int) -> dict[str, Any]:  # noqa: A002
    """The table of a queued bot's next game on `ladder`: game `rotation` of duplicate set `set`,
    its seat there (reserved for it: join with `invite`)."""
    return {"type": _T.LADDER_TABLE.value, "ladder": ladder, "set": set, "rotation": rotation, "invite": invite,
            "seat": seat}


def bye(code: ByeCode, reason: str, seq: int | None = None) -> dict[str, Any]:
    """A bye frame: `code` for programs, `reason` for people (no seq: at no table)."""
    return {"type": _T.BYE.value, "code": ByeCode(code).value, "reason": reason, **_present(seq=seq)}
