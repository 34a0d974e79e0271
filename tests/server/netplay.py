"""Helpers for the socket-level server tests (test_no_leaks, test_fuzz, test_flood).

- `Player`: one websocket connection speaking the protocol for one seat; it records every
  frame it receives (decoded, strictly: binary frames only, one msgpack map, no trailing
  bytes) and answers each offer with a random legal action (`uniform`) or a random legal
  action biased towards winning, riichi and the discard that lowers shanten (`greedy`), so
  that games reach wins, riichi wins (ura indicators), kongs and tenpai at a draw often.
- `Watcher`: a spectator connection that records every frame.
- `play_bot_table` / `play_human_table`: one whole private game through the real server.
- `LeakChecker`: after a game, checks every frame every seat and spectator received against
  the protocol's definitions (protocol/messages.py `check_server`, which also finds every
  tile id in it) and what that receiver may know; the truth comes from the game's seed
  (revealed in the final result) and the public events, not from the frames being checked.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import connect

from protocol.messages import CLIENT_MESSAGES, PRIVATE_EVENT_FIELDS, VERSION, ProtocolError, check_server, encode
from server.game.analysis import counts34, hand_waits
from server.game.wall import DORA_INDICATORS, REPLACEMENTS, URA_INDICATORS, deal, shuffled_wall
from server.rules.shanten import shanten

RECV_TIMEOUT = 30.0


def decode_frame(frame: Any) -> dict[str, Any]:
    """A server frame, decoded strictly: binary, one msgpack map, no trailing bytes."""
    assert isinstance(frame, bytes), f"the server sent a text frame: {frame!r:.80}"
    message = msgpack.unpackb(frame, raw=False, strict_map_key=True)  # ExtraData on trailing bytes
    assert isinstance(message, dict) and isinstance(message.get("type"), str), f"not a message: {message!r:.80}"
    return message


class Conn:
    """A bare protocol connection that records what it receives."""

    def __init__(self, ws, name: str):
        self.ws, self.name = ws, name
        self.frames: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None

    @classmethod
    async def open(cls, url: str, name: str, resume: str | None = None, since: int | None = None) -> Conn:
        conn = cls(await connect(url, max_size=None, open_timeout=10, ping_interval=None), name)
        hello: dict[str, Any] = {"type": "hello", "name": name, "version": VERSION}
        if resume:
            hello["resume"] = resume
        if since is not None:
            hello["since"] = since
        await conn.send(hello)
        conn.welcome = await conn.recv()
        assert conn.welcome["type"] == "welcome", conn.welcome
        return conn

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(encode(message))

    async def recv(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        message = decode_frame(await asyncio.wait_for(self.ws.recv(), timeout))
        message["_t"] = time.monotonic()  # receive time (stripped before the leak check)
        self.frames.append(message)
        return message

    async def until(self, kind: str, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def close(self) -> None:
        await self.ws.close()


# ---- choosing an action ---------------------------------------------------------------

class HandTracker:
    """The seat's own concealed hand and meld count, read from the events it receives."""

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.melds = 0

    def see(self, seat: int, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "hand_start" and "hand" in event:
            self.hand, self.melds = list(event["hand"]), 0
        elif kind == "draw" and event["seat"] == seat and "tile" in event:
            self.hand.append(event["tile"])
        elif kind == "discard" and event["seat"] == seat and event["tile"] in self.hand:
            self.hand.remove(event["tile"])
        elif kind == "call" and event["seat"] == seat:
            self.melds += event["meld"] != "kakan"
            own = list(event["tiles"])
            if event["meld"] in ("chi", "pon", "kan"):
                own.remove(event["called"])
            elif event["meld"] == "kakan":
                own = [event["called"]]
            for t in own:
                if t in self.hand:
                    self.hand.remove(t)


def choose(actions: list[dict[str, Any]], tracker: HandTracker, rng: random.Random, style: str) -> dict[str, Any]:
    """A legal action: uniformly at random, or `greedy` (random, biased towards progress)."""
    if style == "uniform":
        return rng.choice(actions)
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in actions:
        by_type["riichi" if a.get("riichi") else a["type"]].append(a)
    for kind, p in (("tsumo", 0.95), ("ron", 0.95), ("riichi", 0.8), ("ankan", 0.6), ("kakan", 0.6),
                    ("daiminkan", 0.4), ("pon", 0.3), ("chi", 0.2), ("nine_terminals", 0.5)):
        if by_type.get(kind) and rng.random() < p:
            return rng.choice(by_type[kind])
    if by_type.get("pass"):
        return by_type["pass"][0]
    discards = by_type.get("discard") or by_type.get("riichi") or actions
    if len(discards) > 1 and rng.random() < 0.85 and tracker.hand:
        counts = counts34(tracker.hand)
        scored = []
        for d in discards:
            if "tile" not in d:
                continue
            k = d["tile"] >> 2
            if counts[k] == 0:
                continue
            counts[k] -= 1
            try:
                scored.append((shanten(counts, tracker.melds), rng.random(), d))
            except ValueError:
                pass
            counts[k] += 1
        if scored:
            return min(scored, key=lambda x: x[:2])[2]
    return rng.choice(discards)


# ---- players and spectators -------------------------------------------------------------

class Player(Conn):
    """One seat played over its own connection."""

    rng: random.Random
    style: str
    seat: int | None

    def setup(self, rng: random.Random, style: str) -> Player:
        self.rng, self.style, self.seat = rng, style, None
        self.tracker = HandTracker()
        self.result: dict[str, Any] | None = None
        self.offers = 0
        self.latencies: list[float] = []  # act sent -> next message received, seconds
        return self

    async def play(self, stop_after: int | None = None, on_offer=None) -> dict[str, Any] | None:
        """Answer offers until the result and the bye (or until `stop_after` offers)."""
        sent_at: float | None = None
        while True:
            message = await self.recv()
            if sent_at is not None:
                self.latencies.append(message["_t"] - sent_at)
                sent_at = None
            kind = message["type"]
            if kind == "table" and message.get("you") is not None:
                self.seat = message["you"]
            elif kind == "snapshot" and "you" in message["view"]:
                you = message["view"]["you"]
                self.tracker.hand = list(you["hand"])
                self.tracker.melds = len(message["view"]["seats"][you["seat"]]["melds"])
            elif kind == "event":
                self.tracker.see(self.seat, message["event"])
            elif kind == "offer":
                if stop_after is not None and self.offers >= stop_after:
                    return None
                self.offers += 1
                if on_offer is not None:
                    await on_offer(self, message)
                action = choose(message["actions"], self.tracker, self.rng, self.style)
                sent_at = time.monotonic()
                await self.send({"type": "act", "decision": message["decision"], "action": action})
            elif kind == "result":
                self.result = message
            elif kind == "bye":
                return self.result
            elif kind == "error":
                raise AssertionError(f"{self.name} got an error: {message}")


class Watcher(Conn):
    async def watch(self) -> dict[str, Any] | None:
        result = None
        while True:
            message = await self.recv()
            if message["type"] == "result":
                result = message
            elif message["type"] == "bye":
                return result


@dataclass
class Played:
    """One game: who received what (receiver name -> (seat or None, frames))."""
    rules: str
    result: dict[str, Any]
    streams: dict[str, tuple[int | None, list[dict[str, Any]]]] = field(default_factory=dict)
    reference: str = "seat0"


async def _seat_humans(url: str, rules: str, rng: random.Random, styles: list[str], bots: list[str]) \
        -> tuple[Player, list[Player], dict[str, Any]]:
    host = (await Player.open(url, "seat0")).setup(random.Random(rng.random()), styles[0])
    await host.send({"type": "create_table", "rules": rules, "clock": {"none": True}})
    table = await host.until("table")
    host.seat = 0
    guests = []
    for i in range(1, 4 - len(bots)):
        guest = (await Player.open(url, f"seat{i}")).setup(random.Random(rng.random()), styles[i])
        await guest.send({"type": "join", "code": table["invite"], "seat": i})
        assert (await guest.until("table"))["you"] == i
        guest.seat = i
        guests.append(guest)
    for strategy in bots:
        await host.send({"type": "add_bot", "strategy": strategy})
    return host, guests, table


async def play_table(url: str, rules: str, rng: random.Random, humans: int = 4,
                     late_watcher: bool = True, resume: bool = False, resume_since: bool = True) -> Played:
    """One whole game: `humans` protocol clients (seats 0..), bots in the other seats, a
    spectator from the start and (`late_watcher`) one that comes in mid-game and gets a
    snapshot; with `resume`, one seat drops its connection mid-game and resumes (with the
    last seq it saw if `resume_since`, so that it is sent what it missed, else a snapshot)."""
    styles = [rng.choice(("greedy", "greedy", "uniform")) for _ in range(4)]
    bots = [rng.choice(("shanten", "shanten", "random")) for _ in range(4 - humans)]
    host, guests, table = await _seat_humans(url, rules, rng, styles, bots)
    players = [host, *guests]
    watcher = await Watcher.open(url, "watcher")
    await watcher.send({"type": "watch", "code": table["watch"]})
    await watcher.until("table")
    extra: list[Conn] = []
    late_at = rng.randrange(5, 60)
    drop_seat, drop_at = (rng.randrange(humans), rng.randrange(5, 40)) if resume else (None, None)
    resumed: list[Player] = []

    offers = 0

    async def on_offer(player: Player, offer: dict[str, Any]) -> None:
        nonlocal offers
        offers += 1
        if late_watcher and offers == late_at:
            late = await Watcher.open(url, "late")
            await late.send({"type": "watch", "code": table["watch"]})
            extra.append(late)
            tasks.append(asyncio.create_task(late.watch()))

    async def seat_task(player: Player) -> dict[str, Any] | None:
        if player.seat == drop_seat:
            if await player.play(stop_after=drop_at, on_offer=on_offer) is not None:
                return player.result  # the game ended first
            token = player.welcome["resume"]
            await player.close()
            # with the last seq it saw (the missed broadcasts replayed) where the protocol has it
            since = max(m["seq"] for m in player.frames if "seq" in m) \
                if resume_since and "since" in CLIENT_MESSAGES["hello"] else None
            back = (await Player.open(url, f"{player.name}-back", resume=token, since=since)) \
                .setup(player.rng, player.style)
            assert back.welcome["resumed"] is True
            back.seat = player.seat
            resumed.append(back)
            return await back.play(on_offer=on_offer)
        return await player.play(on_offer=on_offer)

    for p in players:
        await p.send({"type": "ready"})
    tasks: list[asyncio.Task] = [asyncio.create_task(seat_task(p)) for p in players]
    tasks.append(asyncio.create_task(watcher.watch()))
    try:
        while not all(t.done() for t in tasks):  # tasks may grow (the late watcher)
            await asyncio.gather(*tasks)
        results = [t.result() for t in tasks]
    finally:
        for t in tasks:
            t.cancel()
        for c in [*players, watcher, *extra, *resumed]:
            await c.close()
    finals = [r["final"] for r in results if r is not None]
    assert finals and all(f == finals[0] for f in finals), "receivers saw different results"
    played = Played(rules, next(r for r in results if r is not None))
    for p in players:
        played.streams[p.name] = (p.seat, p.frames)
    for p in resumed:
        played.streams[p.name] = (p.seat, p.frames)
    played.streams["watcher"] = (None, watcher.frames)
    for i, c in enumerate(extra):
        played.streams[f"late{i}"] = (None, c.frames)
    played.reference = "watcher" if drop_seat == 0 else "seat0"
    return played


# ---- the leak checker ---------------------------------------------------------------------

class Leak(AssertionError):
    pass


class Truth:
    """The game as it really is, seq by seq: the wall from the seed, every seat's concealed
    hand, and the tiles each receiver may know.  Built from the public part of the
    reference stream's broadcasts; every step is checked against the wall."""

    def __init__(self, seed: bytes):
        self.seed = seed
        self.hand_number = -1
        self.event: dict[str, Any] | None = None  # the public part of the broadcast at this seq
        self.new_hand()

    def new_hand(self, wall: list[int] | None = None, dealer: int = 0) -> None:
        self.wall = wall
        dealt = deal(wall, dealer) if wall else [[], [], [], []]
        self.dealt = [sorted(h) for h in dealt]
        self.hands = [sorted(h) for h in dealt]
        self.held = [set(h) for h in dealt]  # every tile the seat has held this hand
        self.melds: list[list[list[int]]] = [[], [], [], []]
        self.meld_kinds: list[list[str]] = [[], [], [], []]
        self.discards: list[list[int]] = [[], [], [], []]
        self.riichi = [False] * 4
        self.drawn: list[int | None] = [None] * 4
        self.dora: list[int] = []
        self.public: set[int] = set()
        self.normal = self.repl = 0
        self.last_discard: tuple[int, int] | None = None
        self.last_draw: tuple[int, int] | None = None

    def known(self, seat: int | None) -> set[int]:
        return self.public | self.held[seat] if seat is not None else self.public

    def _take(self, seat: int, tiles: list[int], what: str) -> None:
        for t in tiles:
            if t not in self.hands[seat]:
                raise Leak(f"{what}: tile {t} is not in seat {seat}'s hand {self.hands[seat]}")
            self.hands[seat].remove(t)

    def apply(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "hand_start":
            self.hand_number += 1
            if event["hand_number"] != self.hand_number:
                raise Leak(f"hand_start says hand {event['hand_number']}, it is hand {self.hand_number}")
            self.new_hand(shuffled_wall(self.seed, self.hand_number), event["dealer"])
            self.dora = [self.wall[DORA_INDICATORS[0]]]
            if event["dora_indicators"] != self.dora:
                raise Leak(f"hand_start dora {event['dora_indicators']} is not the wall's {self.dora}")
            self.public |= set(self.dora)
        elif kind == "draw":
            seat = event["seat"]
            if event["replacement"]:
                tile = self.wall[REPLACEMENTS[self.repl]]
                self.repl += 1
            else:
                tile = self.wall[52 + self.normal]
                self.normal += 1
            if event["tiles_left"] != 70 - self.normal - self.repl:
                raise Leak(f"draw: tiles_left {event['tiles_left']} is not {70 - self.normal - self.repl}")
            self.hands[seat].append(tile)
            self.held[seat].add(tile)
            self.drawn[seat] = tile
            self.last_draw = (seat, tile)
        elif kind == "discard":
            seat, tile = event["seat"], event["tile"]
            self._take(seat, [tile], "discard")
            if event["tsumogiri"] != (tile == self.drawn[seat]):
                raise Leak(f"discard: tsumogiri {event['tsumogiri']} but the drawn tile was {self.drawn[seat]}")
            self.drawn[seat] = None
            self.discards[seat].append(tile)
            self.public.add(tile)
            self.last_discard = (seat, tile)
        elif kind == "call":
            seat, meld, tiles = event["seat"], event["meld"], list(event["tiles"])
            if meld in ("chi", "pon", "kan"):
                if self.last_discard is None or (event["from"], event["called"]) != self.last_discard:
                    raise Leak(f"call of {event['called']} from {event['from']}: the last discard was "
                               f"{self.last_discard}")
                own = list(tiles)
                own.remove(event["called"])
                self._take(seat, own, meld)
                self.melds[seat].append(sorted(tiles))
                self.meld_kinds[seat].append(meld)
                self.drawn[seat] = None
                self.last_discard = None
            elif meld == "ankan":
                if len(tiles) != 4 or len({t >> 2 for t in tiles}) != 1:
                    raise Leak(f"ankan of {tiles}")
                self._take(seat, tiles, "ankan")
                self.melds[seat].append(sorted(tiles))
                self.meld_kinds[seat].append(meld)
            elif meld == "kakan":
                added = event["called"]
                self._take(seat, [added], "kakan")
                i = next(i for i, m in enumerate(self.melds[seat])
                         if self.meld_kinds[seat][i] == "pon" and m[0] >> 2 == added >> 2)
                if sorted([*self.melds[seat][i], added]) != sorted(tiles):
                    raise Leak(f"kakan {tiles} is not the pon {self.melds[seat][i]} and {added}")
                self.melds[seat][i] = sorted(tiles)
                self.meld_kinds[seat][i] = "kakan"
            else:
                raise Leak(f"unknown meld {meld}")
            self.public |= set(tiles)
        elif kind == "riichi_accepted":
            self.riichi[event["seat"]] = True
        elif kind == "dora":
            indicator = self.wall[DORA_INDICATORS[len(self.dora)]]
            if event["indicator"] != indicator:
                raise Leak(f"dora indicator {event['indicator']} is not the wall's {indicator}")
            self.dora.append(indicator)
            if event["dora_indicators"] != self.dora:
                raise Leak(f"dora indicators {event['dora_indicators']} are not {self.dora}")
            self.public.add(indicator)
        elif kind == "hand_end":
            self._hand_end(event["result"])
        self.event = event

    def _tenpai(self, seat: int) -> bool:
        held = counts34([*self.hands[seat], *(t for m in self.melds[seat] for t in m)])
        return bool(hand_waits(counts34(self.hands[seat]), len(self.melds[seat]), held))

    def _hand_end(self, result: dict[str, Any]) -> None:
        kind = result["type"]
        if kind == "win":
            for win in result["wins"]:
                seat, tile = win["seat"], win["tile"]
                if win["tsumo"]:
                    expected = sorted(self.hands[seat])
                    if self.last_draw != (seat, tile):
                        raise Leak(f"tsumo on {tile}, but seat {seat} did not just draw it")
                else:
                    if tile not in self.public:
                        raise Leak(f"ron on {tile}, not a public tile")
                    expected = sorted([*self.hands[seat], tile])
                if win["hand"] != expected:
                    raise Leak(f"the win shows seat {seat}'s hand as {win['hand']}, it is {expected}")
                self.public |= set(expected)
                if sorted(sorted(m["tiles"]) for m in win["melds"]) != sorted(self.melds[seat]):
                    raise Leak(f"the win shows melds {win['melds']}, they are {self.melds[seat]}")
            ura = [self.wall[URA_INDICATORS[i]] for i in range(len(self.dora))]
            if any(self.riichi[w["seat"]] for w in result["wins"]):
                if result["ura_indicators"] != ura:
                    raise Leak(f"ura indicators {result['ura_indicators']} are not the wall's {ura}")
                self.public |= set(ura)
            elif result["ura_indicators"]:
                raise Leak(f"ura indicators {result['ura_indicators']} shown without a riichi win")
        elif kind == "exhaustive_draw":
            tenpai = [s for s in range(4) if self._tenpai(s)]
            if sorted(result["tenpai"]) != tenpai:
                raise Leak(f"exhaustive draw: tenpai {result['tenpai']}, truly {tenpai}")
            if sorted(result["hands"]) != sorted(str(s) for s in tenpai):
                raise Leak(f"exhaustive draw shows the hands of {sorted(result['hands'])}, tenpai are {tenpai}")
            for s in tenpai:
                if result["hands"][str(s)] != sorted(self.hands[s]):
                    raise Leak(f"exhaustive draw: seat {s}'s hand shown as {result['hands'][str(s)]}")
                self.public |= set(self.hands[s])
        elif kind == "abortive_draw":
            if "hand" in result:
                if result["reason"] != "nine_terminals" or result["hand"] != sorted(self.hands[result["seat"]]):
                    raise Leak(f"abortive draw shows a hand: {result}")
                self.public |= set(result["hand"])
        else:
            raise Leak(f"unknown result type {kind}")


def public_part(event: dict[str, Any]) -> dict[str, Any]:
    private = PRIVATE_EVENT_FIELDS.get(event["type"], ())
    return {k: v for k, v in event.items() if k not in private}


def check_game(played: Played) -> dict[str, int]:
    """Check every frame of every receiver of one game; returns counts of what was checked.

    The truth is advanced through the reference stream's broadcasts (seq 1, 2, ... with no
    gap); each receiver's message with seq S is checked against the truth after broadcast S:
    the fields must be what the spec allows, every tile id must be one the receiver may know
    then, and a receiver's event must be the reference event plus only its own private part."""
    seed = bytes.fromhex(played.result["final"]["seed"])
    _, ref_frames = played.streams[played.reference]
    broadcasts = [m for m in ref_frames if m["type"] in ("table", "event", "result")]
    seqs = [m["seq"] for m in broadcasts]
    if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        raise Leak(f"the reference stream has gaps or repeats in seq: {seqs[:5]}...")
    by_seq: dict[int, list[tuple[str, int | None, dict[str, Any]]]] = defaultdict(list)
    early: list[tuple[str, int | None, dict[str, Any]]] = []
    counts = {"frames": 0, "tiles": 0, "events": 0, "snapshots": 0, "offers": 0, "wins": 0, "ura": 0,
              "tenpai_shown": 0, "kongs": 0, "hands": 0}
    for name, (seat, frames) in played.streams.items():
        last = None
        for m in frames:
            m.pop("_t", None)
            counts["frames"] += 1
            if "seq" in m and m["seq"] >= seqs[0]:
                by_seq[m["seq"]].append((name, seat, m))
            else:
                early.append((name, seat, m))
            if m["type"] in ("event", "result", "table") and not name.endswith("-back"):
                # broadcasts come numbered 1, 2, 3 ...; a table message to one receiver repeats the number
                if last is not None and m["seq"] != last + 1 and not (m["type"] == "table" and m["seq"] == last):
                    raise Leak(f"{name}: seq {m['seq']} after {last}")
                last = m["seq"]
    truth = Truth(seed)
    for name, seat, m in early:
        _check_message(truth, name, seat, m, counts)
    for broadcast in broadcasts:
        if broadcast["type"] == "event":
            truth.apply(public_part(broadcast["event"]))
            counts["events"] += 1
            e = broadcast["event"]
            if e["type"] == "hand_start":
                counts["hands"] += 1
            if e["type"] == "call" and e["meld"] in ("kan", "ankan", "kakan"):
                counts["kongs"] += 1
            if e["type"] == "hand_end":
                r = e["result"]
                counts["wins"] += len(r.get("wins", ()))
                counts["ura"] += bool(r.get("ura_indicators"))
                counts["tenpai_shown"] += len(r.get("hands", ()))
        else:
            truth.event = None
        for name, seat, m in by_seq.pop(broadcast["seq"], []):
            _check_message(truth, name, seat, m, counts)
    if by_seq:
        raise Leak(f"messages with a seq the reference never saw: {sorted(by_seq)[:5]}")
    return counts


def _check_message(truth: Truth, name: str, seat: int | None, m: dict[str, Any], counts: dict[str, int]) -> None:
    kind = m["type"]
    where = f"{name} (seat {seat}) {kind} seq {m.get('seq')}"
    found: list[tuple[str, int]] = []
    try:  # only fields the protocol defines (an unknown one could carry tiles); their tiles found
        check_server(m, found)
    except ProtocolError as problem:
        raise Leak(f"{where}: {problem}") from None
    if kind == "error":
        raise Leak(f"{where}: an error in a game of legal actions: {m}")
    if kind == "event":
        e = m["event"]
        ref = truth.event
        if ref is None or public_part(e) != ref:
            raise Leak(f"{where}: the event {e} is not the broadcast {ref}")
        if e["type"] == "hand_start":
            if seat is None and "hand" in e:
                raise Leak(f"{where}: a spectator got a hand")
            if seat is not None and e.get("hand") != truth.dealt[seat]:
                raise Leak(f"{where}: hand {e.get('hand')} is not seat {seat}'s {truth.dealt[seat]}")
        if e["type"] == "draw":
            if (seat == e["seat"]) != ("tile" in e):
                raise Leak(f"{where}: seat {seat} sees draw {e}")
            if "tile" in e and e["tile"] != truth.last_draw[1]:
                raise Leak(f"{where}: drew {e['tile']} by the event, {truth.last_draw[1]} by the wall")
    elif kind == "catchup":
        counts["replays"] = counts.get("replays", 0) + bool(m["replay"])
    elif kind == "snapshot":
        counts["snapshots"] += 1
        _check_snapshot(truth, where, seat, m["view"])
    elif kind in ("offer", "timeout"):
        counts["offers"] += 1
        if kind == "offer" and m["seat"] != seat:
            raise Leak(f"{where}: an offer for seat {m['seat']}")
        hand = truth.hands[seat] if seat is not None else []
        for w, t in found:
            if t not in hand:
                raise Leak(f"{where}: {w} = {t} is not in the seat's hand {sorted(hand)}")
    known = truth.known(seat)
    for w, t in found:
        counts["tiles"] += 1
        if t not in known:
            raise Leak(f"{where}: {w} = {t}, a tile this receiver may not know")


def _check_snapshot(truth: Truth, where: str, seat: int | None, view: dict[str, Any]) -> None:
    if seat is None and ("you" in view or "actions" in view):
        raise Leak(f"{where}: a spectator's view with a seat's own part: {sorted(view)}")
    if view["dora_indicators"] != truth.dora:
        raise Leak(f"{where}: dora indicators {view['dora_indicators']}, truly {truth.dora}")
    for s, sp in enumerate(view["seats"]):
        if sp["discards"] != truth.discards[s]:
            raise Leak(f"{where}: seat {s}'s discards {sp['discards']}, truly {truth.discards[s]}")
        if sorted(sorted(m["tiles"]) for m in sp["melds"]) != sorted(truth.melds[s]):
            raise Leak(f"{where}: seat {s}'s melds {sp['melds']}, truly {truth.melds[s]}")
    if view["hand_sizes"] != [len(h) for h in truth.hands]:
        raise Leak(f"{where}: hand sizes {view['hand_sizes']}")
    if view.get("final") is not None and truth.event and truth.event["type"] != "game_end":
        raise Leak(f"{where}: the final (and its seed) before the game's end")
    if seat is not None:
        you = view["you"]
        if you["seat"] != seat or you["hand"] != sorted(truth.hands[seat]):
            raise Leak(f"{where}: you {you}, truly seat {seat} with {sorted(truth.hands[seat])}")
        if you["drawn"] is not None and you["drawn"] != truth.drawn[seat]:
            raise Leak(f"{where}: drawn {you['drawn']}, truly {truth.drawn[seat]}")
