"""The clients' messages, built: one constructor for each client message type, named after it.

These are how the Python clients (riichi-play, the bot SDK and riichi-bot, the mjai bridge,
protocol/client.py) build every message they send, as the server builds its own with
protocol/server_messages.py (tests/protocol/test_client_messages.py proves that every client
type of protocol/messages.py has one, whose parameters are the type's fields, and that no
client builds a message by hand).  Each returns the map as it goes on the wire, its fields
in the order the clients have always sent them; a field the protocol lets be left out is a
parameter that defaults to None and is left out when it is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protocol.messages import VERSION, MessageType

_T = MessageType


def _present(**fields: Any) -> dict[str, Any]:
    """The fields that are not None (the ones a message may leave out)."""
    return {name: value for name, value in fields.items() if value is not None}


def hello(name: str, version: int = VERSION, resume: str | None = None, since: int | None = None,
          bot: bool | None = None, client: str | None = None, takeover: bool | None = None,
          player: str | None = None) -> dict[str, Any]:
    """The first message of every connection: who the client is (`player` its secret player
    key), and with `resume` the session it takes back, from `since`."""
    return {"type": _T.HELLO.value, "name": name, "version": version,
            **_present(bot=bot, client=client, takeover=takeover, player=player, resume=resume, since=since)}


def create_table(rules: str | None = None, overrides: Mapping[str, Any] | None = None,
                 clock: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Open a private table and host it (the server's defaults for what is left out)."""
    return {"type": _T.CREATE_TABLE.value, **_present(rules=rules, overrides=overrides, clock=clock)}


def join(code: str, seat: int | None = None) -> dict[str, Any]:
    """Take a seat (`seat`, else a free one) at the table of the invite code."""
    return {"type": _T.JOIN.value, "code": code, **_present(seat=seat)}


def watch(code: str) -> dict[str, Any]:
    """Watch the table of the watch code."""
    return {"type": _T.WATCH.value, "code": code}


def add_bot(seat: int | None = None, strategy: str | None = None) -> dict[str, Any]:
    """(The host) seat one of the server's bots: in `seat`, else the next free one."""
    return {"type": _T.ADD_BOT.value, **_present(seat=seat, strategy=strategy)}


def ready() -> dict[str, Any]:
    return {"type": _T.READY.value}


def act(decision: int, action: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to the offer of `decision`: one of the actions it offered."""
    return {"type": _T.ACT.value, "decision": decision, "action": action}


def leave() -> dict[str, Any]:
    return {"type": _T.LEAVE.value}


def result_closed() -> dict[str, Any]:
    """The player closed the hand's result: the next hand's clock may start."""
    return {"type": _T.RESULT_CLOSED.value}


def rematch(game: int) -> dict[str, Any]:
    """A new game of the players and bots of `game`, which ended lately."""
    return {"type": _T.REMATCH.value, "game": game}


def ping(id: int | str | None = None) -> dict[str, Any]:  # noqa: A002 (the field's name)
    """Asks for a `pong` (with this id): the server is there."""
    return {"type": _T.PING.value, **_present(id=id)}


def rename(name: str) -> dict[str, Any]:
    """The player's display name from now on."""
    return {"type": _T.RENAME.value, "name": name}


def register_event(event: str, token: str, name: str | None = None) -> dict[str, Any]:
    """Self-registration for an event by its link's token, under `name` (the player's, if none)."""
    return {"type": _T.REGISTER_EVENT.value, "event": event, "token": token, **_present(name=name)}
def ladder_join(ladder: str) -> dict[str, Any]:
    """Queue this connection's player (a bot, said with its key) on `ladder` (docs/ladder.md)."""
    return {"type": _T.LADDER_JOIN.value, "ladder": ladder}
