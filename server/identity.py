"""Players (issue 25): who plays, apart from the seat a resume token holds.

A client keeps a secret player key (the browser in its local storage, riichi-play in its
config folder) and says it in every `hello`; the server keeps only the key's hash, and knows
the player by it: its id (public: every seat it holds shows it) and a name it may change.  A
key the server does not know makes a new player, unless the server admits only the keys it
issued (`riichi-server players add NAME`, `--require-player-key`).  Bots are players too: the
server's strategies each one player, a program that says `bot` one by its key, or else by
its name.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from server.store.rows import PlayerKind, PlayerRow, token_hash

if TYPE_CHECKING:  # (the table core reads strategy_player_id, and imports no store)
    from server.store.protocol import Store

KEY_LENGTHS = (16, 128)  # a player key's shortest and longest: long enough not to be guessed
STRATEGY_PREFIX = "bot-"  # the id of a server strategy's player: bot-builtin, bot-shanten, ...
PROGRAM_PREFIX = "program-"  # the id of a keyless program's player: from its name


class PlayerRefused(Exception):
    """The server admits only players it issued keys to, and this hello's is not one (one line)."""


def new_key() -> str:
    """A player key, as `players add` issues it (URL-safe, 32 characters)."""
    return secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    """Player keys are stored only as their hash (as resume tokens are)."""
    return token_hash(key)


def new_player(name: str, kind: PlayerKind, issued: bool = False) -> PlayerRow:
    return PlayerRow(secrets.token_hex(8), name, kind, issued, time.time())


def strategy_player_id(strategy: str) -> str:
    """The player of a server bot's strategy: one for every seat that strategy plays."""
    return STRATEGY_PREFIX + strategy


def strategy_player(strategy: str) -> PlayerRow:
    return PlayerRow(strategy_player_id(strategy), f"{strategy} bot", PlayerKind.BOT, False, time.time())


async def add_strategy_players(store: Store, strategies: Iterable[str]) -> None:
    """The players of the server's bot strategies, stored once (on the first start that knows them)."""
    for strategy in strategies:
        await store.add_player(strategy_player(strategy), None)


def program_player(name: str) -> PlayerRow:
    """A program that said `bot` with no key: the player of its name."""
    digest = hashlib.sha256(name.encode()).hexdigest()[:16]
    return PlayerRow(PROGRAM_PREFIX + digest, name, PlayerKind.BOT, False, time.time())


def key_problem(key: str) -> str | None:
    """Why a player key cannot be one, in a line (None: it can)."""
    shortest, longest = KEY_LENGTHS
    if not shortest <= len(key) <= longest or not key.isprintable():
        return f"a player key is {shortest} to {longest} printable characters: make one at random and keep it"
    return None


async def player_of_hello(store: Store, key: str | None, name: str, program: bool,
                          issued_only: bool) -> PlayerRow | None:
    """The player a hello says it is (None: a client that keeps no key, on a server that lets
    it in as no one); raises PlayerRefused when `issued_only` and the key is not one issued."""
    if key is not None:
        known = await store.player_of_key(key_hash(key))
        if issued_only and (known is None or not known.issued):
            raise PlayerRefused("this server admits only the players it knows, and not this player key: open the"
                                " link its operator gave you (riichi-server players add NAME)")
        if known is not None:
            return known
        kind = PlayerKind.BOT if program else PlayerKind.HUMAN
        return await store.add_player(new_player(name, kind), key_hash(key))
    if issued_only:
        raise PlayerRefused("this server admits only the players it knows: say hello with the player key its"
                            " operator gave you (riichi-server players add NAME)")
    if program:
        return await store.add_player(program_player(name), None)
    return None
