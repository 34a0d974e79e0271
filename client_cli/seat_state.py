"""One seat's (or a spectator's) picture of a game, kept from a snapshot and the events after it.

The server sends a `snapshot` (the seat's whole view) when a client joins late or resumes,
and otherwise only events.  `SeatState` turns those events back into the same view the
server would send in a snapshot: the shape of `server.game.views.seat_view` without its
`actions` (a spectator: `public_view`).  Clients and bots read `.view`; they never have to
track the game themselves.

The seat's waits and furiten are worked out here, by the engine's own rules (EMA
'Furiten', one function for both: server.game.analysis.furiten): a tile of the seat's waits that another player discards, or adds to a kong,
and that the seat lets go by makes it furiten until its next draw (for good after its
riichi).  Such a tile has been let go by once the next event shows the game went on (any
event but the call window that follows it), which is when the engine marks it.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from protocol.events import AbortiveReason, EventType, HandResult
from protocol.messages import MessageType
from server.game import analysis
from server.rules.config import preset

Event = dict[str, Any]


def red_fives_of(rules: str | None, overrides: dict[str, Any] | None = None) -> bool:
    """Whether a game plays with red fives: the table's override (game_start and views carry
    them), else its preset's (tenhou: yes, ema2016: no; an unknown preset: yes)."""
    if overrides and isinstance(overrides.get("red_fives"), bool):
        return overrides["red_fives"]
    try:
        return preset(rules).red_fives  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return True


def _won_on_the_tile(result: dict[str, Any]) -> bool:
    """A hand that ended on the tile itself (a ron, or three of them) let nothing go by."""
    return result["type"] == HandResult.WIN or result.get("reason") == AbortiveReason.TRIPLE_RON


def empty_seat() -> dict[str, Any]:
    return {"discards": [], "tsumogiri": [], "claimed": [], "riichi_index": None, "riichi": False, "melds": []}


class SeatState:
    """What `seat` knows of the game (None: a spectator, public events only)."""

    def __init__(self, seat: int | None = None):
        self.seat = seat
        self.view: dict[str, Any] | None = None  # None until game_start or a snapshot
        self.temporary_furiten = False
        self.riichi_furiten = False
        self._deferred: list[Callable[[], None]] = []  # applied at the next event that is not a call window

    # ---- loading --------------------------------------------------------------

    def load_snapshot(self, view: dict[str, Any]) -> None:
        """Start again from a server snapshot (its `actions` are the offer's business, not kept)."""
        self.view = {k: copy.deepcopy(v) for k, v in view.items() if k != "actions"}
        you = self.view.get("you")
        self._deferred = []
        if you is not None:
            self.seat = you["seat"]
            # The snapshot says whether the seat is furiten, not why; after a snapshot a
            # furiten seat is taken as temporarily furiten (for good if in riichi).
            furiten_by_discards = analysis.furiten(you["waits"], self.view["seats"][self.seat]["discards"])
            self.temporary_furiten = you["furiten"] and not furiten_by_discards
            self.riichi_furiten = self.temporary_furiten and self.view["seats"][self.seat]["riichi"]

    def handle(self, message: dict[str, Any]) -> bool:
        """Feed a server message; True if it changed the view (a snapshot or an event)."""
        if message.get("type") == MessageType.SNAPSHOT:
            self.load_snapshot(message["view"])
            return True
        if message.get("type") == MessageType.EVENT:
            self.apply(message["event"])
            return True
        return False

    # ---- events ---------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """One game event as this seat sees it."""
        kind = event["type"]
        if self._deferred:
            deferred, self._deferred = self._deferred, []
            if not (kind == EventType.HAND_END and _won_on_the_tile(event["result"])):
                for step in deferred:
                    step()
        if self.view is None and kind != EventType.GAME_START:
            return  # joined mid-game without a snapshot: nothing to build on
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(event)

    def _on_game_start(self, e: Event) -> None:
        self.view = {
            "rules": e["rules"], "overrides": dict(e.get("overrides", {})), "names": list(e["names"]),
            "seed_hash": e["seed_hash"],  # (None: a game dealt from given walls has no seed)
            "round": "E1", "round_wind": 0, "dealer": 0, "honba": 0, "sticks": 0,
            "scores": list(e["scores"]), "dora_indicators": [], "tiles_left": 0, "turn": 0,
            "phase": "turn", "last_discard": None, "hand_sizes": [0, 0, 0, 0],
            "seats": [empty_seat() for _ in range(4)], "final": None,
        }
        if self.seat is not None:
            self.view["you"] = {"seat": self.seat, "hand": [], "drawn": None, "waits": [], "furiten": False}

    def _on_hand_start(self, e: Event) -> None:
        v = self.view
        for key in ("round", "round_wind", "dealer", "honba", "sticks"):
            v[key] = e[key]
        v["scores"] = list(e["scores"])
        v["dora_indicators"] = list(e["dora_indicators"])
        v["seats"] = [empty_seat() for _ in range(4)]
        v["hand_sizes"] = [13, 13, 13, 13]
        v["last_discard"] = None
        v["tiles_left"] = 70
        self.temporary_furiten = self.riichi_furiten = False
        you = v.get("you")
        if you is not None and "hand" in e:
            you["hand"] = sorted(e["hand"])
            you["drawn"] = None
            self._update_waits()

    def _on_draw(self, e: Event) -> None:
        v, seat = self.view, e["seat"]
        v["tiles_left"] = e["tiles_left"]
        v["hand_sizes"][seat] += 1
        v["turn"], v["phase"] = seat, "turn"
        if seat == self.seat and "tile" in e:
            you = v["you"]
            you["hand"] = sorted(you["hand"] + [e["tile"]])
            you["drawn"] = e["tile"]
            if not self.riichi_furiten:
                self.temporary_furiten = False
            self._update_furiten()

    def _on_discard(self, e: Event) -> None:
        v, seat, tile = self.view, e["seat"], e["tile"]
        sp = v["seats"][seat]
        sp["discards"].append(tile)
        sp["tsumogiri"].append(e["tsumogiri"])
        if e["riichi"]:
            sp["riichi_index"] = len(sp["discards"]) - 1
        v["hand_sizes"][seat] -= 1
        v["last_discard"] = tile
        v["phase"] = "calls"  # every discard opens a window for calls, offered or not
        if seat == self.seat:
            you = v["you"]
            you["hand"].remove(tile)
            you["drawn"] = None
            self._update_waits()
        elif self.seat is not None:
            self._deferred.append(lambda: self._let_go_by(tile))

    def _on_riichi_accepted(self, e: Event) -> None:
        v = self.view
        v["seats"][e["seat"]]["riichi"] = True
        v["scores"] = list(e["scores"])
        v["sticks"] = e["sticks"]

    def _on_call(self, e: Event) -> None:
        v, seat, meld = self.view, e["seat"], e["meld"]
        tiles = list(e["tiles"])
        melds = v["seats"][seat]["melds"]
        mine = seat == self.seat
        if meld == "kakan":
            pon = next(m for m in melds if m["kind"] == "pon" and m["tiles"][0] >> 2 == tiles[0] >> 2)
            pon["kind"], pon["tiles"] = "kakan", tiles
            v["hand_sizes"][seat] -= 1
            own = [e["called"]]
            if not mine and self.seat is not None:
                self._deferred.append(lambda: self._let_go_by(e["called"]))
        elif meld == "ankan":
            melds.append({"kind": "ankan", "tiles": tiles, "called": None, "from": None})
            v["hand_sizes"][seat] -= 4
            own = tiles
        else:
            discarder = e["from"]
            melds.append({"kind": meld, "tiles": tiles, "called": e["called"], "from": discarder})
            claimed = v["seats"][discarder]["claimed"]
            claimed.append(len(v["seats"][discarder]["discards"]) - 1)
            claimed.sort()
            own = list(tiles)
            own.remove(e["called"])
            v["hand_sizes"][seat] -= len(own)
            v["last_discard"] = None
            v["turn"], v["phase"] = seat, "turn"
        if meld in ("kakan", "ankan"):
            v["phase"] = "chankan"  # the kong may be robbed, whether or not anyone can
        if mine:
            you = v["you"]
            for t in own:
                you["hand"].remove(t)
            if meld in ("chi", "pon", "kan"):
                you["drawn"] = None
                self.temporary_furiten = self.riichi_furiten  # a claim ends temporary furiten
            if meld in ("kan", "ankan", "kakan"):
                self._deferred.append(self._update_waits)  # the kong counts once no one robs it
            self._update_furiten()

    def _on_dora(self, e: Event) -> None:
        self.view["dora_indicators"] = list(e["dora_indicators"])

    def _on_hand_end(self, e: Event) -> None:
        result = e["result"]
        self.view["scores"] = list(result["scores"])
        if result["type"] == HandResult.WIN:
            self.view["sticks"] = 0

    def _on_game_end(self, e: Event) -> None:
        v = self.view
        scores = list(e["scores"])
        if v["sticks"] and sum(scores) - sum(v["scores"]) == 1000 * v["sticks"]:
            v["sticks"] = 0  # the leftover sticks went to first place
        v["scores"] = scores
        v["final"] = {k: e[k] for k in ("scores", "places", "results", "seed") if k in e}
        v["phase"] = "game_over"

    # ---- waits and furiten ----------------------------------------------------

    def _update_waits(self) -> None:
        you = self.view["you"]
        melds = self.view["seats"][self.seat]["melds"]
        counts = analysis.counts34(you["hand"])
        held = list(counts)
        for m in melds:
            for t in m["tiles"]:
                held[t >> 2] += 1
        you["waits"] = list(analysis.hand_waits(counts, len(melds), held))
        self._update_furiten()

    def _let_go_by(self, tile: int) -> None:
        if self.view is None or "you" not in self.view:
            return
        if tile >> 2 in self.view["you"]["waits"]:
            self.temporary_furiten = True
            if self.view["seats"][self.seat]["riichi"]:
                self.riichi_furiten = True
        self._update_furiten()

    def _update_furiten(self) -> None:
        you = self.view["you"]
        you["furiten"] = analysis.furiten(set(you["waits"]), self.view["seats"][self.seat]["discards"],
                                          self.temporary_furiten, self.riichi_furiten)
