"""The clustered interval covers the truth at about its nominal 95% in simulations whose
truth is known: sets whose games share a set effect (the walls), with skewed places."""

from __future__ import annotations

import math
import random

import pytest

from client_cli.arena.interval import mean_interval, t975

EXPERIMENTS = 200


def _set_place(rng: random.Random, strength: float, luck: float | None = None) -> float:
    """One set's mean place of a bot in four games: the set's walls shift its chances (a
    shared effect `luck`, so its games are correlated), each game then draws a place 1-4."""
    luck = rng.gauss(0, 0.8) if luck is None else luck
    total = 0
    for _ in range(4):
        weights = [math.exp(-(strength + luck) * k) for k in range(4)]
        total += rng.choices((1, 2, 3, 4), weights)[0]
    return total / 4


def _expected_place(strength: float, luck: float) -> float:
    weights = [math.exp(-(strength + luck) * k) for k in range(4)]
    return sum((k + 1) * w for k, w in enumerate(weights)) / sum(weights)


def _truth(strength: float, sign: int = 1) -> float:
    """The true mean place: the expected place integrated over the set effect (luck ~
    N(0, 0.8), or its negative), on a fine grid out to six standard deviations."""
    step, sd = 0.001, 0.8
    grid = [i * step for i in range(-6000, 6001)]
    density = [math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi) * step for x in grid]
    return sum(d * _expected_place(strength, sign * sd * x) for x, d in zip(grid, density))


@pytest.mark.parametrize("sets", [10, 50])
def test_interval_covers_a_known_mean_at_about_95_percent(sets):
    """200 simulated runs of `sets` sets each: the share whose interval holds the true mean
    is within 90-99%."""
    rng = random.Random(f"coverage {sets}")
    truth = _truth(0.5)
    covered = 0
    for _ in range(EXPERIMENTS):
        iv = mean_interval([_set_place(rng, 0.5) for _ in range(sets)])
        covered += iv.low <= truth <= iv.high
    assert 0.90 <= covered / EXPERIMENTS <= 0.99


def test_paired_difference_covers_a_known_difference():
    """Two bots on the same sets (the same walls favour one and not the other): the per-set
    difference's interval holds the true difference of their means at about 95%."""
    rng = random.Random("paired")
    truth = _truth(0.6) - _truth(0.2, sign=-1)
    covered = 0
    for _ in range(EXPERIMENTS):
        lucks = [rng.gauss(0, 0.8) for _ in range(30)]
        iv = mean_interval([_set_place(rng, 0.6, luck) - _set_place(rng, 0.2, -luck) for luck in lucks])
        covered += iv.low <= truth <= iv.high
    assert 0.90 <= covered / EXPERIMENTS <= 0.99


def test_t_quantiles_match_the_tables():
    """Student's t 97.5%: 12.706 (1 df), 2.042 (30), 2.021 (40), 2.000 (60), 1.980 (120)."""
    assert t975(1) == 12.706
    assert t975(30) == 2.042
    for df, value in ((40, 2.021), (60, 2.000), (120, 1.980)):
        assert abs(t975(df) - value) < 0.001


def test_one_set_has_no_interval():
    iv = mean_interval([2.5])
    assert (iv.mean, iv.n, iv.to_data()["low"]) == (2.5, 1, None)
