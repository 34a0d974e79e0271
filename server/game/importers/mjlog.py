"""Read an mjlog (the online server's XML game record, gzipped or not) into steps and
expectations (`/work/shared/formats/mjlog.md`).

An mjlog names a shuffle seed, not the walls.  Each hand's wall is rebuilt from the log
itself (log_wall.py: the deal, every draw, replacement draw and indicator it shows), or,
where the full walls are known, taken from a walls file (`walls[k]` is hand k's wall in
the engine's layout) and checked against each hand's deal and first dora indicator.
"""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from protocol.events import AbortiveReason, HandResult
from server.game.importers.expected import ExpectedFinal, ExpectedHand, ExpectedWin
from server.game.importers.log_wall import LogWallError, SeenTiles, rebuild_wall
from server.game.importers.replay import ParsedLog
from server.game.importers.steps import (AnkanStep, CallStep, DiscardStep, DoraStep, DrawStep, HandStartState, KakanStep,
                                         NineTerminalsStep, RonStep, Step, TsumoStep)
from server.game.importers.tenhou_yaku import DORA_IDS, YAKU
from server.game.wall import DORA_INDICATORS, deal
from server.rules.config import TENHOU, Rules

_DRAW = re.compile(r"^([TUVW])(\d+)$")
_DISCARD = re.compile(r"^([DEFG])(\d+)$")
_ABORTIVE = {"yao9": AbortiveReason.NINE_TERMINALS, "reach4": AbortiveReason.FOUR_RIICHI,
             "ron3": AbortiveReason.TRIPLE_RON, "kan4": AbortiveReason.FOUR_KONGS, "kaze4": AbortiveReason.FOUR_WINDS}

GO_NO_RED = 0x02
GO_NO_OPEN_TANYAO = 0x04
GO_SOUTH = 0x08
GO_THREE_PLAYERS = 0x10


class MjlogError(ValueError):
    """A file that is not a usable mjlog, with the reason in one line."""


@dataclass(frozen=True)
class Meld:
    """A decoded `<N m=...>`: the meld's tiles and which of them was called (or added)."""

    kind: str  # chi | pon | daiminkan | kakan | ankan
    tiles: tuple[int, ...]
    called: int  # index in `tiles` of the called tile (kakan: the added one; ankan: 0)
    source: int  # the seat the called tile came from (the caller for kakan and ankan)


def decode_meld(who: int, m: int) -> Meld:
    """The call bits of mjlog.md 'The call bits `m`'."""
    source = (who + (m & 3)) % 4
    if m & 0x4:  # chi
        t = m >> 10
        called, t = t % 3, t // 3
        base = (t // 7) * 9 + t % 7
        return Meld("chi", tuple((base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)), called, source)
    if m & 0x18:  # pon (0x8) or added kong (0x10), laid out as a pon
        unused = (m >> 5) & 3
        t = m >> 9
        called, kind = t % 3, t // 3
        pon = tuple(kind * 4 + i for i in range(4) if i != unused)
        if m & 0x8:
            return Meld("pon", pon, called, source)
        return Meld("kakan", (*pon, kind * 4 + unused), 3, who)
    hai = m >> 8
    four = tuple(hai // 4 * 4 + i for i in range(4))
    if m & 3 == 0:
        return Meld("ankan", four, 0, who)
    return Meld("daiminkan", four, four.index(hai), source)


def is_mjlog(text: str) -> bool:
    return text.lstrip().startswith(("<mjloggm", "<?xml")) and "<mjloggm" in text[:500]


def read_text(path: Path) -> str:
    """The log's text, gunzipped if it is gzipped."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise MjlogError(f"{path.name}: a broken gzip file ({error})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise MjlogError(f"{path.name}: not text (and not gzipped text)") from None


def walls_path_for(path: Path) -> Path:
    """NAME.mjlog or NAME.mjlog.gz -> NAME.walls.json beside it."""
    name = path.name
    for suffix in (".mjlog.gz", ".mjlog", ".xml.gz", ".xml", ".gz"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return path.with_name(name + ".walls.json")


def read_walls(path: Path) -> list[list[int]]:
    try:
        data: Any = json.loads(path.read_text())
    except FileNotFoundError:
        raise MjlogError(f"no walls file {path.name}: give an existing file, or none, and the walls are "
                         f"rebuilt from the log") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MjlogError(f"{path.name}: not a walls file ({error})") from None
    walls = data.get("walls") if isinstance(data, dict) else data
    if not isinstance(walls, list) or not all(
            isinstance(w, list) and sorted(w) == list(range(136)) for w in walls):
        raise MjlogError(f"{path.name}: 'walls' must be a list of walls, each the 136 tile ids 0-135 once")
    return walls


def read_mjlog(path: Path, walls_path: Path | None = None) -> ParsedLog:
    """The log, with the walls `known_walls` finds, else walls rebuilt from the log."""
    return parse_mjlog(read_text(path), known_walls(path, walls_path))


def known_walls(path: Path, walls_path: Path | None = None) -> list[list[int]] | None:
    """The walls of `walls_path`, else of NAME.walls.json beside the log if there is one;
    None where neither is given."""
    beside = walls_path_for(path)
    if walls_path is None and beside.exists():
        walls_path = beside
    return read_walls(walls_path) if walls_path else None


def parse_mjlog(text: str, walls: list[list[int]] | None = None) -> ParsedLog:
    """The log read into steps and expectations; `walls` None: each hand's wall is rebuilt
    from the log."""
    return _read(text, walls).finish()


def seen_tiles(text: str) -> list[SeenTiles]:
    """Each hand's tiles as the log shows them (what its rebuilt wall is made of)."""
    return _read(text, None).seen


def _read(text: str, walls: list[list[int]] | None) -> "_Reader":
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise MjlogError(f"not an mjlog: the XML does not parse ({error})") from None
    if root.tag != "mjloggm":
        raise MjlogError(f"not an mjlog: the root element is <{root.tag}>, not <mjloggm>")
    reader = _Reader(walls)
    for element in root:
        reader.read(element)
    return reader


class _Reader:
    def __init__(self, walls: list[list[int]] | None) -> None:
        self.walls = walls
        self.seen: list[SeenTiles] = []  # each hand's tiles as the log shows them
        self._kong_by: int | None = None  # the seat whose next draw is a kong's replacement
        self.rules: Rules = TENHOU
        self.names = ["A", "B", "C", "D"]
        self.notes: list[str] = []
        self.hands: list[list[Step]] = []
        self.expected: list[ExpectedHand] = []
        self.final: ExpectedFinal | None = None
        self._riichi: set[int] = set()
        self._last_discard: tuple[int, int] | None = None
        self._turn = 0
        self._hand: dict[str, Any] = {}
        self._named = False

    # ---- elements ---------------------------------------------------------

    def read(self, element: ET.Element) -> None:
        tag, a = element.tag, element.attrib
        if match := _DRAW.match(tag):
            seat, tile = "TUVW".index(match[1]), int(match[2])
            self._turn = seat
            self._steps().append(DrawStep(seat, tile))
            seen = self.seen[-1]
            (seen.replacements if self._kong_by == seat else seen.live).append(tile)
            self._kong_by = None
        elif match := _DISCARD.match(tag):
            seat = "DEFG".index(match[1])
            tile = int(match[2])
            self._steps().append(DiscardStep(seat, tile, seat in self._riichi))
            self._riichi.discard(seat)
            self._last_discard = (seat, tile)
        elif tag == "GO":
            self._go(int(a.get("type", "0")))
        elif tag == "UN" and not self._named and "n0" in a:
            self.names = [unquote(a.get(f"n{i}", "")) or "ABCD"[i] for i in range(4)]
            self._named = True
        elif tag == "INIT":
            self._init(a)
        elif tag == "N":
            self._call(int(a["who"]), int(a["m"]))
        elif tag == "REACH" and a.get("step") == "1":
            self._riichi.add(int(a["who"]))
        elif tag == "DORA":
            self._steps().append(DoraStep(int(a["hai"])))
            self.seen[-1].dora.append(int(a["hai"]))
        elif tag == "AGARI":
            self._agari(a)
        elif tag == "RYUUKYOKU":
            self._ryuukyoku(a)
        # SHUFFLE, TAIKYOKU, REACH step 2, BYE, a reconnecting UN: nothing to decide.

    def _steps(self) -> list[Step]:
        if not self.hands:
            raise MjlogError("play before the first <INIT>: not a well-formed mjlog")
        return self.hands[-1]

    def _go(self, flags: int) -> None:
        if flags & GO_THREE_PLAYERS:
            raise MjlogError("a three-player game: the engine plays four")
        self.rules = TENHOU.override(red_fives=not flags & GO_NO_RED, open_tanyao=not flags & GO_NO_OPEN_TANYAO,
                                     rounds=2 if flags & GO_SOUTH else 1)

    def _init(self, a: dict[str, str]) -> None:
        number = len(self.hands)
        round_number, honba, sticks, _, _, dora = _ints(a["seed"])
        dealer = int(a["oya"])
        hands = [_ints(a[f"hai{seat}"]) for seat in range(4)]
        if self.walls is not None:
            self._check_wall(number, dealer, hands, dora)
        self.seen.append(SeenTiles(dealer, hands, dora=[dora]))
        self._kong_by = None
        scores = tuple(100 * s for s in _ints(a["ten"]))
        self.hands.append([])
        self._hand = {"start": HandStartState(round_number, honba, sticks, scores), "dealer": dealer,
                      "deltas": [0, 0, 0, 0], "wins": []}
        self._riichi = set()
        self._last_discard = None
        self._turn = dealer

    def _check_wall(self, number: int, dealer: int, hands: list[list[int]], dora: int) -> None:
        assert self.walls is not None
        if number >= len(self.walls):
            raise MjlogError(f"the walls file has {len(self.walls)} walls, and the log has more hands")
        wall = self.walls[number]
        dealt = deal(wall, dealer)
        for seat in range(4):
            if sorted(dealt[seat]) != sorted(hands[seat]):
                raise MjlogError(f"hand {number + 1}: the walls file deals seat {seat} other tiles than the log")
        if wall[DORA_INDICATORS[0]] != dora:
            raise MjlogError(f"hand {number + 1}: the walls file's dora indicator is {wall[DORA_INDICATORS[0]]}, "
                             f"the log's {dora}")

    def _call(self, who: int, m: int) -> None:
        steps = self._steps()
        meld = decode_meld(who, m)
        if meld.kind in ("daiminkan", "ankan", "kakan"):
            self._kong_by = who
        if meld.kind == "kakan":
            steps.append(KakanStep(who, meld.tiles[meld.called]))
        elif meld.kind == "ankan":
            steps.append(AnkanStep(who, meld.tiles[0] >> 2))
        else:
            called = meld.tiles[meld.called]
            if self._last_discard != (meld.source, called):
                raise MjlogError(f"hand {len(self.hands)}: seat {who} calls tile {called} from seat {meld.source}, "
                                 f"which is not the last discard {self._last_discard}")
            own = tuple(t for i, t in enumerate(meld.tiles) if i != meld.called)
            steps.append(CallStep(who, meld.kind, own, called, meld.source))
        self._turn = who

    def _agari(self, a: dict[str, str]) -> None:
        steps = self._steps()
        who, from_who = int(a["who"]), int(a["fromWho"])
        if who == from_who:
            steps.append(TsumoStep(who))
        elif steps and isinstance(steps[-1], RonStep) and steps[-1].from_seat == from_who:
            steps[-1] = RonStep((*steps[-1].seats, who), from_who)
        else:
            steps.append(RonStep((who,), from_who))
        fu, points, _ = _ints(a["ten"])
        ura = _ints(a.get("doraHaiUra", ""))
        if ura and not self.seen[-1].ura:  # a second winner of the same discard shows the same ones
            self.seen[-1].ura = ura
        if "yakuman" in a:
            ids = _ints(a["yakuman"])
            dealer = who == self._hand["dealer"]
            count = max(1, points // (48000 if dealer else 32000))
            win = ExpectedWin(who, None if who == from_who else from_who, None, None,
                              tuple(YAKU[i][1] or str(i) for i in ids), count, _liable(a, who), tuple(_ints(a["hai"])))
        else:
            pairs = _ints(a.get("yaku", ""))
            ids, hans = pairs[0::2], pairs[1::2]
            names = tuple(YAKU[i][1] or str(i) for i in ids if i not in DORA_IDS)
            win = ExpectedWin(who, None if who == from_who else from_who, sum(hans), fu, names, 0, _liable(a, who),
                              tuple(_ints(a["hai"])))
        self._hand["wins"].append(win)
        self._add_deltas(a)
        self._end_hand(HandResult.WIN, None, a)

    def _ryuukyoku(self, a: dict[str, str]) -> None:
        steps = self._steps()
        kind = a.get("type")
        if kind == "yao9":
            steps.append(NineTerminalsStep(self._turn))
        elif kind == "ron3":
            if self._last_discard is None:
                raise MjlogError(f"hand {len(self.hands)}: a triple ron with no discard")
            steps.append(RonStep(None, self._last_discard[0]))
        self._add_deltas(a)
        if kind in _ABORTIVE:
            self._end_hand(HandResult.ABORTIVE_DRAW, _ABORTIVE[kind], a)
        else:
            tenpai = tuple(s for s in range(4) if f"hai{s}" in a) if kind is None else None
            self._end_hand(HandResult.EXHAUSTIVE_DRAW, "nagashi" if kind == "nm" else None, a, tenpai)

    def _add_deltas(self, a: dict[str, str]) -> None:
        sc = _ints(a.get("sc", ""))
        for seat in range(4):
            self._hand["deltas"][seat] += 100 * sc[2 * seat + 1] if len(sc) == 8 else 0

    def _end_hand(self, kind: HandResult, reason: str | None, a: dict[str, str], tenpai: tuple[int, ...] | None = None) -> None:
        hand = self._hand
        expected = ExpectedHand(hand["start"], kind, tuple(hand["deltas"]), reason, tuple(hand["wins"]), tenpai)
        if len(self.expected) == len(self.hands):
            self.expected[-1] = expected  # a further winner of the same discard
        else:
            self.expected.append(expected)
        if "owari" in a:
            values = a["owari"].split(",")
            self.final = ExpectedFinal(tuple(round(100 * float(v)) for v in values[0::2]),
                                       tuple(float(v) for v in values[1::2]))

    def finish(self) -> ParsedLog:
        if not self.hands:
            raise MjlogError("the mjlog has no hands (no <INIT>)")
        if len(self.expected) != len(self.hands):
            raise MjlogError(f"hand {len(self.hands)} has no result: the log is cut short")
        walls = self.walls[:len(self.hands)] if self.walls is not None else self._rebuilt_walls()
        return ParsedLog("mjlog", self.rules, self.names, walls, self.hands, self.expected, self.final, self.notes)

    def _rebuilt_walls(self) -> list[list[int]]:
        walls = []
        for number, seen in enumerate(self.seen):
            try:
                walls.append(rebuild_wall(seen)[0])
            except LogWallError as error:
                raise MjlogError(f"hand {number + 1}: {error}") from None
        return walls


def _liable(a: dict[str, str], who: int) -> int | None:
    pao = a.get("paoWho")
    return int(pao) if pao is not None and int(pao) != who else None


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]
