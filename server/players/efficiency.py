"""The built-in strategy: tile efficiency, riichi, value pungs, and folding against riichi.

It decides from a seat's view (the dict of `server.game.views.seat_view`, with or without
its "actions"), one method per decision, so that the SDK's bots
(`client_cli.bot.strategies.BuiltinBot`), `scripts/bot_strength.py` and the server's own
bots (`choose`, registered as "builtin" in `server.players.PLAYERS`) all play the very
same code through `server.players.dispatch.dispatch`.

- Wins whenever it can (tsumo, ron, a robbed kong).
- Discards by tile efficiency: the lowest shanten, then the most tiles that would lower
  it that the seat cannot see (`shanten_player.best_discard`: 4 minus the copies in its
  hand, in the discard piles, in melds and among the dora indicators).
- Riichi whenever offered (closed and tenpai), with the discard that leaves the most
  unseen winning tiles.
- Calls pon on value tiles (dragons, its seat wind, the round wind); once it holds such
  a pung, it also calls chi and pon that lower its shanten (its hand has a yaku).
- Against a riichi (another seat's) it folds when it is two tiles or more from tenpai,
  or one with fewer than 30 tiles left in the wall: it discards the safest tile it holds:
  first the riichi player's own discards (it is furiten on them), then honours few
  copies of which are left, then suji (a 4 is safe from the two-sided waits on 1-4 when
  the riichi player discarded the 1...), terminals before middle tiles.  When tenpai it
  pushes, with the safest discard (riichi discard) that keeps a wait with winning tiles
  left.  It calls nothing while another seat is in riichi.
- Concealed kongs only when they cost nothing (the shanten does not rise); no open kongs.
- Nine terminals: declared unless the hand is three tiles or fewer from thirteen orphans.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from server.game.actions import Action, Discard, Ron, Tsumo, action_to_data
from server.players.dispatch import dispatch
from server.players.shanten_player import _DRAGONS, _Seen, _counts, best_discard, best_riichi
from server.rules.shanten import shanten, shanten_kokushi, waits

__all__ = ["Efficiency", "BUILTIN", "choose", "danger", "riichi_threats", "fold_wanted"]


def _seat(view: dict[str, Any]) -> int:
    return view["you"]["seat"]


def riichi_threats(view: dict[str, Any]) -> list[int]:
    """The other seats that have declared riichi."""
    me = _seat(view)
    return [s for s, sp in enumerate(view["seats"]) if s != me and sp["riichi"]]


def _value_kinds(view: dict[str, Any]) -> set[int]:
    me = _seat(view)
    return {*_DRAGONS, 27 + (me - view["dealer"]) % 4, 27 + view["round_wind"]}


def _visible_counts(view: dict[str, Any]) -> list[int]:
    """For each kind, the copies seen outside the seat's hand: piles, melds, indicators
    (a called discard is both in a pile and in a meld: counted once)."""
    ids: set[int] = set(view["dora_indicators"])
    for sp in view["seats"]:
        ids.update(sp["discards"])
        for m in sp["melds"]:
            ids.update(m["tiles"])
    counts = [0] * 34
    for t in ids:
        counts[t >> 2] += 1
    return counts


def danger(kind: int, view: dict[str, Any], threats: Sequence[int], held: Sequence[int] | None = None,
           visible: Sequence[int] | None = None) -> int:
    """How dangerous discarding a tile of `kind` is against the riichi seats `threats`
    (the sum over them; 0 is safe: a kind the riichi player discarded)."""
    if held is None:
        held = _counts(view["you"]["hand"])
    if visible is None:
        visible = _visible_counts(view)
    total = 0
    for r in threats:
        safe = {t >> 2 for t in view["seats"][r]["discards"]}
        total += _danger_one(kind, safe, held, visible)
    return total


def _danger_one(kind: int, safe: set[int], held: Sequence[int], visible: Sequence[int]) -> int:
    if kind in safe:
        return 0  # genbutsu: the riichi player is furiten on it
    if kind >= 27:  # an honour: only a pair wait (shanpon) or a single wait (tanki) takes it
        unseen = 4 - held[kind] - visible[kind]
        return (1, 2, 4, 6)[max(0, min(unseen, 3))]
    v = kind % 9 + 1
    low, high = kind - 3, kind + 3  # suji: the riichi player discarded the other end of the two-sided wait
    if v in (1, 9):
        return 2 if (high if v == 1 else low) in safe else 6
    if v in (2, 8):
        return 3 if (high if v == 2 else low) in safe else 8
    if v in (3, 7):
        return 4 if (high if v == 3 else low) in safe else 9
    sides = (low in safe) + (high in safe)
    return (10, 7, 4)[sides]


def _shanten_after(counts: list[int], melds: int, kind: int) -> int:
    counts[kind] -= 1
    s = shanten(counts, melds)
    counts[kind] += 1
    return s


def fold_wanted(view: dict[str, Any]) -> bool:
    """Whether the seat should fold on this turn: another seat is in riichi, this one is
    not, and no discard keeps it tenpai."""
    you = view["you"]
    me = you["seat"]
    if view["seats"][me]["riichi"] or not riichi_threats(view):
        return False
    counts = _counts(you["hand"])
    melds = len(view["seats"][me]["melds"])
    return _folds(min(_shanten_after(counts, melds, k) for k in range(34) if counts[k]), view)


FOLD_SHANTEN = 2  # fold when the best discard leaves at least this shanten...
FOLD_LATE_SHANTEN = 1  # ...or this one with fewer than FOLD_LATE tiles left in the wall
FOLD_LATE = 30
PUSH_SAFELY = True  # tenpai against a riichi: the safest discard that keeps a live wait


def _folds(best_shanten: int, view: dict[str, Any]) -> bool:
    return best_shanten >= FOLD_SHANTEN or (best_shanten >= FOLD_LATE_SHANTEN and view["tiles_left"] < FOLD_LATE)


def _safe_tenpai_discard(view: dict[str, Any], tiles: list[int], threats: Sequence[int]) -> int | None:
    """Of the discards that leave the hand tenpai with a winning tile still unseen, the
    safest against `threats` (then the one with the most such tiles); None if there is none."""
    me = _seat(view)
    own = view["seats"][me]["melds"]
    counts = _counts(view["you"]["hand"])
    held = _counts([*view["you"]["hand"], *(t for m in own for t in m["tiles"])])
    visible = _visible_counts(view)
    live: dict[int, int] = {}
    for k in {t >> 2 for t in tiles}:
        counts[k] -= 1
        held[k] -= 1
        if shanten(counts, len(own)) == 0:
            live[k] = sum(max(0, 4 - held[w] - visible[w]) for w in waits(counts, len(own), held))
        counts[k] += 1
        held[k] += 1
    pushes = [t for t in tiles if live.get(t >> 2, 0) > 0]
    if not pushes:
        return None
    return min(pushes, key=lambda t: (danger(t >> 2, view, threats, counts, visible), -live[t >> 2], t))


class Efficiency:
    """The built-in strategy, one method per decision (the SDK's `Bot` methods)."""

    name = "builtin"

    def tsumo(self, view: dict[str, Any]) -> bool:
        return True

    def ron(self, view: dict[str, Any], tile: int | None) -> bool:
        return True

    def nine_terminals(self, view: dict[str, Any]) -> bool:
        return shanten_kokushi(_counts(view["you"]["hand"])) > 3

    def discard(self, view: dict[str, Any], tiles: list[int]) -> int:
        if len(tiles) == 1:
            return tiles[0]
        me = _seat(view)
        threats = riichi_threats(view)
        if threats and not view["seats"][me]["riichi"]:
            counts = _counts(view["you"]["hand"])
            melds = len(view["seats"][me]["melds"])
            after = {k: _shanten_after(counts, melds, k) for k in {t >> 2 for t in tiles}}
            best = min(after.values())
            if _folds(best, view):
                visible = _visible_counts(view)
                return min(tiles, key=lambda t: (danger(t >> 2, view, threats, counts, visible), after[t >> 2], t))
            if best == 0 and PUSH_SAFELY:
                safe = _safe_tenpai_discard(view, tiles, threats)
                if safe is not None:
                    return safe
        return best_discard(_Seen(view, me), [Discard(t) for t in tiles]).tile

    def riichi(self, view: dict[str, Any], tiles: list[int]) -> int | None:
        threats = riichi_threats(view)
        if threats and PUSH_SAFELY:
            safe = _safe_tenpai_discard(view, tiles, threats)
            if safe is not None:
                return safe
        return best_riichi(_Seen(view, _seat(view)), [Discard(t, True) for t in tiles]).tile

    def call(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any] | None:
        if riichi_threats(view):
            return None
        value = _value_kinds(view)
        for o in options:
            if o["type"] == "pon" and o["tiles"][0] >> 2 in value:
                return o
        me = _seat(view)
        own = view["seats"][me]["melds"]
        if not any(m["kind"] != "chi" and m["tiles"][0] >> 2 in value for m in own):
            return None  # no yaku to open the hand for
        counts = _counts(view["you"]["hand"])
        now = shanten(counts, len(own))
        best, best_s = None, now
        for o in options:
            if o["type"] not in ("chi", "pon"):
                continue
            for t in o["tiles"]:
                counts[t >> 2] -= 1
            s = shanten(counts, len(own) + 1)
            for t in o["tiles"]:
                counts[t >> 2] += 1
            if s < best_s:
                best, best_s = o, s
        return best

    def kan(self, view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any] | None:
        me = _seat(view)
        counts = _counts(view["you"]["hand"])
        melds = len(view["seats"][me]["melds"])
        now = shanten(counts, melds)
        for o in options:
            if o["type"] != "ankan":
                continue
            k = o["kind"]
            if view["seats"][me]["riichi"]:
                return o  # offered in riichi only when it keeps the waits
            if riichi_threats(view):
                continue
            counts[k] -= 4
            s = shanten(counts, melds + 1)
            counts[k] += 4
            if s <= now:
                return o
        return None


BUILTIN = Efficiency()


def game_view(game: Any, seat: int) -> dict[str, Any]:
    """A seat's view of a Game, as `seat_view` builds it but without its actions."""
    from server.game.views import private_view, public_view

    view = public_view(game)
    view["you"] = private_view(game, seat)
    return view


def choose(view_or_game: Any, seat: int, legal_actions: Sequence[Action], rng: random.Random) -> Action:
    """The server's player: the built-in strategy's decision (see `server.players`)."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    for a in legal_actions:
        if type(a) is Tsumo or type(a) is Ron:
            return a  # the strategy always wins: no view needed
    view = view_or_game if isinstance(view_or_game, dict) else game_view(view_or_game, seat)
    data = [action_to_data(a) for a in legal_actions]
    answer = dispatch(BUILTIN, view, data)
    return legal_actions[data.index(answer)]
