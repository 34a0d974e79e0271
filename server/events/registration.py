"""Self-registration from an event's link (issue 27; docs/events.md): the organiser hands out
`http(s)://HOST/events/ID/register#TOKEN`, a player opens it in the browser, and the page
registers its player key over the websocket (`register_event`, server/app.py).  The token is
kept only as its hash (as player keys are); a lost one is replaced by a new one (`event link`),
and the old link stops working.  Registration closes when the first round starts.
"""

from __future__ import annotations

import secrets

from server.events.service import event_of
from server.events.spec import EventError
from server.identity import key_hash
from server.store.event_rows import EventRow
from server.store.protocol import Store

REGISTER_PATH = "/events/{event}/register"


def registration_link(page: str, event_id: str, token: str) -> str:
    """The link a player opens to register (`page` the server's address as players reach it): the
    token is in the fragment, which a browser never sends on, so it is in no server's log."""
    return page.rstrip("/") + REGISTER_PATH.format(event=event_id) + "#" + token


async def new_registration(store: Store, event_id: str) -> str:
    """A new self-registration token for the event (shown once; the one before stops working)."""
    await event_of(store, event_id)
    token = secrets.token_urlsafe(12)
    await store.set_event_registration(event_id, key_hash(token))
    return token


async def register(store: Store, event_id: str, token: str, player_id: str, name: str) -> tuple[EventRow, bool]:
    """The player added to the event whose token this is, under `name` (False: in it already).
    EventError saying what to do: a token that is not this event's, a round already started, or
    a name another player of the event has."""
    event = await store.event_of_registration(key_hash(token))
    if event is None or event.id != event_id:
        raise EventError("this registration link is no event's (or was replaced): ask the organiser for the link"
                         " again")
    players = await store.event_players(event.id)
    if player_id in players:
        return event, False
    if not await store.event_tables(event.id):
        for other in players:
            row = await store.player(other)
            if row is not None and row.name.casefold() == name.casefold():
                raise EventError(f"another player of {event.name} is named {name}: choose another name")
        if await store.register_event_player(event.id, player_id):  # (not once round 1 is written: one
            return event, True  # after the other, so that a player told they are in is seated in it)
        if player_id in await store.event_players(event.id):
            return event, False
    raise EventError(f"registration for {event.name} closed when its first round started: ask the organiser,"
                     " who can add you with `riichi-server event add`")
