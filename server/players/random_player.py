"""The random player: a uniform choice among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from server.game.actions import Action


def choose(view_or_game: Any, seat: int, legal_actions: Sequence[Action], rng: random.Random) -> Action:
    """Any legal action, each equally likely (the view is not read)."""
    return legal_actions[int(rng.random() * len(legal_actions))]
