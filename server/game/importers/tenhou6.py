"""Read a tenhou.net/6 JSON log into steps and expectations (`/work/shared/formats/tenhou6.md`).

The format keeps each seat's takes and discards apart and has no wall, so each hand is
played through once here: seats take turns (a seat draws and discards, a call takes the
discard, a kong draws a replacement), each tile code gets a physical id as it first
appears, and the wall is rebuilt from the deal, the draws in the order play took them,
the replacement draws, the dora and ura indicators at their dead-wall places, and the
unused ids (log_wall.py).  Where a call could belong to either of two identical discards (the
"confusing" logs), the first is tried and the other taken if play cannot go on.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from protocol.events import AbortiveReason, HandResult
from server.game.importers.expected import ExpectedFinal, ExpectedHand, ExpectedWin
from server.game.importers.log_wall import LogWallError, SeenTiles, rebuild_wall
from server.game.importers.replay import ParsedLog
from server.game.importers.steps import (AnkanStep, CallStep, DiscardStep, DrawStep, HandStartState, KakanStep,
                                         NineTerminalsStep, RonStep, Step, TsumoStep)
from server.game.importers.tenhou_yaku import DORA_IDS, YAKU, yaku_id
from server.game.wall import TILES
from server.rules.config import TENHOU

TSUMOGIRI = 60
RED_CODES = {51: 16, 52: 52, 53: 88}  # red five codes and their ids
_ABORTIVE = {"九種九牌": AbortiveReason.NINE_TERMINALS, "四風連打": AbortiveReason.FOUR_WINDS,
             "四家立直": AbortiveReason.FOUR_RIICHI, "四槓散了": AbortiveReason.FOUR_KONGS,
             "三家和了": AbortiveReason.TRIPLE_RON}
_YAKU_TEXT = re.compile(r"^(.*?)\((\d+)飜\)$")
_YAKUMAN_TEXT = re.compile(r"^(.*?)\(役満\d*\)$")
_FU_HAN = re.compile(r"(\d+)符(\d+)飜")
_MAX_TRIES = 256


class Tenhou6Error(ValueError):
    """A file that is not a usable tenhou.net/6 log, with the reason in one line."""


class _DeadEnd(Exception):
    """This reading of the log cannot go on (try the other reading of an ambiguous call)."""


class _PlainFiveOverflow(Tenhou6Error):
    """A fourth plain five of a suit in a game with red fives."""

    def __init__(self, code: int) -> None:
        super().__init__(f"four plain fives of code {code}, and the red five is the fourth")
        self.code = code


def is_tenhou6(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("log"), list) and "name" in data


def join_hand_lines(text: str) -> dict[str, Any] | None:
    """tenhou.net/6 logs one a line, each holding some hands of one game (mjx's `mjscore`
    files hold one hand a line), as one log of all their hands; None if the text is not
    that form.  The game's final scores are taken from the last line that has them."""
    lines = [line for line in text.splitlines() if line.strip()]
    objects = []
    for line in lines:
        try:
            objects.append(json.loads(line))
        except json.JSONDecodeError:
            return None
    if len(objects) < 2 or not all(is_tenhou6(o) for o in objects):
        return None
    first = objects[0]
    for number, other in enumerate(objects[1:], 2):
        if other["name"] != first["name"] or other.get("rule") != first.get("rule"):
            raise Tenhou6Error(f"line {number} names other players or rules than line 1: not hands of one game")
    joined = {**first, "log": [hand for o in objects for hand in (o["log"] if isinstance(o["log"], list) else [])]}
    finals = [o["sc"] for o in objects if "sc" in o]
    if finals:
        joined["sc"] = finals[-1]
    return joined


def parse_tenhou6(data: Any) -> ParsedLog:
    if not is_tenhou6(data):
        raise Tenhou6Error("not a tenhou.net/6 log: expected a map with 'name' and 'log'")
    rule = data.get("rule") or {}
    disp = str(rule.get("disp", ""))
    if "三" in disp or "3-Player" in disp:
        raise Tenhou6Error("a three-player game: the engine plays four")
    red = any(_int(rule.get(key)) for key in ("aka", "aka51", "aka52", "aka53"))
    japanese = any(mark in disp for mark in "東南般上特鳳技若銀琥孔")
    east_only = "東" in disp or "East" in disp
    rules = TENHOU.override(red_fives=red, open_tanyao=not japanese or "喰" in disp, rounds=1 if east_only else 2)
    notes: list[str] = []
    names = [str(n) for n in data["name"]] if isinstance(data["name"], list) else []
    if len(names) != 4:
        raise Tenhou6Error("'name' must list four players")
    if not isinstance(data["log"], list) or not data["log"]:
        raise Tenhou6Error("the log has no hands")
    try:
        walls, hands, expected = _read_hands(data["log"], red)
    except _PlainFiveOverflow as overflow:
        if not red or any(_mentions_red(hand) for hand in data["log"]):
            raise Tenhou6Error(str(overflow)) from None
        # A log that says red fives but holds four plain fives of a suit, and no red one,
        # was played (or written) without them.
        rules = rules.override(red_fives=False)
        notes.append(f"the rule says red fives, but the log holds four plain fives ({overflow.code}) "
                     f"and no red one: read without red fives")
        walls, hands, expected = _read_hands(data["log"], False)
    final = None
    sc = data.get("sc")
    if isinstance(sc, list) and len(sc) == 8:
        final = ExpectedFinal(tuple(int(s) for s in sc[0::2]), tuple(float(r) for r in sc[1::2]))
    return ParsedLog("tenhou6", rules, names, walls, hands, expected, final, notes,
                     ended_by_time=bool(_int(rule.get("time_up"))))


def _read_hands(log: list[Any], red: bool) -> tuple[list[list[int]], list[list[Step]], list[ExpectedHand]]:
    walls, hands, expected = [], [], []
    for number, hand in enumerate(log):
        try:
            wall, steps, exp = _read_hand(hand, red)
        except _PlainFiveOverflow:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as error:
            if isinstance(error, Tenhou6Error):
                raise Tenhou6Error(f"hand {number + 1}: {error}") from None
            raise Tenhou6Error(f"hand {number + 1}: malformed ({type(error).__name__}: {error})") from None
        walls.append(wall)
        hands.append(steps)
        expected.append(exp)
    return walls, hands, expected


def _mentions_red(hand: list[Any]) -> bool:
    """Whether any tile of the hand (deal, takes, discards, calls, indicators) is a red five."""
    items = [*hand[2], *hand[3]] + [item for s in range(4) for part in (4, 5, 6) for item in hand[part + 3 * s]]
    for item in items:
        if isinstance(item, str):
            digits = "".join(ch for ch in item if ch.isdigit())
            if any(int(digits[i:i + 2]) in RED_CODES for i in range(0, len(digits) - 1, 2)):
                return True
        elif item in RED_CODES:
            return True
    return False


# ---- tiles --------------------------------------------------------------

def code_kind(code: int) -> int:
    if code in RED_CODES:
        return RED_CODES[code] >> 2
    suit, number = divmod(code, 10)
    if suit in (1, 2, 3) and 1 <= number <= 9:
        return (suit - 1) * 9 + number - 1
    if suit == 4 and 1 <= number <= 7:
        return 27 + number - 1
    raise Tenhou6Error(f"tile code {code} does not exist")


class _Tiles:
    """Physical ids for tile codes: red five codes take the red id, other fives the rest."""

    def __init__(self, red: bool) -> None:
        self.red = red
        self.free: dict[tuple[int, bool], list[int]] = {}
        for tile in range(TILES):
            face = (tile >> 2, red and tile in RED_CODES.values())
            self.free.setdefault(face, []).append(tile)

    def face(self, code: int) -> tuple[int, bool]:
        return code_kind(code), self.red and code in RED_CODES

    def id_face(self, tile: int) -> tuple[int, bool]:
        return tile >> 2, self.red and tile in RED_CODES.values()

    def take(self, code: int) -> int:
        pool = self.free.get(self.face(code))
        if not pool:
            if self.red and code_kind(code) in (4, 13, 22) and code not in RED_CODES:
                raise _PlainFiveOverflow(code)
            raise _DeadEnd(f"a fifth tile of code {code}")
        return pool.pop(0)

    def unused(self) -> list[int]:
        return sorted(t for pool in self.free.values() for t in pool)


# ---- calls --------------------------------------------------------------

@dataclass(frozen=True)
class _Call:
    kind: str  # chi pon daiminkan kakan ankan
    codes: tuple[int, ...]  # every code in the string, in order
    position: int  # index in `codes` of the called (kakan: added) tile
    relative: int  # where the tile came from: 1 right, 2 across, 3 left; 0 own hand

    @property
    def tile(self) -> int:
        return self.codes[self.position]

    @property
    def own(self) -> tuple[int, ...]:
        return tuple(c for i, c in enumerate(self.codes) if i != self.position)


_LETTERS = {"c": "chi", "p": "pon", "m": "daiminkan", "k": "kakan", "a": "ankan"}


def parse_call(text: str) -> _Call:
    letter = next((ch for ch in text if ch.isalpha()), None)
    if letter not in _LETTERS:
        raise Tenhou6Error(f"call string {text!r} has no c/p/m/k/a")
    index = text.index(letter)
    digits = text[:index] + text[index + 1:]
    if index % 2 or len(digits) % 2 or not digits.isdigit():
        raise Tenhou6Error(f"call string {text!r} is malformed")
    codes = tuple(int(digits[i:i + 2]) for i in range(0, len(digits), 2))
    kind, position = _LETTERS[letter], index // 2
    size = {"chi": 3, "pon": 3, "daiminkan": 4, "kakan": 4, "ankan": 4}[kind]
    if len(codes) != size:
        raise Tenhou6Error(f"call string {text!r} has {len(codes)} tiles, not {size}")
    if kind == "ankan":
        return _Call(kind, codes, 3, 0)
    last = 3 if kind == "daiminkan" else 2  # an added kong is written like its pon, the added tile after `k`
    relative = 3 if position == 0 else 2 if position == 1 else 1 if position == last else -1
    if relative < 0 or (kind == "chi" and relative != 3):
        raise Tenhou6Error(f"call string {text!r}: the letter is in no place a call comes from")
    return _Call(kind, codes, position, relative)


def _is_call(item: Any) -> bool:
    return isinstance(item, str) and any(ch in item for ch in "cpm")


# ---- one hand -----------------------------------------------------------

def _read_hand(hand: list[Any], red: bool) -> tuple[list[int], list[Step], ExpectedHand]:
    (round_number, honba, sticks), scores, dora, ura = hand[0], hand[1], hand[2], hand[3]
    start = HandStartState(int(round_number), int(honba), int(sticks), tuple(int(s) for s in scores))
    haipai = [list(hand[4 + 3 * s]) for s in range(4)]
    takes = [list(hand[5 + 3 * s]) for s in range(4)]
    discards = [list(hand[6 + 3 * s]) for s in range(4)]
    result = list(hand[16])
    ending = _ending(result)
    choices: list[bool] = []
    for _ in range(_MAX_TRIES):
        play = _Play(start.round % 4, haipai, takes, discards, red, ending, choices)
        try:
            play.run()
            break
        except _DeadEnd as error:
            dead_end = error
            # The last ambiguous call taken at once is next taken at the later discard.
            while choices and not choices[-1]:
                choices.pop()
            if not choices:
                raise Tenhou6Error(f"the takes and discards do not fit together ({dead_end})") from None
            choices[-1] = False
            choices = choices[:]
    else:
        raise Tenhou6Error("too many readings of ambiguous calls")
    wall = play.wall([int(c) for c in dora], [int(c) for c in ura])
    return wall, play.steps, _expected(start, result)


def _ending(result: list[Any]) -> tuple[str, list[tuple[int, int]]]:
    """('win', [(winner, from), ...]) or ('draw', []) or (abortive name, [])."""
    status = result[0] if result else ""
    if status == "和了":
        infos = result[2::2]
        return HandResult.WIN, [(int(info[0]), int(info[1])) for info in infos]
    if status in _ABORTIVE:
        return _ABORTIVE[status], []
    return "draw", []


@dataclass
class _Play:
    dealer: int
    haipai: list[list[Any]]
    takes: list[list[Any]]
    discards: list[list[Any]]
    red: bool
    ending: tuple[str, list[tuple[int, int]]]
    choices: list[bool]  # at each ambiguous call in turn: True = the call takes this discard
    steps: list[Step] = field(default_factory=list)

    def run(self) -> None:
        self.tiles = _Tiles(self.red)
        self.hands = [[self.tiles.take(int(c)) for c in h] for h in self.haipai]
        self.dealt = [list(h) for h in self.hands]
        if any(len(h) != 13 for h in self.hands):
            raise Tenhou6Error("a starting hand is not 13 tiles")
        self.live: list[int] = []
        self.replacements: list[int] = []
        self.take_at = [0, 0, 0, 0]
        self.discard_at = [0, 0, 0, 0]
        self.ambiguous = 0
        self.discard_codes = [self._discard_codes(s) for s in range(4)]
        last: tuple[int, int] | None = None  # (discarder, id) of the discard now on the table
        actor, replacement = self.dealer, False
        while True:
            take = self._next_take(actor)
            drawn = None
            if _is_call(take):
                replacement = self._claim(actor, parse_call(take), last)
                if replacement:
                    continue  # an open kong: the replacement draw follows at once
            else:
                drawn = self.tiles.take(int(take))
                (self.replacements if replacement else self.live).append(drawn)
                self.hands[actor].append(drawn)
                self.steps.append(DrawStep(actor, drawn))
                replacement = False
            if self.discard_at[actor] >= len(self.discards[actor]):
                self._end_after_take(actor)
                return
            item = self.discards[actor][self.discard_at[actor]]
            self.discard_at[actor] += 1
            if isinstance(item, str) and ("k" in item or "a" in item):
                self._kong(actor, parse_call(item))
                if self._all_taken():
                    self._end_after_discard(actor)
                    return
                replacement = True
                continue
            tile = self._discard(actor, item, drawn)
            last = (actor, tile)
            if self._all_taken():
                self._end_after_discard(actor)
                return
            actor = self._next_actor(actor, tile)

    # ---- takes and discards ------------------------------------------------

    def _next_take(self, actor: int) -> Any:
        if self.take_at[actor] >= len(self.takes[actor]):
            raise _DeadEnd(f"seat {actor} has no take left")
        take = self.takes[actor][self.take_at[actor]]
        self.take_at[actor] += 1
        return take

    def _all_taken(self) -> bool:
        return all(self.take_at[s] >= len(self.takes[s]) for s in range(4))

    def _from_hand(self, seat: int, code: int, avoid: int | None = None) -> int:
        face = self.tiles.face(code)
        matches = [t for t in self.hands[seat] if self.tiles.id_face(t) == face]
        if not matches:
            raise _DeadEnd(f"seat {seat} has no tile {code} to give")
        tile = next((t for t in matches if t != avoid), matches[0])
        self.hands[seat].remove(tile)
        return tile

    def _discard(self, seat: int, item: Any, drawn: int | None) -> int:
        riichi = isinstance(item, str) and item.startswith("r")
        code = int(item[1:]) if riichi else int(item)
        if code == 0:
            raise _DeadEnd(f"seat {seat} discards the empty slot of an open kong out of place")
        if code == TSUMOGIRI:
            if drawn is None:
                raise _DeadEnd(f"seat {seat} discards the drawn tile after a call")
            self.hands[seat].remove(drawn)
            tile = drawn
        else:
            tile = self._from_hand(seat, code, avoid=drawn)
        self.steps.append(DiscardStep(seat, tile, riichi))
        return tile

    def _claim(self, seat: int, call: _Call, last: tuple[int, int] | None) -> bool:
        """A chi, pon or open kong on the discard on the table; True for an open kong."""
        source = (seat + call.relative) % 4
        if last is None or last[0] != source or self.tiles.id_face(last[1]) != self.tiles.face(call.tile):
            raise _DeadEnd(f"seat {seat}'s call {call.codes} fits no discard on the table")
        own = tuple(self._from_hand(seat, c) for c in call.own)
        self.steps.append(CallStep(seat, call.kind, own, last[1], source))
        if call.kind == "daiminkan":
            if self.discard_at[seat] >= len(self.discards[seat]) or self.discards[seat][self.discard_at[seat]] != 0:
                raise _DeadEnd(f"seat {seat}'s open kong has no empty discard slot after it")
            self.discard_at[seat] += 1
            return True
        return False

    def _kong(self, seat: int, call: _Call) -> None:
        if call.kind == "kakan":
            self.steps.append(KakanStep(seat, self._from_hand(seat, call.tile)))
        else:
            for code in call.codes:
                self._from_hand(seat, code)
            self.steps.append(AnkanStep(seat, code_kind(call.codes[0])))

    def _next_actor(self, discarder: int, tile: int) -> int:
        """Who takes next: a seat whose next take calls this discard (a pon or kong before a
        chi), else the next seat.  A call the discarder's later identical discard could
        also answer is a choice, tried both ways."""
        candidates = []
        for seat in range(4):
            if seat == discarder or self.take_at[seat] >= len(self.takes[seat]):
                continue
            take = self.takes[seat][self.take_at[seat]]
            if _is_call(take):
                call = parse_call(take)
                if (seat + call.relative) % 4 == discarder and self.tiles.face(call.tile) == self.tiles.id_face(tile):
                    candidates.append((call.kind != "chi", seat))
        if not candidates:
            return (discarder + 1) % 4
        caller = max(candidates)[1]
        face = self.tiles.id_face(tile)
        later = self.discard_codes[discarder][self.discard_at[discarder]:]
        if any(code is not None and self.tiles.face(code) == face for code in later):
            if self.ambiguous == len(self.choices):
                self.choices.append(True)
            take_now = self.choices[self.ambiguous]
            self.ambiguous += 1
            if not take_now:
                return (discarder + 1) % 4
        return caller

    def _discard_codes(self, seat: int) -> list[int | None]:
        """The tile code of each of the seat's discards, a tsumogiri's read from the take it
        follows (takes and discards pair up one to one, an open kong with its empty slot);
        None for kongs and empty slots."""
        codes: list[int | None] = []
        takes = iter(self.takes[seat])
        for item in self.discards[seat]:
            take = next(takes, None)
            if item == 0:
                codes.append(None)
                continue
            if isinstance(item, str) and not item.startswith("r"):
                codes.append(None)
                continue
            code = int(item[1:]) if isinstance(item, str) else int(item)
            if code == TSUMOGIRI:
                code = int(take) if isinstance(take, int) else None
            codes.append(code)
        return codes

    # ---- the end ----------------------------------------------------------------

    def _check_all_used(self) -> None:
        for s in range(4):
            if self.take_at[s] != len(self.takes[s]) or self.discard_at[s] != len(self.discards[s]):
                raise _DeadEnd(f"seat {s}'s takes or discards are left over at the end")

    def _end_after_take(self, actor: int) -> None:
        self._check_all_used()
        kind, winners = self.ending
        if kind == HandResult.WIN and winners == [(actor, actor)]:
            self.steps.append(TsumoStep(actor))
        elif kind == AbortiveReason.NINE_TERMINALS:
            self.steps.append(NineTerminalsStep(actor))
        else:
            raise _DeadEnd(f"seat {actor} drew and did nothing, and the hand ends in {kind}")

    def _end_after_discard(self, actor: int) -> None:
        self._check_all_used()
        kind, winners = self.ending
        if kind == HandResult.WIN:
            if any(source != actor or seat == actor for seat, source in winners):
                raise _DeadEnd(f"the log's winners {winners} did not win on seat {actor}'s tile")
            self.steps.append(RonStep(tuple(seat for seat, _ in winners), actor))
        elif kind == AbortiveReason.TRIPLE_RON:
            self.steps.append(RonStep(None, actor))
        elif kind == AbortiveReason.NINE_TERMINALS:
            raise _DeadEnd("nine terminals after a discard")

    # ---- the wall -----------------------------------------------------------

    def wall(self, dora: list[int], ura: list[int]) -> list[int]:
        try:
            indicators = [[self.tiles.take(code) for code in codes] for codes in (dora, ura)]
        except _DeadEnd as error:
            raise Tenhou6Error(f"an indicator is {error}") from None
        seen = SeenTiles(self.dealer, self.dealt, self.live, self.replacements, *indicators)
        try:
            return rebuild_wall(seen)[0]
        except LogWallError as error:
            raise Tenhou6Error(str(error)) from None


# ---- the result -----------------------------------------------------------------

def _expected(start: HandStartState, result: list[Any]) -> ExpectedHand:
    status = result[0] if result else ""
    if status == "和了":
        deltas = [0, 0, 0, 0]
        wins = []
        for score_deltas, info in zip(result[1::2], result[2::2]):
            deltas = [a + int(b) for a, b in zip(deltas, score_deltas, strict=True)]
            wins.append(_win(start, info))
        return ExpectedHand(start, HandResult.WIN, tuple(deltas), None, tuple(wins))
    deltas = tuple(int(d) for d in result[1]) if len(result) > 1 else (0, 0, 0, 0)
    if status in _ABORTIVE:
        return ExpectedHand(start, HandResult.ABORTIVE_DRAW, deltas, _ABORTIVE[status])
    if status == "流し満貫":
        return ExpectedHand(start, HandResult.EXHAUSTIVE_DRAW, deltas, "nagashi")
    if status in ("流局", "全員聴牌", "全員不聴"):
        return ExpectedHand(start, HandResult.EXHAUSTIVE_DRAW, deltas)
    raise Tenhou6Error(f"unknown result {status!r}")


def _win(start: HandStartState, info: list[Any]) -> ExpectedWin:
    seat, source, pao = int(info[0]), int(info[1]), int(info[2])
    from_seat = None if source == seat else source
    liable = pao if pao != seat else None
    texts = [str(t) for t in info[3:]]
    points, yaku_texts = (texts[0], texts[1:]) if texts else ("", [])
    if any(_YAKUMAN_TEXT.match(t) for t in yaku_texts) or points.startswith("役満"):
        dealer = seat == start.round % 4
        count = max(1, _points_total(points) // (48000 if dealer else 32000))
        names = tuple(_engine_name(_YAKUMAN_TEXT.match(t)[1]) if _YAKUMAN_TEXT.match(t) else t for t in yaku_texts)
        return ExpectedWin(seat, from_seat, None, None, None if None in names or not names else names, count, liable,
                           not_recorded=() if names else ("yaku",))
    if not yaku_texts:  # a converter that leaves the yaku out: only the score changes say anything
        fu_han = _FU_HAN.search(points)
        return ExpectedWin(seat, from_seat, None, int(fu_han[1]) if fu_han else None, None, 0, liable,
                           not_recorded=("han", "yaku") if fu_han else ("han", "fu", "yaku"))
    han, names = 0, []
    for text in yaku_texts:
        match = _YAKU_TEXT.match(text)
        if not match:
            return ExpectedWin(seat, from_seat, None, None, None, 0, liable, not_recorded=("han", "fu", "yaku"))
        han += int(match[2])
        yaku = yaku_id(match[1])
        if yaku is None:
            names.append(None)
        elif yaku not in DORA_IDS:
            names.append(YAKU[yaku][1])
    fu_han = _FU_HAN.search(points)
    fu = int(fu_han[1]) if fu_han else None
    # A limit hand's text names no fu ('跳満18000点'); an empty one records none.
    return ExpectedWin(seat, from_seat, han, fu, None if None in names else tuple(names), 0, liable,
                       not_recorded=() if points else ("fu",))


def _engine_name(name: str) -> str | None:
    yaku = yaku_id(name)
    return YAKU[yaku][1] if yaku is not None else None


def _points_total(text: str) -> int:
    numbers = [int(n) for n in re.findall(r"\d+", text.split("飜")[-1].split("符")[-1])]
    if "∀" in text and numbers:
        return 3 * numbers[-1]
    if len(numbers) >= 2:
        return 2 * numbers[-2] + numbers[-1]
    return numbers[-1] if numbers else 0


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0
