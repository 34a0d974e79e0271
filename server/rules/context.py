"""How a hand was won: the facts about the win that are not in the tiles."""

from __future__ import annotations

from dataclasses import dataclass

from server.rules.tiles import EAST


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything about a win besides the tiles.  Winds are 0-3 (East-North)."""

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
    def unusual(self) -> bool:
        """Any flag beyond tsumo, riichi and ippatsu, or winds/counters out of range."""
        return (self.double_riichi or self.rinshan or self.chankan or self.haitei or self.houtei or self.tenhou
                or self.chiihou or self.renhou or self.ippatsu or not 0 <= self.seat_wind <= 3
                or not 0 <= self.round_wind <= 3 or self.honba < 0 or self.sticks < 0)

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
        """A one-line reason why these facts cannot all hold, or None."""
        riichi = self.riichi or self.double_riichi
        first_turn = self.tenhou or self.chiihou or self.renhou
        checks = [
            (riichi and not closed, "riichi needs a closed hand, and this one has an open meld"),
            (self.ippatsu and not riichi, "ippatsu needs riichi"),
            (self.rinshan and not self.tsumo, "rinshan is a win on a self-drawn tile: set tsumo"),
            (self.rinshan and not kongs, "rinshan needs a kong among the melds"),
            (self.haitei and not self.tsumo, "haitei is a win on the last drawn tile: set tsumo (houtei is the ron)"),
            (self.houtei and self.tsumo, "houtei is a win on the last discard: it cannot be a tsumo (haitei is)"),
            (self.chankan and self.tsumo, "chankan is a win on another player's kong: it cannot be a tsumo"),
            (self.rinshan and self.haitei, "rinshan and haitei cannot both hold"),
            (self.tenhou and not (self.tsumo and self.dealer), "tenhou is the dealer's win on the first draw: seat E, tsumo"),
            (self.chiihou and not (self.tsumo and not self.dealer), "chiihou is a non-dealer's win on the first draw: tsumo, seat not E"),
            (self.renhou and (self.tsumo or self.dealer), "renhou is a non-dealer's win on a discard before their first draw"),
            (first_turn and not closed, "a first-turn win needs a closed hand"),
            (first_turn and kongs, "a first-turn win cannot have a kong"),
            (first_turn and riichi, "a first-turn win comes before the player's first discard, so before any riichi"),
            (self.ippatsu and self.rinshan and ippatsu_broken_by_concealed_kong,
             "ippatsu is broken by any call, a concealed kong included, so a rinshan win cannot be ippatsu"),
            (self.chankan and self.houtei, "no kong can be declared on the last tile, so houtei cannot be chankan"),
            (not 0 <= self.seat_wind <= 3 or not 0 <= self.round_wind <= 3, "winds are E, S, W or N"),
            (self.honba < 0 or self.sticks < 0, "honba and sticks cannot be negative"),
        ]
        return next((reason for bad, reason in checks if bad), None)
