"""A finished game as the replay viewer reads it: hand by hand, each hand a list of steps (one
step an event: a draw, a discard, a call, a riichi, a kong's dora, the hand's end), and after
every step all four concealed hands, open.

The page draws the table from each step's event in its spectator form, with the very code a
live spectator's page runs (web/src/seat_state.ts), and lays the four hands of the step over
it: a spectator's events never carry a concealed tile, so the hands are followed here, from
the events' private parts (`ConcealedHands`).  Each hand also says its result, the dora
indicators it ended with and its ura indicators.

Only a game played to its end is made into a document (server/downloads.py refuses the
others, as it refuses their records): the document shows every concealed tile.  The same
document is made for a Tenhou log dropped on the page (server/dropped_log.py); a log's wall
holds filler tiles where it showed none, so its ura indicators are shown only where a win
revealed them (`wall_known`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.events import EventType
from server.game.events import Event
from server.game.record import GameRecord, RecordError
from server.game.wall import URA_INDICATORS
from server.rules.melds import MeldKind

FORMAT = "riichi-replay/1"
NOT_STEPS = (EventType.GAME_START, EventType.GAME_END, EventType.STOPPED)  # the game's frame, not a hand's


@dataclass
class ConcealedHands:
    """The four concealed hands (a drawn tile included, as the engine keeps them) and each
    seat's drawn tile, followed through the events with their private parts."""

    hands: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    drawn: list[int | None] = field(default_factory=lambda: [None] * 4)

    def follow(self, event: Event) -> None:
        """The hands after `event`."""
        kind, public = event.type, event.public
        if kind is EventType.HAND_START:
            self.hands = [sorted(event.private[seat]["hand"]) for seat in range(4)]
            self.drawn = [None] * 4
        elif kind is EventType.DRAW:
            seat = public["seat"]
            tile = event.private[seat]["tile"]
            self.hands[seat] = sorted([*self.hands[seat], tile])
            self.drawn[seat] = tile
        elif kind is EventType.DISCARD:
            self._remove(public["seat"], [public["tile"]])
            self.drawn[public["seat"]] = None
        elif kind is EventType.CALL:
            seat, own = public["seat"], self._own_tiles(public)
            self._remove(seat, own)
            if self.drawn[seat] in own:  # a kong of the drawn tile; another kong keeps it apart, as the engine does
                self.drawn[seat] = None

    @staticmethod
    def _own_tiles(call: dict[str, Any]) -> list[int]:
        """The tiles a call takes out of the caller's hand."""
        meld = MeldKind(call["meld"])
        if meld is MeldKind.KAKAN:
            return [call["called"]]
        own = list(call["tiles"])
        if meld is not MeldKind.ANKAN:
            own.remove(call["called"])
        return own

    def _remove(self, seat: int, tiles: list[int]) -> None:
        hand = self.hands[seat]
        for tile in tiles:
            if tile not in hand:
                raise RecordError(f"seat {seat} gives up tile {tile}, which its hand does not hold")
            hand.remove(tile)

    def snapshot(self) -> dict[str, Any]:
        return {"hands": [list(hand) for hand in self.hands], "drawn": list(self.drawn)}


class _Builder:
    """The document, filled in event by event."""

    def __init__(self, record: GameRecord, wall_known: bool):
        self.wall_known = wall_known
        self.concealed = ConcealedHands()
        self.hand: dict[str, Any] | None = None
        self.dora: list[int] = []
        self.doc: dict[str, Any] = {"format": FORMAT, "names": list(record.names), "start": None, "hands": [],
                                    "final": None}

    def take(self, events: list[Event], wall: list[int]) -> None:
        """Events of one decision; `wall` the wall of the hand they belong to (a hand's end)."""
        for event in events:
            if event.type is EventType.GAME_START:
                self.doc["start"] = event.for_seat(None)
            elif event.type is EventType.GAME_END:
                self.doc["final"] = event.for_seat(None)
            elif event.type not in NOT_STEPS:
                self._step(event, wall)

    def _step(self, event: Event, wall: list[int]) -> None:
        public = event.public
        if event.type is EventType.HAND_START:
            self.hand = {"round": public["round"], "honba": public["honba"], "dealer": public["dealer"],
                         "hand_number": public["hand_number"], "result": None, "dora": [], "ura": [], "steps": []}
            self.doc["hands"].append(self.hand)
            self.dora = list(public["dora_indicators"])
        if self.hand is None:
            raise RecordError(f"a {event.type} event before the first hand's start")
        if event.type is EventType.DORA:
            self.dora = list(public["dora_indicators"])
        self.concealed.follow(event)
        self.hand["steps"].append({"event": event.for_seat(None), **self.concealed.snapshot()})
        if event.type is EventType.HAND_END:
            result = public["result"]
            self.hand["result"] = result
            self.hand["dora"] = list(self.dora)
            self.hand["ura"] = self._ura(result, wall)

    def _ura(self, result: dict[str, Any], wall: list[int]) -> list[int]:
        shown = list(result.get("ura_indicators") or [])
        if shown or not self.wall_known or len(wall) <= URA_INDICATORS[0]:
            return shown
        return [wall[URA_INDICATORS[i]] for i in range(len(self.dora))]


def replay_document(record: GameRecord, wall_known: bool = True) -> dict[str, Any]:
    """The replay viewer's document of a finished game's record; `wall_known`: the record's
    walls are the walls played (ours), not a log's rebuilt ones.  RecordError at a decision the
    replay cannot follow."""
    game = record.new_game()
    builder = _Builder(record, wall_known)
    builder.take(list(game.start_events), game.hidden.wall)
    for index, (seat, action) in enumerate(record.decisions):
        wall = game.hidden.wall  # the hand's, before a decision that ends it starts the next
        try:
            events = game.apply(seat, action)
        except ValueError as error:
            raise RecordError(f"decision {index + 1} (seat {seat}): {error}") from None
        builder.take(events, wall)
    doc = builder.doc
    doc["rules"] = game.rules.name
    return doc
