"""Explicit walls for scenario tests, and small helpers to drive a Game.

    wall = build_wall(hands={0: "123m456p789s1122z", 1: ...}, draws=["5m", None, "1z"],
                      dora="3p", kong_dora=["4s"], ura=["9m"], replacements=["7z"])

The layout is docs/RULINGS.md's ("The wall, for replays and for tests"):
- `wall[0:52]` the deal: three passes of 4 tiles to the dealer, the next seat, the next,
  the next; then 1 tile to each seat, dealer first;
- `wall[52:122]` the live draws in order (whoever draws them; the dealer draws first);
- dora indicator `wall[130]`, kong dora indicators `128, 126, 124, 122`; ura indicators
  `131, 129, 127, 125, 123`; kong replacements `134, 135, 132, 133` in that order.

`hands` is keyed by absolute seat (0-3); `dealer` says which seat deals, so the deal
positions of each seat follow the dealer's seat order.  Any seat left out, any `None`
among the draws and every position not named gets an unused tile id (a fixed, spread-out
order, so that filler hands are far from tenpai).  A face used more often than there are
tiles of it raises ValueError.  "0m"/"0p"/"0s" are the red fives, ids 16/52/88; with
`red_fives=True` a plain "5m" never takes id 16 (and filler takes the red ids last).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from server.game.actions import (Action, Ankan, Chi, Daiminkan, Discard, Kakan, Pass, Pon, Ron,
                                 Tsumo)
from server.game.engine import Game
from server.game.state import Phase
from server.game.wall import DORA_INDICATORS, REPLACEMENTS, URA_INDICATORS
from server.rules.tiles import RED_FIVES, parse_tile, parse_tiles, tile_name

RED_IDS = {RED_FIVES[0]: 16, RED_FIVES[1]: 52, RED_FIVES[2]: 88}
RED_ID_SET = frozenset(RED_IDS.values())
KONG_DORA = DORA_INDICATORS[1:]
LIVE_DRAWS = 70

# The filler order: the first copy of every kind in a stride-7 order over the 34 kinds,
# then the second copies, ... (7 is prime to 34, so this visits every kind).
_STRIDE_KINDS = [(7 * i) % 34 for i in range(34)]

# A hand that is far from tenpai, uses one copy of each of its kinds, and (with itself
# in all four seats) leaves only tiles none of the four can call: see `noten_wall`.
NOTEN_HAND = "147m147p369s1234z"  # no fives: four of them fit with red fives on

# Four waiting hands that fit in one wall together, and each fits with NOTEN_HAND in the
# other seats (none uses a kind of NOTEN_HAND).  Waits: 7m; 7p; 6s-9s; 9p-7z.
TENPAI_HANDS = ("222m333m555m66m89m", "222p333p666p55p89p", "111s222s444s55s78s", "555z777s888s99p77z")


def deal_positions(seat: int, dealer: int = 0) -> list[int]:
    """The 13 wall positions that form `seat`'s starting hand."""
    r = (seat - dealer) % 4
    positions = [p * 16 + r * 4 + i for p in range(3) for i in range(4)]
    positions.append(48 + r)
    return positions


def _faces(text: str) -> list[int]:
    """Rules-core tiles (kinds, or RED_* for 0m/0p/0s) of a piece of notation."""
    return parse_tiles(text)


class _Pool:
    def __init__(self, red_fives: bool) -> None:
        self.red_fives = red_fives
        self.free = set(range(136))

    def take(self, face: int, what: str) -> int:
        if face in RED_IDS:
            tid = RED_IDS[face]
            if tid not in self.free:
                raise ValueError(f"{what}: the red five {tile_name(face)} (id {tid}) is used twice")
            self.free.remove(tid)
            return tid
        ids = [4 * face + c for c in range(4)]
        if face in (4, 13, 22):
            red = 4 * face
            ids.remove(red)
            if not self.red_fives:
                ids.append(red)  # a plain five; take the "red" id last, it is plain here
        for tid in ids:
            if tid in self.free:
                self.free.remove(tid)
                return tid
        raise ValueError(f"{what}: {tile_name(face)} is over-used (only "
                         f"{len(ids)} {'plain ' if self.red_fives and face in (4, 13, 22) else ''}tiles of it)")

    def filler(self) -> list[int]:
        order = [4 * k + c for c in range(4) for k in _STRIDE_KINDS]
        order.sort(key=lambda t: t in RED_ID_SET and self.red_fives)  # stable: red ids last
        return [t for t in order if t in self.free]


def build_wall(hands: dict[int, str] | None = None, draws: Sequence[str | None] = (), dora: str | None = None,
               kong_dora: Sequence[str | None] = (), ura: Sequence[str | None] = (),
               replacements: Sequence[str | None] = (), dealer: int = 0, red_fives: bool = False) -> list[int]:
    """A 136-id wall with the named tiles where docs/RULINGS.md's layout puts them."""
    hands = hands or {}
    if len(draws) > LIVE_DRAWS:
        raise ValueError(f"{len(draws)} draws: the live wall has {LIVE_DRAWS}")
    if len(kong_dora) > 4 or len(replacements) > 4 or len(ura) > 5:
        raise ValueError("at most 4 kong dora, 4 replacements and 5 ura indicators")
    wall: list[int | None] = [None] * 136
    pool = _Pool(red_fives)

    def put(position: int, face_text: str | None, what: str) -> None:
        if face_text is None:
            return
        wall[position] = pool.take(parse_tile(face_text), what)

    for seat, text in sorted(hands.items()):
        if seat not in range(4):
            raise ValueError(f"seat {seat} does not exist")
        faces = _faces(text)
        if len(faces) != 13:
            raise ValueError(f"seat {seat}'s hand '{text}' has {len(faces)} tiles, not 13")
        for position, face in zip(deal_positions(seat, dealer), faces):
            wall[position] = pool.take(face, f"seat {seat}'s hand")
    for i, face_text in enumerate(draws):
        put(52 + i, face_text, f"draw {i}")
    put(DORA_INDICATORS[0], dora, "dora indicator")
    for position, face_text in zip(KONG_DORA, kong_dora):
        put(position, face_text, "kong dora indicator")
    for position, face_text in zip(URA_INDICATORS, ura):
        put(position, face_text, "ura indicator")
    for position, face_text in zip(REPLACEMENTS, replacements):
        put(position, face_text, "replacement")
    filler = iter(pool.filler())
    out = [t if t is not None else next(filler) for t in wall]
    assert sorted(out) == list(range(136))
    return out


def noten_wall(**kwargs) -> list[int]:
    """A wall on which, with every seat discarding what it draws, nobody can call, win,
    or be tenpai, and no abortive draw happens: every seat holds NOTEN_HAND."""
    return build_wall(hands={s: NOTEN_HAND for s in range(4)}, **kwargs)


def make_game(rules, *walls: Sequence[int], extra: int = 8, names: Sequence[str] = ("A", "B", "C", "D")) -> Game:
    """A game on the given walls, followed by `extra` noten walls for the hands after them."""
    return Game(rules, walls=[*walls, *([noten_wall()] * extra)], names=names)


def game_for(rules, extra: int = 8, **wall_kwargs) -> Game:
    """A game whose first hand is build_wall(**wall_kwargs) (red fives per the rules)."""
    wall_kwargs.setdefault("red_fives", rules.red_fives)
    return make_game(rules, build_wall(**wall_kwargs), extra=extra)


# ---- faces and ids ----------------------------------------------------------------

def face(game_or_red: Game | bool, tid: int) -> str:
    """The notation of a tile id: '5m', or '0m' for a red five when red fives are on."""
    red = game_or_red.rules.red_fives if isinstance(game_or_red, Game) else game_or_red
    if red and tid in RED_ID_SET:
        return "0" + "mps"[tid // 36]
    return tile_name(tid >> 2)


def faces(game: Game, tids: Iterable[int]) -> list[str]:
    return sorted(face(game, t) for t in tids)


def _matches(game: Game, tid: int, face_text: str) -> bool:
    want = parse_tile(face_text)
    if want in RED_IDS:
        return tid == RED_IDS[want] if game.rules.red_fives else tid >> 2 == (4, 13, 22)[want - 34]
    if tid >> 2 != want:
        return False
    return not (game.rules.red_fives and tid in RED_ID_SET)


def tile_id(game: Game, seat: int, face_text: str) -> int:
    """The id of a tile of that face in seat's hand (the drawn tile if it matches)."""
    priv = game.private[seat]
    if priv.drawn is not None and _matches(game, priv.drawn, face_text):
        return priv.drawn
    for tid in sorted(priv.hand):
        if _matches(game, tid, face_text):
            return tid
    raise AssertionError(f"seat {seat} holds no {face_text}: {faces(game, priv.hand)}")


# ---- driving a game ---------------------------------------------------------------

def play(game: Game, steps: Iterable[tuple[int, Action]]) -> list:
    events = []
    for seat, action in steps:
        events.extend(game.apply(seat, action))
    return events


def pass_all(game: Game) -> list:
    """Every seat the game is waiting for passes (a call window or a chankan window)."""
    assert game.public.phase in (Phase.CALLS, Phase.CHANKAN), f"no call window now ({game.public.phase})"
    events = []
    for seat in list(game.waiting_for()):
        events.extend(game.apply(seat, Pass()))
    return events


def discard(game: Game, seat: int, face_text: str, riichi: bool = False) -> list:
    return game.apply(seat, Discard(tile_id(game, seat, face_text), riichi))


def tsumogiri(game: Game) -> list:
    """The seat in turn discards its drawn tile (or its first legal discard after a call)."""
    seat = game.public.turn
    assert game.public.phase is Phase.TURN, f"not a turn now ({game.public.phase})"
    drawn = game.private[seat].drawn
    if drawn is not None:
        return game.apply(seat, Discard(drawn))
    first = next(a for a in game.legal_actions(seat) if isinstance(a, Discard) and not a.riichi)
    return game.apply(seat, first)


def step(game: Game) -> list:
    """One 'nobody does anything' step: pass a call window, or discard the drawn tile."""
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        return pass_all(game)
    return tsumogiri(game)


def run_out(game: Game, limit: int = 400) -> dict:
    """Pass and discard drawn tiles until the current hand ends; returns its result."""
    n = len(game.results)
    for _ in range(limit):
        if len(game.results) > n or game.over:
            break
        step(game)
    assert len(game.results) > n, "the hand did not end"
    return game.results[n]


def advance_until(game: Game, predicate, limit: int = 400) -> None:
    """Pass and discard drawn tiles until predicate(game) holds (checked before each step)."""
    for _ in range(limit):
        if predicate(game):
            return
        step(game)
    raise AssertionError("condition never reached")


def names(game: Game, seat: int) -> set[str]:
    from server.game.actions import action_name
    return {action_name(a) for a in game.legal_actions(seat)}


def find(game: Game, seat: int, cls: type, tiles: str | None = None, riichi: bool | None = None) -> Action:
    """The offered action of that type (and those tile faces, e.g. '46m' for a chi)."""
    for action in game.legal_actions(seat):
        if not isinstance(action, cls):
            continue
        if riichi is not None and getattr(action, "riichi", None) != riichi:
            continue
        if tiles is not None and action_faces(game, action) != sorted(_split(tiles)):
            continue
        return action
    raise AssertionError(f"seat {seat} is not offered {cls.__name__} {tiles or ''}: "
                         f"{describe(game, game.legal_actions(seat))}")


def _split(text: str) -> list[str]:
    out = []
    for t in parse_tiles(text):
        out.append(tile_name(t))
    return out


def action_faces(game: Game, action: Action) -> list[str]:
    if isinstance(action, (Chi, Pon)):
        return faces(game, action.tiles)
    if isinstance(action, (Discard, Kakan)):
        return [face(game, action.tile)]
    if isinstance(action, Ankan):
        return [tile_name(action.kind)]
    return []


def describe(game: Game, actions: Iterable[Action]) -> list[str]:
    from server.game.actions import action_name
    out = []
    for a in actions:
        f = "".join(action_faces(game, a))
        extra = " riichi" if isinstance(a, Discard) and a.riichi else ""
        out.append(f"{action_name(a)} {f}{extra}".strip())
    return sorted(out)


def call_offers(game: Game, seat: int) -> list[str]:
    """The call-window offers of a seat, as sorted strings such as 'chi 46m', 'pon 55m', 'ron'."""
    return describe(game, game.legal_actions(seat))


def yaku_names(win: dict) -> set[str]:
    return {name for name, _ in win["yaku"]}


def conserved(game: Game) -> bool:
    return sum(game.public.scores) + 1000 * game.public.sticks == 4 * game.rules.start_score


__all__ = [
    "build_wall", "noten_wall", "make_game", "game_for", "deal_positions", "NOTEN_HAND", "TENPAI_HANDS", "face", "faces", "tile_id",
    "play", "pass_all", "discard", "tsumogiri", "step", "run_out", "advance_until", "names", "find",
    "call_offers", "describe", "yaku_names", "conserved",
    "Discard", "Pass", "Ron", "Tsumo", "Pon", "Chi", "Daiminkan", "Ankan", "Kakan",
]


def two_player_four_kongs(rules) -> Game:
    """Seat 0 declares three concealed kongs and seat 1 the fourth, each discarding after
    (with nobody calling): four kongs by more than one player."""
    wall = build_wall(hands={0: "1111m2222m3333m9p", 1: "444p19s99m123456z"}, draws=["5z", "4p"],
                      replacements=["9s", "8s", "7z", "6z"], dora="7z", red_fives=rules.red_fives)
    game = make_game(rules, wall)
    for kind in range(3):
        game.apply(0, Ankan(kind))
    discard(game, 0, "9p")
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        pass_all(game)
    advance_until(game, lambda g: g.public.phase is Phase.TURN and g.public.turn == 1)
    game.apply(1, Ankan(12))
    discard(game, 1, "6z")
    if game.public.phase in (Phase.CALLS, Phase.CHANKAN):
        pass_all(game)
    return game
