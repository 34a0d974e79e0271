"""Tables opened from a spec, on the table core itself (issue 25: "Tables opened from a spec, not
only by a connected host ... reserved seats wait for their player.  The seed comes from the spec
when given"), and the one announcement of each game's end ("A finished game is announced")."""

import json
import pickle

import pytest

from server.finished import GameFinished, PlayerKind
from server.game.record import GameRecord
from server.game.seat_stats import seat_stats
from server.game.wall import DORA_INDICATORS, deal, shuffled_wall
from server.table.io import (
    Abandon, Act, AddBot, Announce, Broadcast, Disconnect, FinishGame, Join, Ready, SaveSeat, SaveTable, Send,
    StartGame,
)
from server.table.seats import TableState
from server.table.spec import SeatKind, SeatSpec, SpecError, TableSpec
from tests.table.driver import Driver, member, of

SEED = bytes(range(100, 132))
BOTS = (SeatSpec.bot("shanten"), SeatSpec.bot("builtin"), SeatSpec.bot("random"))
alice, bob = member("alice", player_id="p-alice"), member("bob", player_id="p-bob")
nobody = member("nobody")  # a session that knows no player id


def errors(d: Driver, who) -> list[str]:
    return [m["code"] for m in d.to(who) if m["type"] == "error"]


def test_a_spec_of_four_bots_is_stored_and_plays_its_game_to_the_end_at_once_with_the_specs_seed():
    spec = TableSpec("tenhou", clock=None, seats=(*BOTS, SeatSpec.bot()), seed=SEED, labels=("arena:test",))
    d = Driver(spec=spec)
    assert d.out[0] == SaveTable("invite-code", "watch-code", d.core.rules, None, spec.to_data())
    assert [o.row.seat for o in of(SaveSeat, d.out)] == [0, 1, 2, 3]
    assert of(StartGame, d.out)[0].seed == SEED and d.core.game.seed == SEED
    assert d.core.state is TableState.CLOSED and d.core.game.over
    [finish], [announce] = of(FinishGame, d.out), of(Announce, d.out)
    assert d.out.index(announce) == d.out.index(finish) + 1  # published once its end is stored
    finished, final = announce.finished, finish.final
    assert (finished.game_id, finished.table_id, finished.rules, finished.labels, finished.abandoned) == (
        1, "t1", "tenhou", ("arena:test",), None)
    assert [s.score for s in finished.seats] == final["scores"]
    assert [s.place for s in finished.seats] == [p + 1 for p in final["places"]]
    assert [s.total for s in finished.seats] == final["results"]
    assert {s.kind for s in finished.seats} == {PlayerKind.BOT}
    assert all(p is not None and p.startswith("bot-") for p in finished.player_ids)  # each its strategy's player
    assert GameFinished.from_data(finished.to_data()) == finished == pickle.loads(pickle.dumps(finished))
    # what each seat did: the counts of the events the table sent, as its record's replay gives them
    assert tuple(s.stats for s in finished.seats) == seat_stats(GameRecord.of(d.core.game).replay_events()[1])
    assert all(s.stats.hands >= 4 for s in finished.seats)


def test_a_reserved_seat_is_taken_by_its_player_and_refused_to_another():
    """"reserved seats wait for their player": another player takes an open seat, or is refused."""
    d = Driver(spec=TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-alice"), *BOTS[:2], SeatSpec.open())))
    d(Join(seat=0), bob)
    assert errors(d, bob) == ["seat_reserved"] and d.core.seats[0] is None
    d(Join(), bob)  # no seat asked: the open one
    assert d.core.seats[3].player_id == "p-bob"
    d(Join(), nobody)  # the one seat left is alice's
    assert errors(d, nobody) == ["seat_reserved"]
    d(Join(), alice)
    assert d.core.seats[0].name == "alice" and d.core.seats[0].player_id == "p-alice"
    assert of(SaveSeat, d.out)[-1].row.player_id == "p-alice"
    d(Ready(), alice)
    d(Ready(), bob)
    assert d.core.state is TableState.PLAYING


def test_a_bot_is_not_seated_in_a_reserved_seat():
    host = member("host", player_id="p-host")
    d = Driver(spec=TableSpec("tenhou", clock=None, seats=(SeatSpec.host("p-host"), SeatSpec.reserved("p-alice"),
                                                            SeatSpec.open(), SeatSpec.open())))
    d(Join(seat=0, host=True), host)
    d(AddBot(), host)
    d(AddBot(), host)
    d(AddBot(), host)
    d(AddBot(seat=1), host)
    assert errors(d, host) == ["table_full", "seat_reserved"]
    assert [s and s.kind for s in d.core.seats] == ["human", None, "bot", "bot"]


def test_an_abandoned_game_is_announced_with_why_and_the_scores_as_they_stood():
    d = Driver(spec=TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-alice"), *BOTS)))
    d(Join(), alice)
    d(Ready(), alice)
    d(Disconnect(), alice)
    out = d(Abandon("the game was abandoned: no player connected for 1800 s"))
    [announce] = of(Announce, out)
    finished = announce.finished
    assert finished.abandoned == "the game was abandoned: no player connected for 1800 s"
    assert [s.score for s in finished.seats] == list(d.core.game.public.scores)
    assert [(s.place, s.uma, s.total) for s in finished.seats] == [(None, None, None)] * 4
    assert finished.seats[0].player_id == "p-alice" and finished.seats[0].kind is PlayerKind.HUMAN


def test_the_result_the_players_get_and_the_announcement_agree():
    d = Driver(spec=TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-alice"), *BOTS)))
    d(Join(), alice)
    d(Ready(), alice)
    while d.core.state is TableState.PLAYING:
        offer = d.last(alice, "offer")
        pick = next((a for a in offer["actions"] if a["type"] in ("discard", "pass")), offer["actions"][0])
        d(Act(offer["decision"], pick), alice)
    result = d.last(alice, "result")
    [finished] = [o.finished for o in of(Announce, d.out)]
    assert [s.score for s in finished.seats] == result["final"]["scores"]
    assert [s.place - 1 for s in finished.seats] == result["final"]["places"]
    assert [s.uma for s in finished.seats] == result["uma"]


def test_a_spec_that_cannot_open_a_table_says_why_in_one_line():
    with pytest.raises(SpecError, match="unknown rules preset"):
        TableSpec("mahjong-soul")
    with pytest.raises(SpecError, match="unknown bot 'genius'") as raised:
        TableSpec(seats=(SeatSpec.bot("genius"), *BOTS))
    assert raised.value.bad_strategy
    with pytest.raises(SpecError, match="one host"):
        TableSpec(seats=(SeatSpec.host(), SeatSpec.host(), SeatSpec.open(), SeatSpec.open()))
    with pytest.raises(SpecError, match="four seats"):
        TableSpec(seats=(SeatSpec.open(),))  # type: ignore[arg-type]


def test_a_spec_comes_back_the_same_from_its_stored_form():
    spec = TableSpec("tenhou", {"red_fives": False}, None, (SeatSpec.host("p-host"), SeatSpec.reserved("p-alice"),
                                                            SeatSpec.bot("shanten"), SeatSpec.open()),
                     SEED, ("arena:weekly", "event:7"))
    assert TableSpec.from_data(spec.to_data()) == spec
    assert spec.host_seat == 0 and spec.reserved() == {1: "p-alice"} and spec.bots() == {2: "shanten"}
    assert [s.kind for s in spec.rematch(1, {2: "shanten"}).seats] == [SeatKind.OPEN, SeatKind.HOST, SeatKind.BOT,
                                                                       SeatKind.OPEN]
    assert spec.rematch(1, {}).seed is None and spec.rematch(1, {}).labels == ()


def test_no_message_to_a_member_is_sent_for_a_spec_table_with_nobody_at_it():
    d = Driver(spec=TableSpec("tenhou", clock=None, seats=(*BOTS, SeatSpec.bot())))
    assert not [o for o in d.out if isinstance(o, (Send, Broadcast))]


# ---- walls given by the spec (issue 25: "TableSpec(rules, clock, seats: ..., seed or walls, labels)") ----

WALLS = tuple(tuple(shuffled_wall(b"walls of the spec", hand)) for hand in range(40))


def test_a_spec_with_walls_deals_exactly_those_walls_the_first_hand_and_dora_from_the_first():
    spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.reserved("p-alice"), *BOTS), walls=WALLS)
    d = Driver(spec=spec)
    d(Join(), alice)
    d(Ready(), alice)
    start = next(m["event"] for m in d.to(alice) if m["type"] == "event" and m["event"]["type"] == "hand_start")
    assert sorted(start["hand"]) == sorted(deal(WALLS[0], 0)[0])  # alice is the dealer: East 1
    assert start["dora_indicators"] == [WALLS[0][DORA_INDICATORS[0]]]
    assert of(StartGame, d.out)[0].walls == WALLS and d.core.game.walls == [list(w) for w in WALLS]
    assert list(d.core.game.hidden.wall) == list(WALLS[0])


def test_a_four_bot_game_on_a_specs_walls_is_the_same_game_at_every_table():
    """Duplicate play: the same walls and the same bots make the same game."""
    spec = TableSpec("tenhou", clock=None, seats=(*BOTS, SeatSpec.bot()), walls=WALLS)
    first, second = Driver(spec=spec), Driver(spec=spec)
    finals = [of(FinishGame, d.out)[0].final for d in (first, second)]
    assert finals[0] == finals[1] and "abandoned" not in finals[0]
    assert first.core.game.decisions == second.core.game.decisions


def test_a_game_that_outlasts_its_specs_walls_ends_abandoned_and_says_why():
    spec = TableSpec("tenhou", clock=None, seats=(*BOTS, SeatSpec.bot()), walls=WALLS[:1])
    d = Driver(spec=spec)
    [announce] = of(Announce, d.out)
    assert announce.finished.abandoned == "the game was abandoned: the table's 1 walls ran out before its end"
    assert of(FinishGame, d.out)[0].final["abandoned"] is True
    assert not [o for o in d.out if isinstance(o, (Send, Broadcast)) and o.message.get("type") == "event"
                and o.message["event"]["type"] == "stopped"]


def test_a_bad_wall_in_a_spec_is_refused_with_the_hand_and_what_is_wrong():
    short, doubled = list(WALLS[1][:135]), [WALLS[1][1], *WALLS[1][1:]]
    with pytest.raises(SpecError, match=r"^walls: hand 2's wall .*: it has 135 tiles, not 136$"):
        TableSpec(walls=(WALLS[0], short))
    with pytest.raises(SpecError, match=rf"hand 1's wall .*: tile id {WALLS[1][1]} is in it twice"
                                        rf" \(and {WALLS[1][0]} is missing\)"):
        TableSpec(walls=(doubled,))
    with pytest.raises(SpecError, match=r"hand 1's wall .*: 136 is not a tile id \(ids are 0-135\)"):
        TableSpec(walls=([*WALLS[0][:135], 136],))
    with pytest.raises(SpecError, match="a seed or walls, not both"):
        TableSpec(seed=SEED, walls=WALLS)
    with pytest.raises(SpecError, match="at least one"):
        TableSpec(walls=())
    assert isinstance(SpecError("x"), ValueError)


def test_a_specs_walls_come_back_from_its_stored_form_and_a_rematch_has_none():
    spec = TableSpec("tenhou", clock=None, seats=(SeatSpec.host("p-host"), *BOTS), walls=[list(w) for w in WALLS[:3]])
    assert spec.walls == WALLS[:3]  # kept as tuples, whatever sequences were given
    assert TableSpec.from_data(json.loads(json.dumps(spec.to_data()))) == spec
    assert spec.rematch(0, {}).walls is None
