"""Issue 14, "Seats and resuming", in riichi-play: its saved seats (one per server, table and
seat), a local server that ends for good, and a server that seems gone.  Textual's pilot
drives the app against real riichi-server processes."""

from __future__ import annotations

import asyncio
import json

import pytest

from client_cli.play.connection import Connection
from client_cli.play.game_app import PlayApp
from client_cli.play.local import LocalServer, free_port
from client_cli.play.panes import create_messages
from client_cli.play.sessions import SavedSeat, SessionFile
from tests.client_cli.screens import SIZE, text_of, until

URL = "ws://127.0.0.1:8765"


def test_two_seats_at_one_server_are_kept_apart_and_forgotten_one_by_one(tmp_path):
    """The friend flow: two clients of one user at one server used to share one entry, the
    last writer's, so `--resume` took the other player's seat."""
    state = SessionFile(tmp_path / "sessions.json")
    state.save(URL, "alice-token", "me", "t1", 0)
    state.save(URL, "bob-token", "me", "t1", 1)
    state.save(URL, "alice-token", "me", "t1", 0)  # saved again on every table broadcast: no change
    assert state.seats(URL) == [SavedSeat("alice-token", "me", "t1", 0), SavedSeat("bob-token", "me", "t1", 1)]
    state.save(URL, "alice-token", "me", "t2", 3)  # one session, one table at a time
    assert state.seats(URL) == [SavedSeat("bob-token", "me", "t1", 1), SavedSeat("alice-token", "me", "t2", 3)]
    state.forget(URL, "bob-token")
    assert state.seats(URL) == [SavedSeat("alice-token", "me", "t2", 3)]
    state.forget(URL, "alice-token")
    assert state.seats(URL) == [] and json.loads(state.path.read_text()) == {}


def test_a_sessions_file_of_the_older_form_is_read_as_one_seat(tmp_path):
    path = tmp_path / "sessions.json"
    path.write_text(json.dumps({URL: {"resume": "old", "name": "alice", "table": "t1"}}))
    assert SessionFile(path).seats(URL) == [SavedSeat("old", "alice", "t1", None)]
    SessionFile(path).save(URL, "new", "alice", "t2", 2)
    assert [s.resume for s in SessionFile(path).seats(URL)] == ["old", "new"]


@pytest.mark.asyncio
async def test_a_client_stops_retrying_when_the_local_server_has_ended():
    """riichi-play --local quitting stops its server, which tells the other clients that it has
    ended (bye `server_ended`): they used to retry for ever."""
    local = LocalServer(free_port()).start()  # as riichi-play --local starts it
    try:
        conn = Connection(local.url, "friend", backoff=(0.1,))
        app = PlayApp(conn, intent=create_messages("ema2016", {"none": True}, 3) + [{"type": "ready"}])
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.offer is not None, what="the first offer")
            await asyncio.to_thread(local.remove)  # what riichi-play --local does on quitting
            await until(pilot, lambda: "the server has ended" in text_of(app, "#status"), what="the end said")
            await asyncio.sleep(1.0)  # ten backoffs: none is tried
            assert conn.ended and conn.reconnects == 0
            assert "the server has ended" in text_of(app, "#status")
    finally:
        local.remove()


@pytest.mark.asyncio
async def test_after_a_while_of_failed_reconnects_the_client_says_the_server_seems_gone_and_keeps_trying():
    server = LocalServer(free_port(), ephemeral=False).start()
    try:
        conn = Connection(server.url, "alice", backoff=(0.2,), gone_after=1.5)
        app = PlayApp(conn, intent=create_messages("ema2016", {"none": True}, 3) + [{"type": "ready"}])
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await until(pilot, lambda: app.offer is not None, what="the first offer")
            await asyncio.to_thread(server.stop)
            await until(pilot, lambda: "seems gone" in text_of(app, "#status"), what="the server seems gone")
            status = text_of(app, "#status")
            assert server.url in status and f"riichi-play --resume --seat 0 --server {server.url}" in status
            assert any("seems gone" in n.message for n in app._notifications)
            await asyncio.to_thread(server.start)  # it kept trying: back when the server is
            await until(pilot, lambda: conn.reconnects == 1 and app.offer is not None, timeout=30, what="resuming")
    finally:
        server.remove()


def test_a_local_server_given_a_database_keeps_it_when_its_folder_is_removed(tmp_path):
    """riichi-play --local --db FILE (as scripts/run.sh runs it): the games stay in FILE; the
    temporary folder (the server's log) goes as before."""
    db = tmp_path / "data" / "riichi.sqlite3"
    db.parent.mkdir()
    local = LocalServer(free_port(), db=db).start()
    try:
        assert local.db == db and db.is_file() and local.log.parent != db.parent
        folder = local.folder
    finally:
        local.remove()
    assert db.is_file() and not folder.exists()
