"""What the server keeps, as an interface: a second backend implements `Store` and nothing else
changes (the table core never sees a store; its actor and the lobby use this).

Every method the event loop waits on is async, so that a store across a network never
blocks the loop; the embedded SQLite store (server/store/embedded.py) answers at once.
Decisions are the one thing written at the pace of play, so they are group-committed:
`append_decisions` gathers the decisions of many tables into one commit.  The promise is
the same for every backend: nothing a decision caused is sent before the decision is stored.
A store keeps it either by finishing `append_decisions` only once the commit is done, or,
as the SQLite one does, by committing in `flush`, which the connections call before every
socket write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from server.finished import GameFinished
from server.game.actions import Action
from server.game.record import GameRecord
from server.rules.config import Rules
from server.ratings import Progress, Rating, Rebuilt
from server.store.event_rows import EventRow, EventSeatRow, EventTableRow, PenaltyRow, RoundAdded
from server.store.ladder_rows import LadderBotRow, LadderGameRow, LadderRow, LadderSeatRow, LadderSetRow
from server.store.rows import GameRow, PastSeat, PlayerGame, PlayerRow, PlayerTotals, SeatRow, TableRow


class Fenced(Exception):
    """Another node runs the table now (its epoch in the database is higher than this node's
    lease, or this node lost the lease): this node's write was not made, and it must stop
    running the table."""


class Store(Protocol):
    # ---- tables (state: "waiting", "playing", "finished" or "closed") -------------------

    async def save_table(self, table_id: str, invite: str, watch: str, rules: Rules,
                         clock: Mapping[str, float] | None, spec: Mapping[str, Any] | None = None) -> None:
        """A new table, waiting for its players; `spec` what it was opened from (TableSpec.to_data)."""

    async def set_table_state(self, table_id: str, state: str, reason: str | None = None) -> None:
        """`reason`: why a table closed, in words a player who comes back is told."""

    async def set_session_end(self, table_id: str, ends_at: float) -> None:
        """When a timed table's session ends, wall-clock (server/table/session.py)."""

    async def set_table_spec(self, table_id: str, spec: Mapping[str, Any]) -> None:
        """A table's spec changed in play (TableSpec.to_data: a substitute's seat)."""

    async def set_table_broadcasts(self, table_id: str, count: int) -> None:
        """How many table broadcasts the table has sent (stored before the latest is sent)."""

    async def open_tables(self) -> list[TableRow]:
        """Tables waiting for their game or in play: the ones a restart rebuilds."""

    # ---- seats and spectators ----------------------------------------------------------

    async def save_seat(self, table_id: str, seat: SeatRow) -> None:
        """A seat taken (by a player or a bot), not left."""

    async def remove_seat(self, table_id: str, seat: int) -> None: ...

    async def set_seat_left(self, table_id: str, seat: int, left: bool) -> None:
        """Whether a seat's player left the game on purpose (and is played for at once)."""

    async def set_seat_host(self, table_id: str, seat: int) -> None: ...

    async def save_watcher(self, table_id: str, token_hash: str) -> None: ...

    async def remove_watcher(self, table_id: str, token_hash: str) -> None: ...

    async def seat_of_token(self, token_hash: str) -> tuple[str, int] | None:
        """The (table id, seat) of a resume token at a table still open, if any."""

    async def watch_of_token(self, token_hash: str) -> str | None:
        """The id of the open table that a spectator's resume token watches, if any."""

    async def past_seat_of_token(self, token_hash: str) -> PastSeat | None:
        """The seat a resume token held at its last table, if that table is no longer open."""

    # ---- games and decisions -----------------------------------------------------------

    async def start_game(self, table_id: str, record: GameRecord) -> int:
        """A new game (its rules, seed or walls, and names); returns its id.  ValueError for a
        record with both a seed and walls, or neither."""

    async def append_decisions(self, game_id: int, first_index: int, decisions: Sequence[tuple[int, Action]]) -> None:
        """Decisions first_index, first_index+1, ... of a game, group-committed (see above)."""

    def flush(self) -> None:
        """Commit now whatever `append_decisions` gathered (a store that commits there: nothing)."""

    async def finish_game(self, game_id: int, final: Mapping[str, Any], result_seq: int | None) -> None:
        """`result_seq`: the seq of the `result` broadcast that told the table (None if abandoned).
        Every decision appended before is stored first."""

    async def keep_finished(self, finished: GameFinished) -> None:
        """A finished game's seats, linked to their players (`game_seats`), and its table's labels:
        the store's subscription to the games its node finishes (server/finishes.py).  A game
        played out is rated in the same transaction (server/ratings.py), one game at a time
        across every node, and given the next `rated_seq`.  Written once: a second time
        changes nothing."""

    async def game_players(self, game_id: int) -> list[str | None]:
        """A finished game's player ids by seat (None: a seat no known player held; [] before
        its end, when its `game_seats` are not written yet)."""
        ...

    async def player_games(self, player_id: str, limit: int = 100) -> list[PlayerGame]:
        """A player's finished games (played out or abandoned), the latest first."""

    # ---- what players did: totals, standings and ratings (issue 25) ------------------------

    async def player_totals(self, player_id: str, label: str | None = None) -> PlayerTotals | None:
        """A player's games played out (those with `label`), added up, with its rating (None: it has none)."""

    async def standings(self, label: str | None = None) -> list[PlayerTotals]:
        """Every player's totals (of the games with `label`), sorted by the rating's ordinal."""

    async def players_named(self, name: str) -> list[PlayerRow]:
        """The players who show this display name (names are not unique), the oldest first."""

    async def ratings(self) -> dict[str, Rating]:
        """Every rated player's rating, as kept."""

    async def rebuild_ratings(self, progress: Progress | None = None) -> Rebuilt:
        """Every rating again from the defaults, the rated games replayed in their order
        (`keep_finished` rated each as it was kept, serialised with every other node's); the
        games rated while it replays are added at its end, under the ratings' lock."""

    async def record(self, game_id: int) -> GameRecord:
        """A stored game's record (KeyError if there is none): replaying it rebuilds the game."""

    async def game(self, game_id: int) -> GameRow | None:
        """One stored game's row (None: there is none); its `finished` is None while it is in play."""

    # ---- players (issue 25): known by the hash of a key they keep -------------------------

    async def add_player(self, player: PlayerRow, key_hash: str | None) -> PlayerRow:
        """Store a player unless one with that key (keyless: that id) is stored already; returns
        the one stored (two hellos of one new key at once make one player)."""

    async def player_of_key(self, key_hash: str) -> PlayerRow | None: ...

    async def player(self, player_id: str) -> PlayerRow | None: ...

    async def rename_player(self, player_id: str, name: str) -> None: ...

    async def players(self) -> list[PlayerRow]:
        """Every player, the oldest first."""

    # ---- events (issue 27; server/events/, schema step 14) ------------------------------------

    async def add_event(self, event: EventRow) -> None: ...

    async def event(self, event_id: str) -> EventRow | None: ...

    async def events(self) -> list[EventRow]:
        """Every event, the oldest first."""

    async def event_of_registration(self, registration_hash: str) -> EventRow | None:
        """The event whose self-registration token has this hash."""

    async def set_event_registration(self, event_id: str, registration_hash: str) -> None:
        """A new self-registration token's hash for the event (the old one no longer registers)."""

    async def table_codes(self, table_id: str) -> tuple[str, str] | None:
        """A table's invite and watch codes, whichever node runs it (None: no such table)."""

    async def table_session_end(self, table_id: str) -> float | None:
        """A timed table's session end (wall-clock seconds), whichever node runs it (None: untimed,
        not started, or no such table)."""

    async def add_event_player(self, event_id: str, player_id: str) -> bool:
        """A player added to an event, after those before; False: it was in already."""

    async def register_event_player(self, event_id: str, player_id: str) -> bool:
        """A player added by self-registration, only while the event's first round has not
        started (one after the other with add_event_round); False: in already, or it has."""

    async def event_players(self, event_id: str) -> list[str]:
        """An event's player ids in the order they were added."""

    async def add_event_round(self, tables: Sequence[EventTableRow], players: Sequence[str]) -> RoundAdded:
        """A round's tables, pending, all or none, seated from `players` (the event's players as
        read): not written when that round has tables already, or the players are not those now."""

    async def event_tables(self, event_id: str) -> list[EventTableRow]:
        """An event's tables by round and table."""

    async def pending_event_tables(self, stale_before: float | None = None) -> list[EventTableRow]:
        """Every event's tables that no server has opened yet: pending, to reseat, or claimed before
        `stale_before` (default CLAIM_STALE_AFTER ago) and still not open."""

    async def player_event_tables(self, player_id: str) -> list[EventTableRow]:
        """The event tables not yet ended that this player sits at (its own, or as a substitute)."""

    async def claim_event_table(self, event_id: str, round_: int, table: int, claim: str = "",
                                now: float | None = None) -> bool:
        """Pending (or claimed more than CLAIM_STALE_AFTER before `now` and not opened) to opening,
        with `claim` (who claims) and the time: True for the one server (of several) that claims it."""

    async def substitute_event_table(self, event_id: str, round_: int, table: int, sitters: Sequence[str]) -> bool:
        """Who sits in each seat now (a substitute for a missing player); an open table becomes
        `reseat`.  False: the table is neither pending nor open."""

    async def reopen_event_table(self, event_id: str, round_: int, table: int, reopen: bool) -> None:
        """A `reseat` table: pending again with no table (`reopen`: the server closed its table
        before its game began), or open again (its game had begun: the substitute sits in at it)."""

    async def release_event_table(self, event_id: str, round_: int, table: int, claim: str = "") -> None:
        """Opening to pending again: the server of `claim` could not open it (it stops)."""

    async def event_table_opened(self, event_id: str, round_: int, table: int, table_id: str,
                                 claim: str = "") -> bool:
        """The table the server of `claim` opened for it; False: that claim was taken over (it went
        stale), and the server closes the table it opened."""

    async def event_table_ended(self, table_id: str, game_id: int, abandoned: bool, by_time: bool = False) -> bool:
        """The open event table that is `table_id` ended with `game_id` (False: no such table);
        `by_time`: its session's time ended it."""

    async def ask_extra_time(self, event_id: str, round_: int, table: int, seconds: float) -> bool:
        """The organiser asks for `seconds` more at an event table in play (False: it is not in play)."""

    async def extra_time_asked(self) -> list[EventTableRow]:
        """The event tables in play with extra time asked for and not yet given."""

    async def take_extra_time(self, event_id: str, round_: int, table: int, seconds: float, table_id: str) -> bool:
        """The node running the table (`table_id`) takes the extra time asked for (`seconds`, as
        read), kept with the table in the same transaction (its session_extra, and its end once it
        has one): True once; Fenced when the table's lease was lost here."""

    async def add_event_penalty(self, event_id: str, penalty: PenaltyRow) -> None: ...

    async def event_penalties(self, event_id: str) -> list[PenaltyRow]: ...

    async def event_results(self, event_id: str) -> list[EventSeatRow]:
        """The seats of an event's games played out (`game_seats` of its done tables)."""

    # ---- the store itself ----------------------------------------------------------------

    # ---- ladders (issue 26; server/ladder/, schema step 16): both stores take LadderStore's ----

    async def add_ladder(self, ladder: LadderRow) -> bool:
        """False: a ladder of that name exists already."""

    async def ladder(self, name: str) -> LadderRow | None: ...

    async def ladders(self) -> list[LadderRow]: ...

    async def claim_matcher(self, name: str, node: str, lease: float) -> bool:
        """Whether `node` matches the ladder's bots for the next `lease` seconds (it did, or nobody
        does, or the last one's lease lapsed)."""

    async def queue_bot(self, ladder: str, player_id: str, node: str) -> None: ...

    async def touch_bots(self, ladder: str, node: str) -> None:
        """The bots whose connection `node` holds are there now."""

    async def bot_gone(self, ladder: str, player_id: str, node: str) -> None:
        """Its connection (on `node`) closed: out of the queue (unless it came back on another node)."""

    async def drop_bot(self, ladder: str, player_id: str) -> None:
        """Out of the queue, whichever node holds its connection (it did not take the seat it was given)."""

    async def ladder_bots(self, ladder: str) -> list[LadderBotRow]: ...

    async def claim_bot(self, ladder: str, player_id: str) -> bool:
        """Free -> busy: True for the one caller that took it."""

    async def free_bot(self, ladder: str, player_id: str) -> None:
        """Busy -> free, queued from now (a bot gone stays gone)."""

    async def add_ladder_set(self, ladder: str, seed: bytes, entrants: Sequence[str]) -> LadderSetRow:
        """A new set, numbered after the last (the matchmaker's lease holder alone adds them)."""

    async def playing_sets(self, ladder: str) -> list[LadderSetRow]: ...

    async def ladder_set_done(self, ladder: str, number: int) -> None: ...

    async def claim_ladder_game(self, ladder: str, number: int, rotation: int, seats: Sequence[str]) -> bool:
        """A set's game to open, claimed by its row: False when it exists already."""

    async def release_ladder_game(self, ladder: str, number: int, rotation: int) -> None:
        """Its table could not be opened: the claim goes, for a later look."""

    async def ladder_game_closed(self, table_id: str) -> bool:
        """Its table closed before its game began: the set's game is to be opened again (False: it is
        no ladder's open game)."""

    async def ladder_game_opened(self, ladder: str, number: int, rotation: int, table_id: str, invite: str) -> None: ...

    async def ladder_game_ended(self, table_id: str, game_id: int, abandoned: bool) -> LadderGameRow | None:
        """The ladder game of `table_id`, ended; None when it is no ladder's open game."""

    async def set_games(self, ladder: str, number: int) -> list[LadderGameRow]: ...

    async def open_ladder_games(self, ladder: str) -> list[LadderGameRow]: ...

    async def ended_ladder_games(self, ladder: str, limit: int = 20) -> list[LadderGameRow]: ...

    async def ladder_seats(self, ladder: str) -> list[LadderSeatRow]:
        """The seats of the ladder's games played out, by game id and seat."""

    async def ladder_ratings(self, ladder: str) -> dict[str, Rating]: ...

    async def set_ladder_ratings(self, ladder: str, ratings: Mapping[str, Rating]) -> None: ...

    async def healthy(self) -> bool:
        """It answers."""

    def close(self) -> None:
        """Close at once (a store across a network ends its connections)."""

    async def aclose(self) -> None:
        """Close once what was appended is stored: what a server that stops awaits."""
