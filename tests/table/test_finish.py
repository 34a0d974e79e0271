"""Every way a table ends goes through one finish, on the table core itself: played out (the
result stored, then sent), abandoned (stored as abandoned), the server stopping (kept to be
rebuilt), closed for good (idle)."""

from protocol.messages import ByeCode
from server.game.record import GameRecord
from server.table.io import (
    Abandon, Act, AddBot, AppendDecisions, Broadcast, Disconnect, FinishGame, Join, Ready, Released, SetTableState,
    Stop, TableClosed,
)
from server.table.seats import TableState
from tests.table.driver import SEED, Driver, member, of

host = member("host")


def host_and_bots() -> Driver:
    d = Driver()
    d(Join(seat=0, host=True), host)
    for _ in range(3):
        d(AddBot(), host)
    d(Ready(), host)
    return d


def test_a_game_played_out_stores_every_decision_and_its_end_then_sends_the_result_then_bye():
    d = host_and_bots()
    while d.core.state is TableState.PLAYING:
        offer = d.last(host, "offer")
        pick = next((a for a in offer["actions"] if a["type"] in ("tsumo", "ron")), None) or \
            next((a for a in offer["actions"] if a["type"] in ("discard", "pass")), offer["actions"][0])
        d(Act(offer["decision"], pick), host)
    out = d.out
    stored = [decision for a in of(AppendDecisions, out) for decision in a.decisions]
    assert [a.first_index for a in of(AppendDecisions, out)] == \
        [sum(len(b.decisions) for b in of(AppendDecisions, out)[:i]) for i in range(len(of(AppendDecisions, out)))]
    finish = of(FinishGame, out)[0]
    record = GameRecord(d.core.rules, SEED, None, [s.name for s in d.core.seats], stored)
    assert record.replay().final == finish.final  # what was stored replays to the result
    result = next(o for o in out if isinstance(o, Broadcast) and o.message["type"] == "result")
    assert result.message["seq"] == finish.result_seq and result.message["final"] == finish.final
    ending = out[out.index(finish):]
    assert [type(o).__name__ for o in ending] == ["FinishGame", "Announce", "SetTableState", "Broadcast", "Log",
                                                  "Broadcast", "Released", "Log", "TableClosed"]
    assert ending[2] == SetTableState(TableState.FINISHED, "the game is over")
    assert ending[5].message["code"] == ByeCode.GAME_OVER and ending[6] == Released(host.id)
    assert d.core.state is TableState.CLOSED


def test_an_abandoned_game_is_stored_as_abandoned_and_its_table_closed_with_the_reason():
    d = host_and_bots()
    assert d(Abandon("no player")) == []  # a player is connected: nothing is abandoned
    d(Disconnect(), host)
    out = d(Abandon("the game was abandoned: no player connected for 1800 s"))
    finish = of(FinishGame, out)[0]
    assert finish.result_seq is None and finish.final["abandoned"] is True
    assert finish.final["scores"] == list(d.core.game.public.scores)
    assert SetTableState(TableState.CLOSED, "the game was abandoned: no player connected for 1800 s") in out
    assert out[-1] == TableClosed()


def test_a_stopping_server_keeps_a_table_in_play_stored_to_be_rebuilt():
    d = host_and_bots()
    out = d(Stop())
    assert of(FinishGame, out) == [] and of(SetTableState, out) == []  # left as stored
    bye = d.to(host, out)[-1]
    assert bye["code"] == ByeCode.SERVER_RESTARTING and Released(host.id) in out and TableClosed() in out


def test_an_idle_table_is_closed_for_good_and_takes_no_input_after():
    d = Driver()
    d(Join(seat=0, host=True), host)
    out = d(Stop("the table was idle too long", keep=False))
    assert SetTableState(TableState.CLOSED, "the table was idle too long") in out
    assert d.to(host, out)[-1]["code"] == ByeCode.TABLE_CLOSED
    assert d(Join(), member("late"), at=1.0) == []
