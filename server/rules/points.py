"""Base points, limits and payments (scoring guide: 'Base points', 'Limit hands', 'Honba').

Each payment is rounded up to the next 100 on its own; a counter (honba) adds 300 to
a ron, or 100 to each payment of a tsumo.
"""

from __future__ import annotations

from typing import NamedTuple

from server.rules.config import Rules

MANGAN, HANEMAN, BAIMAN, SANBAIMAN, YAKUMAN = "mangan", "haneman", "baiman", "sanbaiman", "yakuman"
LIMIT_BASE = {MANGAN: 2000, HANEMAN: 3000, BAIMAN: 4000, SANBAIMAN: 6000, YAKUMAN: 8000}


class Payment(NamedTuple):
    """Who pays the winner what, counters included; exactly one shape is set.  (A named
    tuple, as HandScore is, for speed.)"""

    ron: int = 0  # paid by the discarder
    dealer: int = 0  # non-dealer tsumo: the dealer's share
    non_dealer: int = 0  # non-dealer tsumo: each other non-dealer's share
    all: int = 0  # dealer tsumo: each of the three

    @property
    def total(self) -> int:
        """What the winner collects from the players, riichi sticks not included."""
        if self.ron:
            return self.ron
        if self.all:
            return 3 * self.all
        return self.dealer + 2 * self.non_dealer

    def as_dict(self) -> dict[str, int]:
        if self.ron:
            return {"ron": self.ron}
        if self.all:
            return {"all": self.all}
        return {"dealer": self.dealer, "non_dealer": self.non_dealer}


def round_up_100(points: int) -> int:
    return -(-points // 100) * 100


def limit_for(han: int, fu: int, rules: Rules, yakuman: int = 0) -> tuple[str | None, int]:
    """(limit name or None, base points) for a hand of han and fu, or of `yakuman` yakuman."""
    if yakuman:
        return YAKUMAN, 8000 * yakuman
    if han < 5:  # the usual hand first
        base = fu << (2 + han)  # fu x 2^(2 + han)
        if base >= 2000 or (base == 1920 and rules.kiriage):
            return MANGAN, 2000
        return None, base
    if han >= 13:
        return (YAKUMAN, 8000) if rules.kazoe_yakuman else (SANBAIMAN, 6000)
    if han >= 11:
        return SANBAIMAN, 6000
    if han >= 8:
        return BAIMAN, 4000
    if han >= 6:
        return HANEMAN, 3000
    return MANGAN, 2000


def collected(base: int, dealer: bool, tsumo: bool) -> int:
    """What the winner collects in all, before counters: the key for choosing between readings."""
    if not tsumo:
        return -(-base * (6 if dealer else 4) // 100) * 100
    if dealer:
        return 3 * (-(-base * 2 // 100) * 100)
    return -(-base * 2 // 100) * 100 + 2 * (-(-base // 100) * 100)


# Payments made, keyed by `honba << 21 | base << 2 | dealer << 1 | tsumo`: one int, hashed
# and compared faster than a tuple, and distinct for every base below 2**19 (65 yakuman)
# and every honba.  The scoring guide's table is small (a few hundred bases, a handful
# of counters), so every hand after the first few is a lookup.
PAYMENTS: dict[int, Payment] = {}


def payment_for(base: int, dealer: bool, tsumo: bool, honba: int = 0) -> Payment:
    """The payment table of the scoring guide ('Dealer and non-dealer')."""
    if base >> 19:  # beyond any hand, or negative: not memoised, so that keys stay distinct
        return _payment(base, dealer, tsumo, honba)
    key = honba << 21 | base << 2 | dealer << 1 | tsumo
    payment = PAYMENTS.get(key)
    if payment is None:
        payment = _payment(base, dealer, tsumo, honba)
        if len(PAYMENTS) < 100_000:  # bounded, whatever the callers ask
            PAYMENTS[key] = payment
    return payment


def _payment(base: int, dealer: bool, tsumo: bool, honba: int) -> Payment:
    if not tsumo:
        return Payment(ron=round_up_100(base * (6 if dealer else 4)) + 300 * honba)
    if dealer:
        return Payment(all=round_up_100(base * 2) + 100 * honba)
    return Payment(dealer=round_up_100(base * 2) + 100 * honba, non_dealer=round_up_100(base) + 100 * honba)
