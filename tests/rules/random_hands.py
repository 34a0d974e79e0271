"""Seeded random WINNING hands, for the differential test, the property tests and the benchmark.

    from tests.rules.random_hands import random_hands, to_mahjong
    for hand in random_hands(1000, seed=1):
        score_hand(hand.tiles, hand.win_tile, hand.melds, hand.ctx, EMA2016)
        tiles, win, melds, dora, ura, config = to_mahjong(hand)      # the `mahjong` package's inputs
        HandCalculator.estimate_hand_value(tiles, win, melds, dora, config, ura_dora_indicators=ura)

Every hand is complete: four sets and a pair (0-4 of them declared as chi, pon, open kan,
ankan or kakan), seven different pairs, or thirteen orphans; it need not have a yaku.  No
kind is used more than four times, counting the hand, the dora and ura indicators (and,
for a robbed kong, the three tiles of the robbed pung).  The winning tile is one of the
concealed tiles.  The flags are consistent with the hand and with EMA 2016:

- riichi (and double riichi) only with a closed hand; ippatsu only with riichi, and never
  with rinshan (the kong that gives the replacement draw breaks ippatsu);
- rinshan only on a tsumo with a kong among the melds; haitei only on a tsumo, houtei only
  on a ron, never with rinshan or chankan;
- chankan only on a ron, on a tile of which the winner holds just that one (the other three
  are the robbed pung);
- tenhou (dealer tsumo), chiihou (non-dealer tsumo) and renhou (non-dealer ron) only for a
  hand with no melds and no riichi;
- 0-3 dora indicators; ura indicators (as many as the dora) only with riichi; honba 0-3,
  riichi sticks 0-2.

The data is plain (kinds 0-33, Meld and WinContext of server.rules) so it can be fed to
our score_hand as it is; `to_mahjong` converts one hand to the reference package's inputs
(136-format ids, mahjong.meld.Meld, HandConfig with the EMA-like OptionalRules).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from server.rules.context import WinContext
from server.rules.melds import Meld, MeldKind, make_meld
from server.rules.tiles import FIVES, RED_FIVES, TERMINALS_AND_HONOURS, dora_from_indicator, format_tiles

HONOUR_KINDS = tuple(range(27, 34))
WIND_KINDS = (27, 28, 29, 30)
DRAGON_KINDS = (31, 32, 33)
GREEN_KINDS = (19, 20, 21, 23, 25, 32)


@dataclass(frozen=True)
class RandomHand:
    """A complete hand and how it was won; `tiles` are the concealed tiles, the winning tile included."""

    tiles: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...]
    ctx: WinContext
    shape: str  # "standard", "chiitoitsu" or "kokushi"

    @property
    def closed(self) -> bool:
        return not any(m.is_open for m in self.melds)

    def describe(self) -> str:
        """One line that is enough to rebuild the hand (for failure messages and reports)."""
        c = self.ctx
        melds = ", ".join(str(m) for m in self.melds) or "-"
        flags = [f for f in ("tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei",
                             "houtei", "tenhou", "chiihou", "renhou") if getattr(c, f)]
        return (f"hand {format_tiles(self.tiles)} win {format_tiles([self.win_tile])} melds [{melds}] "
                f"{'+'.join(flags) or 'ron'} seat {'ESWN'[c.seat_wind]} round {'ESWN'[c.round_wind]} "
                f"dora {format_tiles(c.dora_indicators) or '-'} ura {format_tiles(c.ura_indicators) or '-'} "
                f"honba {c.honba} sticks {c.sticks}")


# ---------------------------------------------------------------------------------------
# Shapes

# (name, weight, probability that a free set is a chow)
_PROFILES = (
    ("mixed", 50, 0.62),
    ("simples", 10, 0.6),
    ("half_flush", 11, 0.55),
    ("full_flush", 7, 0.65),
    ("outside", 5, 0.5),
    ("pungs", 6, 0.08),
    ("dragons", 3, 0.5),
    ("winds", 2, 0.4),
    ("straight", 3, 0.6),
    ("triple_chow", 3, 0.6),
    ("triple_pung", 1, 0.4),
    ("honours", 2, 0.0),
    ("terminals", 1, 0.0),
    ("green", 1, 0.25),
)
_PROFILE_WEIGHTS = [p[1] for p in _PROFILES]


def _profile(rng: random.Random, profile: str) -> tuple[list[int], list[int], list[tuple[str, int]], list[int]]:
    """(kinds allowed in free pungs, first kinds allowed for free chows, forced sets, pair kinds)."""
    suit = rng.randrange(3) * 9
    suited = list(range(27))
    everything = suited + list(HONOUR_KINDS)
    all_chows = [k for k in suited if k % 9 < 7]
    if profile in ("mixed", "pungs"):
        return everything, all_chows, [], everything
    if profile == "simples":
        simples = [k for k in suited if 1 <= k % 9 <= 7]
        return simples, [k for k in simples if k % 9 <= 5], [], simples
    if profile == "half_flush":
        kinds = list(range(suit, suit + 9)) + list(HONOUR_KINDS)
        return kinds, list(range(suit, suit + 7)), [], kinds
    if profile == "full_flush":
        kinds = list(range(suit, suit + 9))
        return kinds, list(range(suit, suit + 7)), [], kinds
    if profile == "outside":
        kinds = list(TERMINALS_AND_HONOURS)
        return kinds, [k for k in suited if k % 9 in (0, 6)], [], kinds
    if profile == "dragons":
        dragons = rng.sample(DRAGON_KINDS, 3 if rng.random() < 0.25 else 2)
        pairs = [k for k in DRAGON_KINDS if k not in dragons] if rng.random() < 0.5 else everything
        return everything, all_chows, [("pung", k) for k in dragons], pairs or everything
    if profile == "winds":
        winds = rng.sample(WIND_KINDS, 4 if rng.random() < 0.25 else 3)
        pairs = [k for k in WIND_KINDS if k not in winds] if rng.random() < 0.5 else everything
        return everything, all_chows, [("pung", k) for k in winds], pairs or everything
    if profile == "straight":
        return everything, all_chows, [("chow", suit), ("chow", suit + 3), ("chow", suit + 6)], everything
    if profile == "triple_chow":
        k = rng.randrange(7)
        return everything, all_chows, [("chow", k), ("chow", k + 9), ("chow", k + 18)], everything
    if profile == "triple_pung":
        k = rng.randrange(9)
        return everything, all_chows, [("pung", k), ("pung", k + 9), ("pung", k + 18)], everything
    if profile == "honours":
        return list(HONOUR_KINDS), [], [], list(HONOUR_KINDS)
    if profile == "terminals":
        kinds = [0, 8, 9, 17, 18, 26]
        return kinds, [], [], kinds
    if profile == "green":
        return list(GREEN_KINDS), [19], [], list(GREEN_KINDS)
    raise ValueError(profile)


def _standard_sets(rng: random.Random) -> tuple[list[tuple[str, int]], int, list[int]]:
    """Four sets ("chow", first kind) / ("pung", kind) and a pair kind, with their 34 counts."""
    while True:
        index = rng.choices(range(len(_PROFILES)), weights=_PROFILE_WEIGHTS)[0]
        name, _, chow_p = _PROFILES[index]
        pung_kinds, chow_kinds, forced, pair_kinds = _profile(rng, name)
        counts = [0] * 34
        sets: list[tuple[str, int]] = []
        for what, k in forced:
            for j in ((k, k + 1, k + 2) if what == "chow" else (k, k, k)):
                counts[j] += 1
            sets.append((what, k))
        for _ in range(40):
            if len(sets) == 4:
                break
            if chow_kinds and rng.random() < chow_p:
                k = rng.choice(chow_kinds)
                if counts[k] < 4 and counts[k + 1] < 4 and counts[k + 2] < 4:
                    for j in (k, k + 1, k + 2):
                        counts[j] += 1
                    sets.append(("chow", k))
            else:
                k = rng.choice(pung_kinds)
                if counts[k] <= 1:
                    counts[k] += 3
                    sets.append(("pung", k))
        if len(sets) < 4:
            continue
        pairs = [k for k in pair_kinds if counts[k] <= 2]
        if not pairs:
            continue
        pair = rng.choice(pairs)
        counts[pair] += 2
        rng.shuffle(sets)
        return sets, pair, counts


_MELD_COUNT_WEIGHTS = (40, 25, 17, 12, 6)  # 0-4 declared melds
_PUNG_MELD = ((MeldKind.PON, 55), (MeldKind.KAN, 14), (MeldKind.ANKAN, 19), (MeldKind.KAKAN, 12))


def _standard_hand(rng: random.Random) -> tuple[list[int], list[Meld], list[int]]:
    """(concealed tiles without the winning tile chosen yet, melds, 34 counts of everything)."""
    sets, pair, counts = _standard_sets(rng)
    n_melds = rng.choices(range(5), weights=_MELD_COUNT_WEIGHTS)[0]
    declared = set(rng.sample(range(4), n_melds))
    concealed = [pair, pair]
    melds: list[Meld] = []
    for i, (what, k) in enumerate(sets):
        if what == "chow":
            if i in declared:
                melds.append(make_meld(MeldKind.CHI, (k, k + 1, k + 2)))
            else:
                concealed += [k, k + 1, k + 2]
        elif i not in declared:
            concealed += [k, k, k]
        else:
            kinds, weights = zip(*_PUNG_MELD)
            kind = rng.choices(kinds, weights=weights)[0]
            if kind is not MeldKind.PON and counts[k] < 4:
                counts[k] += 1
                melds.append(make_meld(kind, (k, k, k, k)))
            else:
                melds.append(make_meld(MeldKind.PON, (k, k, k)))
    return concealed, melds, counts


def _seven_pairs(rng: random.Random) -> list[int]:
    style = rng.choices(["mixed", "half_flush", "full_flush", "simples", "outside", "honours"],
                        weights=[55, 18, 8, 10, 8, 1])[0]
    suit = rng.randrange(3) * 9
    pool = {
        "mixed": list(range(34)),
        "half_flush": list(range(suit, suit + 9)) + list(HONOUR_KINDS),
        "full_flush": list(range(suit, suit + 9)),
        "simples": [k for k in range(27) if 1 <= k % 9 <= 7],
        "outside": list(TERMINALS_AND_HONOURS),
        "honours": list(HONOUR_KINDS),
    }[style]
    kinds = rng.sample(pool, 7)
    return [k for k in kinds for _ in range(2)]


def _nine_gates(rng: random.Random) -> list[int]:
    """1112345678999 of one suit and one more of that suit."""
    suit = rng.randrange(3) * 9
    return [suit + n for n in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9))]


def _thirteen_orphans(rng: random.Random) -> list[int]:
    return list(TERMINALS_AND_HONOURS) + [rng.choice(TERMINALS_AND_HONOURS)]


# ---------------------------------------------------------------------------------------
# Flags


def _context(rng: random.Random, tiles: list[int], win: int, melds: list[Meld], counts: list[int]) -> WinContext:
    closed = not any(m.is_open for m in melds)
    kongs = sum(1 for m in melds if m.is_kong)
    seat = rng.randrange(4)
    round_wind = rng.choices(range(4), weights=(50, 40, 7, 3))[0]
    tsumo = rng.random() < 0.45
    first_turn = None
    if not melds and rng.random() < 0.04:
        if tsumo:
            first_turn = "tenhou" if seat == 0 else "chiihou"
        elif seat != 0:
            first_turn = "renhou"
    riichi = closed and first_turn is None and rng.random() < 0.45
    double_riichi = riichi and rng.random() < 0.08
    rinshan = tsumo and kongs > 0 and rng.random() < 0.25
    ippatsu = riichi and not rinshan and rng.random() < 0.2
    haitei = tsumo and not rinshan and first_turn is None and rng.random() < 0.04
    houtei = not tsumo and first_turn is None and rng.random() < 0.04
    chankan = (not tsumo and not houtei and first_turn is None and counts[win] == 1 and rng.random() < 0.15)
    # Physical tiles left for the indicators: four of each kind, less the hand (and the robbed pung).
    left = [4 - c for c in counts]
    if chankan:
        left[win] = 0
    pool = [k for k in range(34) for _ in range(left[k])]
    n_dora = rng.choices(range(4), weights=(10, 55, 25, 10))[0]
    picked = rng.sample(pool, 2 * n_dora if riichi else n_dora)
    dora, ura = tuple(picked[:n_dora]), tuple(picked[n_dora:])
    return WinContext(
        tsumo=tsumo, riichi=riichi, double_riichi=double_riichi, ippatsu=ippatsu, rinshan=rinshan,
        chankan=chankan, haitei=haitei, houtei=houtei, tenhou=first_turn == "tenhou",
        chiihou=first_turn == "chiihou", renhou=first_turn == "renhou", seat_wind=seat, round_wind=round_wind,
        dora_indicators=dora, ura_indicators=ura, honba=rng.randrange(4), sticks=rng.randrange(3))


def random_hand(rng: random.Random) -> RandomHand:
    """One random winning hand drawn from `rng`."""
    roll = rng.random()
    melds: list[Meld] = []
    if roll < 0.006:
        shape, concealed = "kokushi", _thirteen_orphans(rng)
    elif roll < 0.009:
        shape, concealed = "standard", _nine_gates(rng)
    elif roll < 0.07:
        shape, concealed = "chiitoitsu", _seven_pairs(rng)
    else:
        shape = "standard"
        concealed, melds, _ = _standard_hand(rng)
    counts = [0] * 34
    for k in concealed:
        counts[k] += 1
    for m in melds:
        for k in m.tiles:
            counts[k] += 1
    win = rng.choice(concealed)
    rng.shuffle(concealed)
    rng.shuffle(melds)
    ctx = _context(rng, concealed, win, melds, counts)
    return RandomHand(tuple(concealed), win, tuple(melds), ctx, shape)


def random_hands(n: int, seed: int = 0) -> list[RandomHand]:
    """`n` random winning hands; the same seed always gives the same hands."""
    rng = random.Random(seed)
    return [random_hand(rng) for _ in range(n)]


def iter_random_hands(seed: int = 0) -> Iterator[RandomHand]:
    rng = random.Random(seed)
    while True:
        yield random_hand(rng)


# ---------------------------------------------------------------------------------------
# Transformations (for the property tests)


def map_hand(hand: RandomHand, kind_map: Sequence[int], indicator_map: Sequence[int] | None = None) -> RandomHand:
    """The hand with every kind k replaced by kind_map[k] (a bijection of 0-33).

    Indicators are mapped so that they point to the mapped dora: by `indicator_map` if
    given, else by kind_map (right for a suit permutation, which keeps "next tile").
    """
    ind = indicator_map or kind_map
    ctx = hand.ctx._replace(dora_indicators=tuple(ind[k] for k in hand.ctx.dora_indicators),
                  ura_indicators=tuple(ind[k] for k in hand.ctx.ura_indicators))
    melds = tuple(make_meld(m.kind, tuple(kind_map[k] for k in m.tiles)) for m in hand.melds)
    return RandomHand(tuple(kind_map[k] for k in hand.tiles), kind_map[hand.win_tile], melds, ctx, hand.shape)


def suit_permutation(order: Sequence[int]) -> list[int]:
    """The kind map sending suit s to suit order[s] (honours fixed)."""
    return [order[k // 9] * 9 + k % 9 if k < 27 else k for k in range(34)]


def mirror_map() -> list[int]:
    """The kind map n -> 10 - n in every suit (honours fixed)."""
    return [(k // 9) * 9 + 8 - k % 9 if k < 27 else k for k in range(34)]


def mirror_indicator_map() -> list[int]:
    """Indicators for the mirrored hand: the indicator of the mirror of the dora each one shows."""
    mirror = mirror_map()
    indicator_of = {dora_from_indicator(i): i for i in range(34)}
    return [indicator_of[mirror[dora_from_indicator(i)]] for i in range(34)]


# ---------------------------------------------------------------------------------------
# The `mahjong` package's inputs


def mahjong_options():
    """OptionalRules as close to EMA 2016 as the package goes."""
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules

    return OptionalRules(has_open_tanyao=True, has_aka_dora=False, has_double_yakuman=False,
                         kazoe_limit=HandConfig.KAZOE_SANBAIMAN, kiriage=False, fu_for_open_pinfu=True,
                         renhou_as_yakuman=False)


def mahjong_config(ctx: WinContext, options=None, **overrides):
    """The HandConfig for a WinContext (keyword overrides change single flags, e.g. is_renhou=False)."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig

    fields = dict(
        is_tsumo=ctx.tsumo, is_riichi=ctx.riichi or ctx.double_riichi, is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu, is_rinshan=ctx.rinshan, is_chankan=ctx.chankan, is_haitei=ctx.haitei,
        is_houtei=ctx.houtei, is_tenhou=ctx.tenhou, is_chiihou=ctx.chiihou, is_renhou=ctx.renhou,
        player_wind=EAST + ctx.seat_wind, round_wind=EAST + ctx.round_wind, tsumi_number=ctx.honba,
        kyoutaku_number=ctx.sticks, options=options or mahjong_options())
    fields.update(overrides)
    return HandConfig(**fields)


def to_mahjong(hand: RandomHand, options=None, **overrides):
    """(tiles136, win_tile136, melds, dora136, ura136, config) for HandCalculator.estimate_hand_value.

    Physical ids are handed out as kind * 4 + copy, concealed tiles first, then the melds,
    then the indicators; `tiles136` holds every tile of the hand, the melds' included.
    """
    from mahjong.meld import Meld as MjMeld

    used = [0] * 34

    def take(kind: int) -> int:
        copy = used[kind]
        if copy > 3:
            raise ValueError(f"more than four of kind {kind} in {hand.describe()}")
        used[kind] += 1
        return kind * 4 + copy

    concealed = [take(k) for k in hand.tiles]
    win = concealed[hand.tiles.index(hand.win_tile)]
    kinds = {MeldKind.CHI: (MjMeld.CHI, True), MeldKind.PON: (MjMeld.PON, True), MeldKind.KAN: (MjMeld.KAN, True),
             MeldKind.ANKAN: (MjMeld.KAN, False), MeldKind.KAKAN: (MjMeld.SHOUMINKAN, True)}
    melds = []
    all_tiles = list(concealed)
    for m in hand.melds:
        ids = [take(k) for k in sorted(m.tiles)]
        all_tiles += ids
        meld_type, opened = kinds[m.kind]
        melds.append(MjMeld(meld_type=meld_type, tiles=ids, opened=opened))
    dora = [take(k) for k in hand.ctx.dora_indicators]
    ura = [take(k) for k in hand.ctx.ura_indicators]
    return all_tiles, win, melds, dora, ura, mahjong_config(hand.ctx, options, **overrides)


# ---------------------------------------------------------------------------------------
# Red fives (for rules that play with them: config.TENHOU)


def with_red_fives(hand: RandomHand, rng: random.Random, chance: float = 0.5) -> RandomHand:
    """The hand with each suit's red five, where the hand holds a five of that suit, in its
    place with `chance` (one red five a suit, as there is one of each).  The winning tile
    becomes the red five where the hand's only five of its suit among the concealed tiles is."""
    tiles, melds = list(hand.tiles), [list(m.tiles) for m in hand.melds]
    for five, red in zip(FIVES, RED_FIVES):
        places = [(None, i) for i, t in enumerate(tiles) if t == five]
        places += [(j, i) for j, meld in enumerate(melds) for i, t in enumerate(meld) if t == five]
        if places and rng.random() < chance:
            meld, i = rng.choice(places)
            (tiles if meld is None else melds[meld])[i] = red
    win = hand.win_tile
    if win in FIVES and win not in tiles:
        win = RED_FIVES[FIVES.index(win)]
    new_melds = tuple(make_meld(m.kind, tuple(t)) for m, t in zip(hand.melds, melds))
    return RandomHand(tuple(tiles), win, new_melds, hand.ctx, hand.shape)
