"""A running server's part in its ladders (docs/ladder.md): every node keeps the bots whose
ladder connection it holds queued in the store, and polls: one node at a time (the matchmaker's
lease, claimed with a conditional UPDATE) matches each ladder's free bots into duplicate sets and
opens each set's next game once its bots are free; every node tells the bots it holds the table
of their next game (`ladder_table`); the node that ran a game rates it on the ladder and queues
its bots again (server/finishes.py).

Polling the store, as the events runner does (server/events/runner.py): a bot on one node and a
bot on another meet in the store, and a table opened on any node is joined with its invite code
from any node.  A set's next game opens within `every` seconds of its bots being free.
"""

from __future__ import annotations

import asyncio
import time

import structlog

from protocol import server_messages
from protocol.messages import ErrorCode
from protocol.server_messages import error
from server.away import Away
from server.finished import GameFinished
from server.identity import PROGRAM_PREFIX
from server.ladder.ladder import Ladder, ladder_of
from server.ladder.matchmaker import Waiting, next_rotation, sets_of
from server.ladder.rating import rate_game
from server.ladder.sets import ROTATIONS, entrants, new_seed, registered, seating, standing_in, table_spec
from server.lobby import Lobby, LobbyError
from server.ratings import rated
from server.session import Session
from server.store.ladder_rows import BotState, LadderBotRow, LadderGameState, LadderSetRow
from server.table.io import Stop
from server.table.seats import TableState

log = structlog.get_logger("riichi.ladder")

POLL_EVERY = 1.0  # seconds between looks
JOIN_WAIT = 60.0  # seconds a table waits for a bot told of it to take its seat, ready, before the bot is dropped
GATHER = 3.0  # seconds two or three free bots wait from the newest one's joining before their set starts


class LadderRefused(Exception):
    """A ladder_join the server cannot take: its error code and one line."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = code


class Ladders:
    def __init__(self, lobby: Lobby, node: str, every: float = POLL_EVERY, gather: float = GATHER,
                 join_wait: float = JOIN_WAIT):
        self.lobby, self.node, self.every, self.gather, self.join_wait = lobby, node, every, gather, join_wait
        self.lease = max(3.0, 5 * every)  # a node that stops matching hands the ladder on after this
        self.stale = max(5.0, 5 * every)  # a bot its node has not said is there for this long is not seated
        self.here: dict[tuple[str, str], Session] = {}  # (ladder, player id) -> its ladder connection's session
        self.told: dict[tuple[str, str], str] = {}  # ... -> the invite code of the table it was last told
        self.waiting: dict[str, float] = {}  # a table of a ladder game this node runs -> when it was first seen waiting
        self.unsubscribe = lobby.finishes.subscribe(self.ended, relayed=False)  # the node that ran it rates it

    # ---- a bot queues --------------------------------------------------------------------

    async def join(self, session: Session, name: str) -> None:
        """Queue the session's player on ladder `name`; LadderRefused says why not."""
        player = session.player_id
        if player is None or player.startswith(PROGRAM_PREFIX):
            raise LadderRefused(ErrorCode.NO_PLAYER, "a ladder rates known players: say hello with your bot's player"
                                " key (riichi-server players add NAME --bot prints one; riichi-bot --player-key)")
        if await self.lobby.store.ladder(name) is None:
            raise LadderRefused(ErrorCode.NO_LADDER, f"there is no ladder {name[:60]!r} on this server: riichi-server"
                                " ladder list shows them (an operator makes one with ladder create)")
        await self.lobby.store.queue_bot(name, player, self.node)
        self.here[(name, player)] = session
        self.told.pop((name, player), None)  # (back after a lost connection: told its table again)
        session.send(server_messages.ladder_joined(name, player))
        log.info("ladder_joined", ladder=name, player=player)

    # ---- the poll ------------------------------------------------------------------------

    async def run(self) -> None:
        """Look every `every` seconds, until cancelled."""
        while True:
            try:
                await self.look()
            except Away:  # the database does not answer now: the next look
                pass
            except Exception:  # noqa: BLE001 - a bad row must not end the loop
                log.exception("ladder_look_failed")
            await asyncio.sleep(self.every)

    async def look(self) -> None:
        for row in await self.lobby.store.ladders():
            await self.keep(row.name)
            await self.reopen_deserted(row.name)
            if not self.lobby.closing and await self.lobby.store.claim_matcher(row.name, self.node, self.lease):
                await self.match(Ladder.of_row(row))
            await self.tell(row.name)

    async def keep(self, name: str) -> None:
        """The bots this node holds: those whose connection closed leave the queue, the others
        are there now."""
        store = self.lobby.store
        for key, session in list(self.here.items()):
            if key[0] == name and session.connection is None:
                del self.here[key]
                self.told.pop(key, None)
                await store.bot_gone(name, key[1], self.node)
                log.info("ladder_left", ladder=name, player=key[1])
        await store.touch_bots(name, self.node)
        dropped = {b.player_id for b in await store.ladder_bots(name) if b.state is BotState.GONE}
        for key, session in list(self.here.items()):
            if key[0] == name and key[1] in dropped:  # (by the node of its table: it did not take its seat)
                del self.here[key]
                self.told.pop(key, None)
                session.send(error(
                    ErrorCode.LADDER_DROPPED, f"out of ladder {name!r}: your bot did not take the seat it was told"
                    f" of and say ready within {self.join_wait:g} s, and its game opened again without it (ladder_join"
                    " queues it again)"))
                log.info("ladder_dropped", ladder=name, player=key[1])

    async def reopen_deserted(self, name: str) -> None:
        """A table this node runs whose game has not begun, and that waits for a bot gone from the
        queue (stopped between games, or its connection lost), or for one that has not taken its
        seat and said ready in `join_wait` seconds (that one is dropped from the queue; the lobby
        leaves a ladder's tables to this, never closing one as idle): closed, its other bots
        queued again, and the game opened again at the next look (the gone bot's seat played by
        the fill bot)."""
        store, now = self.lobby.store, time.time()
        bots = {b.player_id: b for b in await store.ladder_bots(name)}
        for game in await store.open_ladder_games(name):
            table = self.lobby.tables.get(game.table_id or "")
            if table is None or table.state is not TableState.WAITING:
                self.waiting.pop(game.table_id or "", None)
                continue
            gone = [p for p in registered(game.seats)
                    if p not in bots or bots[p].state is BotState.GONE or now - bots[p].seen > self.stale]
            if time.monotonic() - self.waiting.setdefault(table.id, time.monotonic()) > self.join_wait:
                seated = {seat.player_id for seat in table.seats if seat is not None and seat.ready}
                for player in registered(game.seats):
                    if player not in seated and player not in gone:
                        await store.drop_bot(name, player)
                        gone.append(player)
            if not gone or not await store.ladder_game_closed(table.id):
                continue
            self.waiting.pop(table.id, None)
            table.put(Stop("a bot of this ladder game left before it began: the game opens again without it",
                           keep=False))
            for player in registered(game.seats):
                await store.free_bot(name, player)
            log.info("ladder_table_deserted", ladder=name, set=game.number, rotation=game.rotation, gone=gone)

    async def tell(self, name: str) -> None:
        """Each bot held here that has a table open for it, and was not told of it: told."""
        for game in await self.lobby.store.open_ladder_games(name):
            for seat, player in enumerate(game.seats):
                session = self.here.get((name, player))
                if session is None or game.invite is None or self.told.get((name, player)) == game.invite:
                    continue
                self.told[(name, player)] = game.invite
                session.send(server_messages.ladder_table(name, game.number, game.rotation, game.invite, seat))

    # ---- the matchmaker (the node holding the ladder's lease) -----------------------------

    async def match(self, ladder: Ladder) -> None:
        store, now = self.lobby.store, time.time()
        bots = {b.player_id: b for b in await store.ladder_bots(ladder.name)
                if b.state is not BotState.GONE and now - b.seen <= self.stale}
        in_sets: set[str] = set()
        for one in await store.playing_sets(ladder.name):
            in_sets |= await self.go_on(ladder, one, bots)
        waiting = [Waiting(b.player_id, b.since, b.joined) for b in bots.values()
                   if b.state is BotState.FREE and b.player_id not in in_sets]
        for chosen in sets_of(waiting, now, self.gather, ladder.fills):
            made = await store.add_ladder_set(ladder.name, new_seed(), entrants(chosen, ladder.fill))
            log.info("ladder_set_made", ladder=ladder.name, set=made.number, entrants=list(made.entrants))
            await self.go_on(ladder, made, bots)

    async def go_on(self, ladder: Ladder, one: LadderSetRow, bots: dict[str, LadderBotRow]) -> set[str]:
        """Open a set's next game if its bots are all free (a bot gone is played by the fill bot);
        the set ends after its fourth game, or when all its bots are gone.  The set's bots still here."""
        store = self.lobby.store
        games = await store.set_games(ladder.name, one.number)
        ended = sum(g.state in (LadderGameState.DONE, LadderGameState.ABANDONED) for g in games)
        live = {p for p in registered(one.entrants) if p in bots}
        if ended == ROTATIONS or (not live and len(games) == ended):  # (a game in play ends first)
            await store.ladder_set_done(ladder.name, one.number)
            log.info("ladder_set_done", ladder=ladder.name, set=one.number, games=ended)
            return set()
        rotation = next_rotation(len(games), ended)
        if rotation is None or any(bots[p].state is not BotState.FREE for p in live):
            return live
        gone = set(registered(one.entrants)) - live
        await self.open_game(ladder, one, rotation, standing_in(seating(one.entrants, rotation), gone, ladder))
        return live

    async def open_game(self, ladder: Ladder, one: LadderSetRow, rotation: int, seats: tuple[str, ...]) -> None:
        store = self.lobby.store
        claimed = []
        for player in registered(seats):
            if not await store.claim_bot(ladder.name, player):
                break
            claimed.append(player)
        if len(claimed) < len(registered(seats)) or not await store.claim_ladder_game(ladder.name, one.number,
                                                                                     rotation, seats):
            for player in claimed:  # (another node, or the bot's own leaving, came first: the next look)
                await store.free_bot(ladder.name, player)
            return
        try:
            table = self.lobby.open_table(table_spec(ladder, one.number, one.seed, seats))
            if not await table.opened():  # (its code is given out once it is stored, and its lease held)
                raise LobbyError(ErrorCode.INTERNAL, "the table could not be stored")
        except LobbyError as problem:  # (the server stops): the next look, here or on another node
            log.warning("ladder_table_not_opened", ladder=ladder.name, set=one.number, why=str(problem))
            await store.release_ladder_game(ladder.name, one.number, rotation)
            for player in claimed:
                await store.free_bot(ladder.name, player)
            return
        await store.ladder_game_opened(ladder.name, one.number, rotation, table.id, table.invite)
        log.info("ladder_table_opened", ladder=ladder.name, set=one.number, rotation=rotation, table=table.id)

    # ---- a game ends (on the node that ran it) -------------------------------------------

    async def ended(self, finished: GameFinished) -> None:
        name = ladder_of(finished.labels)
        if name is None:
            return
        store = self.lobby.store
        self.waiting.pop(finished.table_id, None)
        game = await store.ladder_game_ended(finished.table_id, finished.game_id, finished.abandoned is not None)
        if game is None:
            return
        if rated(finished):
            await rate_game(store, name, game, [(s.player_id, s.score) for s in finished.seats])
        for player in registered(game.seats):
            await store.free_bot(name, player)  # queued for the set's next game (or a new set)
        log.info("ladder_game_ended", ladder=name, set=game.number, rotation=game.rotation, game=finished.game_id,
                 abandoned=finished.abandoned)

    def close(self) -> None:
        self.unsubscribe()
