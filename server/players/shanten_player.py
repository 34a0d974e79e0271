"""The shanten player: a greedy tile-efficiency player.

- Tsumo or ron whenever offered; riichi whenever offered (on the discard that leaves the
  most winning tiles it cannot see).
- Otherwise it discards the tile that leaves the lowest shanten, then the most useful
  tiles it cannot see (the kinds of `server.rules.shanten.useful_tiles`, each counted
  4 minus the copies in its own hand, in any discard pile, in any meld or among the dora
  indicators); ties go to the non-red tile, then to honours and terminals.
- It calls pon only on value tiles (dragons, its seat wind, the round wind) and passes
  on every other call (chi, open kong, concealed and added kongs are never chosen).

It reads only what its seat may see: from a `Game`, `game.public` and
`game.private[seat]`; from a view, the public part and `view["you"]`.  Both give the
same decisions (tests/game/test_invariants.py checks it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from server.game.actions import Action, Discard, Pass, Pon, Ron, Tsumo
from server.rules.config import PRESETS
from server.rules.shanten import candidate_kinds, shanten, waits

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_DRAGONS = (31, 32, 33)
_RED_IDS = frozenset((16, 52, 88))  # the red fives' ids when the rules have them


def _near(k: int) -> tuple[int, ...]:
    if k >= 27:
        return (k,)
    low = k - k % 9
    return tuple(range(max(low, k - 2), min(low + 8, k + 2) + 1))


_NEAR = tuple(_near(k) for k in range(34))
# How much a kind is kept when everything else is equal: honours, then terminals, go first.
_KEEP = tuple(0 if k >= 27 else 1 if k % 9 in (0, 8) else 2 if k % 9 in (1, 7) else 3 for k in range(34))


class _Seen:
    """What the seat knows, read from a Game or from a seat view."""

    __slots__ = ("hand", "melds", "meld_tiles", "visible_ids", "seat_wind", "round_wind", "red")

    def __init__(self, source: Any, seat: int) -> None:
        if isinstance(source, dict):
            you = source["you"]
            self.hand: list[int] = list(you["hand"])
            seats = source["seats"]
            own = seats[seat]["melds"]
            self.melds = len(own)
            self.meld_tiles = [t for m in own for t in m["tiles"]]
            visible: list[int] = list(source["dora_indicators"])
            for sp in seats:
                visible.extend(sp["discards"])
                for m in sp["melds"]:
                    visible.extend(m["tiles"])
            self.round_wind = source["round_wind"]
            self.seat_wind = (seat - source["dealer"]) % 4
            # A view names the rules but not each field: read red fives off the preset.
            rules = PRESETS.get(source["rules"])
            self.red = rules.red_fives if rules is not None else True
        else:
            p = source.public
            self.hand = source.private[seat].hand
            own = p.seats[seat].melds
            self.melds = len(own)
            self.meld_tiles = [t for m in own for t in m.tiles]
            visible = list(p.dora_indicators)
            for sp in p.seats:
                visible.extend(sp.discards)
                for m in sp.melds:
                    visible.extend(m.tiles)
            self.round_wind = p.round_wind
            self.seat_wind = (seat - p.dealer) % 4
            self.red = source.rules.red_fives
        self.visible_ids = visible

    def unseen(self) -> list[int]:
        """For each kind, the copies the seat cannot see (never below 0)."""
        left = [4] * 34
        for t in {*self.visible_ids, *self.hand}:  # a claimed discard is in a pile and a meld: count it once
            left[t >> 2] -= 1
        return left


def _pairs_singles(counts: Sequence[int]) -> tuple[int, int]:
    return sum(1 for c in counts if c >= 2), sum(1 for c in counts if c == 1)


def _wants_new_single(pairs: int, singles: int, now: int) -> bool:
    """Seven pairs are the best form and a kind not held would lower them (a new single)."""
    return singles < 7 - pairs and 13 - 2 * pairs - singles == now


def _useful(counts: list[int], melds: int, now: int, candidates: Iterable[int]) -> list[int]:
    out = []
    for k in candidates:
        if counts[k] < 4:
            counts[k] += 1
            if shanten(counts, melds) < now:
                out.append(k)
            counts[k] -= 1
    return out


def useful_kinds(counts: list[int], melds: int, now: int | None = None) -> list[int]:
    """The kinds whose draw lowers the shanten of a 3n+1 hand: the same answer as
    `server.rules.shanten.useful_tiles`, trying only the kinds that can matter (next to a
    held tile, an orphan, or any kind at all where seven pairs want a new single).
    `counts` is changed during the call and restored."""
    if now is None:
        now = shanten(counts, melds)
    candidates = candidate_kinds(counts, melds)
    if melds == 0 and _wants_new_single(*_pairs_singles(counts), now):
        candidates = range(34)
    return _useful(counts, melds, now, candidates)


# Useful kinds of a 13-tile hand (its counts and meld count as bytes): a hand after the
# tsumogiri option comes back on the next turn, and hands repeat across games.
_USEFUL_MEMO: dict[bytes, tuple[int, ...]] = {}
_USEFUL_MEMO_SIZE = 20_000


def _counts(tiles: Iterable[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t >> 2] += 1
    return counts


def best_discard(seen: _Seen, discards: Sequence[Discard]) -> Discard:
    """The discard leaving the lowest shanten, then the most unseen useful tiles."""
    counts = _counts(seen.hand)
    melds = seen.melds
    by_shanten: list[tuple[int, Discard]] = []
    for d in discards:
        k = d.tile >> 2
        counts[k] -= 1
        by_shanten.append((shanten(counts, melds), d))
        counts[k] += 1
    low = min(s for s, _ in by_shanten)
    best = [d for s, d in by_shanten if s == low]
    if len(best) == 1:
        return best[0]
    left = seen.unseen()
    # cover[j]: the held kinds next to j (j an orphan counts once more in a closed hand);
    # after a discard that empties a kind, the kinds next to it only it covered drop out.
    cover = [0] * 34
    for k in range(34):
        if counts[k]:
            for j in _NEAR[k]:
                cover[j] += 1
    if melds == 0:
        for j in _ORPHANS:
            cover[j] += 1
    pairs, singles = _pairs_singles(counts) if melds == 0 else (0, 0)
    scored = []
    done: dict[int, int] = {}
    for d in best:
        k = d.tile >> 2
        if k not in done:
            c = counts[k]
            counts[k] = c - 1
            key = bytes(counts) + bytes((melds,))
            useful = _USEFUL_MEMO.get(key)
            if useful is None:
                if melds == 0 and _wants_new_single(pairs - (c == 2), singles - (c == 1) + (c == 2), low):
                    cands: Iterable[int] = range(34)
                elif c == 1:
                    near = _NEAR[k]
                    cands = [j for j in range(34) if cover[j] > (j in near)]
                else:
                    cands = [j for j in range(34) if cover[j]]
                if len(_USEFUL_MEMO) >= _USEFUL_MEMO_SIZE:
                    _USEFUL_MEMO.clear()
                useful = _USEFUL_MEMO[key] = tuple(_useful(counts, melds, low, cands))
            done[k] = sum(left[u] for u in useful)
            counts[k] = c
        red = seen.red and d.tile in _RED_IDS
        scored.append(((done[k], -red, -_KEEP[k], -d.tile), d))
    return max(scored, key=lambda x: x[0])[1]


def best_riichi(seen: _Seen, riichis: Sequence[Discard]) -> Discard:
    """The riichi discard leaving the most unseen winning tiles."""
    counts = _counts(seen.hand)
    held = _counts([*seen.hand, *seen.meld_tiles])
    left = seen.unseen()
    scored = []
    for d in riichis:
        k = d.tile >> 2
        counts[k] -= 1
        held[k] -= 1
        scored.append((sum(left[w] for w in waits(counts, seen.melds, held)), -d.tile, d))
        counts[k] += 1
        held[k] += 1
    return max(scored, key=lambda x: x[:2])[2]


def choose(view_or_game: Any, seat: int, legal_actions: Sequence[Action], rng: random.Random) -> Action:
    """The shanten player's decision (module docstring); `rng` is not used."""
    discards: list[Discard] = []
    riichis: list[Discard] = []
    pons: list[Pon] = []
    passes = False
    for a in legal_actions:
        t = type(a)
        if t is Tsumo or t is Ron:
            return a
        if t is Discard:
            (riichis if a.riichi else discards).append(a)
        elif t is Pon:
            pons.append(a)
        elif t is Pass:
            passes = True
    if passes:  # a call window (or a kong to rob, where Ron was already taken)
        if pons:
            seen = _Seen(view_or_game, seat)
            value = {*_DRAGONS, 27 + seen.seat_wind, 27 + seen.round_wind}
            for p in pons:
                if p.tiles[0] >> 2 in value:
                    return p
        return next(a for a in legal_actions if type(a) is Pass)
    if riichis:
        return best_riichi(_Seen(view_or_game, seat), riichis)
    if len(discards) == 1:
        return discards[0]
    if discards:
        return best_discard(_Seen(view_or_game, seat), discards)
    return legal_actions[0]  # no discard offered (not expected): take the first option
