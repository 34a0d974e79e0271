"""What a seat, or a spectator, sees of the game: assembled from the public part, that
seat's private part and its legal actions.  Nothing is copied whole and then pruned."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.game import analysis
from server.game.actions import action_to_data

if TYPE_CHECKING:
    from server.game.engine import Game


def public_view(game: "Game") -> dict[str, Any]:
    """Everything every player and spectator may see."""
    p = game.public
    return {
        "rules": game.rules.name,
        "overrides": dict(game.overrides),
        "names": list(game.names),
        "seed_hash": game.seed_hash,
        "round": p.round_name,
        "round_wind": p.round_wind,
        "dealer": p.dealer,
        "honba": p.honba,
        "sticks": p.sticks,
        "scores": list(p.scores),
        "dora_indicators": list(p.dora_indicators),
        "tiles_left": p.tiles_left,
        "turn": p.turn,
        "phase": p.phase.value,
        "last_discard": p.last_discard,
        "hand_sizes": [len(priv.hand) for priv in game.private],
        "seats": [
            {
                "discards": list(sp.discards),
                "tsumogiri": list(sp.tsumogiri),
                "claimed": sorted(sp.claimed),
                "riichi_index": sp.riichi_index,
                "riichi": sp.riichi,
                "melds": [{"kind": m.kind.value, "tiles": list(m.tiles), "called": m.called, "from": m.from_seat}
                          for m in sp.melds],
            }
            for sp in p.seats
        ],
        "final": game.final,
    }


def private_view(game: "Game", seat: int) -> dict[str, Any]:
    """What only `seat` sees: its hand, its drawn tile, its waits and furiten."""
    priv = game.private[seat]
    furiten = analysis.furiten(priv.waits, game.public.seats[seat].discards, priv.temporary_furiten,
                               priv.riichi_furiten)
    return {
        "seat": seat,
        "hand": sorted(priv.hand),
        "drawn": priv.drawn,
        "waits": list(priv.waits),
        "furiten": furiten,
    }


def seat_view(game: "Game", seat: int) -> dict[str, Any]:
    """public + private[seat] + the legal actions of seat."""
    return {**public_view(game), "you": private_view(game, seat),
            "actions": [action_to_data(a) for a in game.legal_actions(seat)]}


def spectator_view(game: "Game") -> dict[str, Any]:
    return public_view(game)
