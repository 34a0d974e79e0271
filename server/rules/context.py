"""How a hand was won: the facts about the win that are not in the tiles."""

from __future__ import annotations

from typing import NamedTuple

from server.rules.tiles import EAST


class WinContext(NamedTuple):
    """Everything about a win besides the tiles.  Winds are 0-3 (East-North).  A named
    tuple, not a frozen dataclass: bulk scoring makes one a hand, and a frozen dataclass's
    seventeen guarded assignments took four times as long as the tuple."""

    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    dora_indicators: tuple[int, ...] = ()  # kinds
    ura_indicators: tuple[int, ...] = ()  # kinds; they count only for a riichi win
    honba: int = 0
    sticks: int = 0

    @property
    def dealer(self) -> bool:
        return self.seat_wind == 0

    @property
    def seat_wind_kind(self) -> int:
        return EAST + self.seat_wind

    @property
    def round_wind_kind(self) -> int:
        return EAST + self.round_wind

    def contradiction(self, closed: bool, kongs: int, ippatsu_broken_by_concealed_kong: bool = True) -> str | None:
        """A one-line reason why these facts cannot all hold, or None.  (Checked in turn, with
        no list of them built: scoring asks this of every hand with a flag beyond riichi and tsumo.)"""
        riichi = self.riichi or self.double_riichi
        tsumo, dealer = self.tsumo, self.dealer
        first_turn = self.tenhou or self.chiihou or self.renhou
        if riichi and not closed:
            return "riichi needs a closed hand, and this one has an open meld"
        if self.ippatsu and not riichi:
            return "ippatsu needs riichi"
        if self.rinshan:
            if not tsumo:
                return "rinshan is a win on a self-drawn tile: set tsumo"
            if not kongs:
                return "rinshan needs a kong among the melds"
        if self.haitei and not tsumo:
            return "haitei is a win on the last drawn tile: set tsumo (houtei is the ron)"
        if self.houtei and tsumo:
            return "houtei is a win on the last discard: it cannot be a tsumo (haitei is)"
        if self.chankan and tsumo:
            return "chankan is a win on another player's kong: it cannot be a tsumo"
        if self.rinshan and self.haitei:
            return "rinshan and haitei cannot both hold"
        if first_turn:
            if self.tenhou and not (tsumo and dealer):
                return "tenhou is the dealer's win on the first draw: seat E, tsumo"
            if self.chiihou and not (tsumo and not dealer):
                return "chiihou is a non-dealer's win on the first draw: tsumo, seat not E"
            if self.renhou and (tsumo or dealer):
                return "renhou is a non-dealer's win on a discard before their first draw"
            if not closed:
                return "a first-turn win needs a closed hand"
            if kongs:
                return "a first-turn win cannot have a kong"
            if riichi:
                return "a first-turn win comes before the player's first discard, so before any riichi"
        if self.ippatsu and self.rinshan and ippatsu_broken_by_concealed_kong:
            return "ippatsu is broken by any call, a concealed kong included, so a rinshan win cannot be ippatsu"
        if self.chankan and self.houtei:
            return "no kong can be declared on the last tile, so houtei cannot be chankan"
        if (self.seat_wind | self.round_wind) & ~3:
            return "winds are E, S, W or N"
        if (self.honba | self.sticks) < 0:
            return "honba and sticks cannot be negative"
        return None
