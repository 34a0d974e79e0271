"""Each round's tables: who sits together (`Seating`: by standing, shuffled for the fewest
repeat opponents, or given).  Which wind each takes at the table is winds.py's.  Pure: the
same inputs (and seed) give the same tables.

A player is any hashable id (the service's player ids, and its bots' fillers).  A round is a
list of tables, each a tuple of four players; `history` the rounds already played.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import TypeVar

from server.events.spec import EventError

P = TypeVar("P", bound=Hashable)
Round = list[tuple[P, ...]]


def meetings(rounds: Sequence[Sequence[Sequence[P]]]) -> Counter[frozenset[P]]:
    """How often each pair of players has sat at one table."""
    met: Counter[frozenset[P]] = Counter()
    for tables in rounds:
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def repeats(rounds: Sequence[Sequence[Sequence[P]]]) -> int:
    """The repeat meetings of a schedule: a pair that met m times counts (m-1)**2 (1 for a pair
    met twice, 4 for a pair met three times: two pairs meeting again are better than one pair
    meeting a third time)."""
    return sum(_weight(m) for m in meetings(rounds).values())


def _weight(m: int) -> int:
    return (m - 1) ** 2 if m else 0


def _tables_of(players: Sequence[P]) -> Round[P]:
    if len(players) % 4:
        raise EventError(f"{len(players)} players do not make tables of four: add players or bots")
    if len(set(players)) != len(players):
        raise EventError("a player is seated twice in one round")
    return [tuple(players[i:i + 4]) for i in range(0, len(players), 4)]


def swiss(ranked: Sequence[P]) -> Round[P]:
    """Tables by standing: `ranked` the players best first; the first four at table 1, the next
    four at table 2, and so on (Swiss: players meet those with the results closest to theirs)."""
    return _tables_of(ranked)


def given(tables: Sequence[Sequence[P]], players: Sequence[P]) -> Round[P]:
    """The organiser's tables, checked: every player once, four a table."""
    seated = [p for table in tables for p in table]
    if any(len(table) != 4 for table in tables):
        raise EventError("each given table has four players (bot:1, bot:2 ... for the seats left over)")
    if sorted(map(str, seated)) != sorted(map(str, players)):
        fillers = [p for p in players if str(p).startswith("bot:")]
        also = f" (and the bots {', '.join(map(str, fillers))} in the seats left over)" if fillers else ""
        raise EventError(f"the given tables seat every player of the event once{also}, and no one else")
    return [tuple(table) for table in tables]


def shuffled(players: Sequence[P], history: Sequence[Sequence[Sequence[P]]], rounds: int, seed: int,
             effort: int | None = None) -> list[Round[P]]:
    """`rounds` more rounds for `players` after `history`, with the fewest repeat meetings
    (`repeats`) over the whole schedule, found by a search with restarts (simulated annealing
    over swaps of two players at different tables of one round).  The same seed gives the same
    schedule.  The service plays the first of them and plans again after it, so that a player
    added or dropped between rounds changes only what is still to come.

    `history` is seated (seat 0 East, winds.py); for the first of the new rounds the search also
    prefers, after the fewest repeats, tables each with a player who has sat East least (so that
    winds.py can give East to someone who has not had it)."""
    _tables_of(players)  # (checks the count)
    effort = effort or 300 * len(players)  # steps a restart (12 players: 3,600, a fraction of a second)
    rng = random.Random(seed)
    east = Counter(table[0] for tables in history for table in tables)
    best: list[Round[P]] | None = None
    best_cost = math.inf
    for _restart in range(6):
        plan = [_tables_of(rng.sample(list(players), len(players))) for _ in range(rounds)]
        plan, cost = _anneal(plan, list(history), rng, effort, east)
        if cost < best_cost:
            best, best_cost = plan, cost
        if cost == 0:
            break
    assert best is not None
    return best


EAST_WEIGHT = 0.25  # a table of the next round whose players have all sat East once: a quarter of a repeat


def _anneal(plan: list[Round[P]], history: list, rng: random.Random, effort: int,
            east: Counter) -> tuple[list[Round[P]], float]:
    met = meetings(history)
    tables = [[list(t) for t in r] for r in plan]
    for r in tables:
        for t in r:
            met.update(frozenset(pair) for pair in combinations(t, 2))

    def east_cost(table: list) -> float:
        return EAST_WEIGHT * min(east[p] for p in table)
    cost = sum(_weight(m) for m in met.values()) + sum(east_cost(t) for t in tables[0]) if tables else 0
    best, best_cost = [[tuple(t) for t in r] for r in tables], cost
    if len(tables) == 0 or len(tables[0]) < 2:
        return best, best_cost
    temperature = 2.0
    for step in range(effort):
        if cost == 0:
            break
        r = rng.randrange(len(tables))
        a, b = rng.sample(range(len(tables[r])), 2)
        i, j = rng.randrange(4), rng.randrange(4)
        x, y = tables[r][a][i], tables[r][b][j]
        delta: float = _swap_delta(met, tables[r][a], tables[r][b], i, j)
        if r == 0:
            before = east_cost(tables[0][a]) + east_cost(tables[0][b])
            tables[0][a][i], tables[0][b][j] = y, x
            delta += east_cost(tables[0][a]) + east_cost(tables[0][b]) - before
            tables[0][a][i], tables[0][b][j] = x, y
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            _move(met, tables[r][a], x, y, -1)
            _move(met, tables[r][b], y, x, -1)
            tables[r][a][i], tables[r][b][j] = y, x
            _move(met, tables[r][a], y, x, +1)
            _move(met, tables[r][b], x, y, +1)
            cost += delta
            if cost < best_cost:
                best, best_cost = [[tuple(t) for t in rr] for rr in tables], cost
        temperature = max(0.05, 2.0 * (1 - step / effort))
    return best, best_cost


def _move(met: Counter, table: list, player: Hashable, other: Hashable, sign: int) -> None:
    """Add (sign +1) or take away (-1) `player`'s meetings with `table`'s others (not `other`)."""
    for q in table:
        if q != player and q != other:
            met[frozenset((player, q))] += sign


def _swap_delta(met: Counter, one: list, two: list, i: int, j: int) -> int:
    """What swapping one[i] and two[j] changes in `repeats`: x leaves one's others and meets
    two's, y the other way round (each pair's count one less or one more)."""
    x, y = one[i], two[j]
    delta = 0
    for leaving, joining, table in ((x, y, one), (y, x, two)):
        for q in table:
            if q != leaving:
                m, n = met[frozenset((leaving, q))], met[frozenset((joining, q))]
                delta += _weight(m - 1) - _weight(m) + _weight(n + 1) - _weight(n)
    return delta
