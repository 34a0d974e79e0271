"""An answer kept across a failover (docs/cluster.md, "A node lost"), on the table core: the
client's node kept an act that the table's old node never heard, and puts it to the table
rebuilt on another node, marked `kept`.  A decision is answered once: the kept act counts
only while its decision has not been offered again on the new node, where the client would
answer the new offer."""

from server.game.record import GameRecord
from server.rules.config import rules_to_data
from server.store.rows import SeatRow, TableRow
from server.table.core import TableCore
from server.table.io import Act, Reconnect, Restored, Send
from tests.table.driver import Driver, member, two_players_and_two_bots

host, guest = member("host"), member("guest")


def moved_while_the_host_answers() -> tuple[TableCore, dict, dict]:
    """A game in play, the host offered a discard and answering it just as the table's node
    died: (the table rebuilt from its record on another node, the open offer as the host got
    it, the answer the host sent)."""
    d = two_players_and_two_bots(Driver(), host, guest)
    while 0 not in d.core.game.waiting_for():
        offer = d.last(guest, "offer")
        d(Act(offer["decision"], next(a for a in offer["actions"] if a["type"] == "discard")), guest)
    offer = d.last(host, "offer")
    answer = [a for a in offer["actions"] if a["type"] == "discard"][-1]
    row = TableRow("t1", "invite-code", "watch-code", rules_to_data(d.core.rules), None, "playing",
                   [SeatRow(i, s.name, s.kind, s.strategy, s.token_hash, s.host) for i, s in enumerate(d.core.seats)],
                   game_id=1, broadcasts=d.core.table_broadcasts)
    core, _ = TableCore.restored(row, GameRecord.of(d.core.game), now=10.0)
    core.handle(Restored(), None, 10.0)
    return core, offer, answer


def sent_to(who, outputs) -> list[dict]:
    return [o.message for o in outputs if isinstance(o, Send) and o.member == who.id]


def test_a_kept_answer_put_before_the_resume_is_taken_and_the_resume_shows_it_done():
    core, offer, answer = moved_while_the_host_answers()
    taken = core.handle(Act(offer["decision"], answer, kept=True), host, 10.0)
    assert not sent_to(host, taken) and 0 not in core.offers  # answered: nothing asked of the host now
    back = sent_to(host, core.handle(Reconnect(since=5, restart=True), host, 10.0))
    snapshot = next(m for m in back if m["type"] == "snapshot")
    assert snapshot["view"]["seats"][0]["discards"][-1] == answer["tile"]
    assert not [m for m in back if m["type"] == "offer" and m["decision"] == offer["decision"]]


def test_a_kept_answer_that_comes_after_the_decision_was_offered_again_is_dropped_for_the_new_answer():
    core, offer, answer = moved_while_the_host_answers()
    back = sent_to(host, core.handle(Reconnect(since=5, restart=True), host, 10.0))
    again = next(m for m in back if m["type"] == "offer")
    assert again["decision"] == offer["decision"]
    dropped = core.handle(Act(offer["decision"], answer, kept=True), host, 10.0)
    assert not sent_to(host, dropped) and core.offers[0].decision == offer["decision"]  # no error: still open
    other = next(a for a in again["actions"] if a["type"] == "discard" and a != answer)
    core.handle(Act(again["decision"], other), host, 10.0)
    assert core.game.public.seats[0].discards[-1] == other["tile"]
