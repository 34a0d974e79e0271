"""The server harness (tests/harness.py) sees what it is there to see: a server's logged
errors fail the tests that ask for them to be checked, in a process's log file and in the
log of riichi-server run in the test's own loop."""

from __future__ import annotations

import json

import pytest
import structlog

from protocol.client import Client
from tests.harness import InProcessServer, ServerProcess


def test_a_server_process_s_errors_are_its_error_lines_and_anything_that_is_not_json(tmp_path):
    srv = ServerProcess(tmp_path / "riichi.sqlite3")
    lines = [{"event": "listening", "level": "info"}, {"event": "table_input_failed", "level": "error"},
             {"event": "x", "level": "warning"}, {"event": "boom", "level": "exception"}]
    srv.log_path.write_text("\n".join(json.dumps(line) for line in lines) + "\nTraceback (most recent call last):\n")
    assert [json.loads(e)["event"] if e.startswith("{") else e for e in srv.errors()] == [
        "table_input_failed", "boom", "Traceback (most recent call last):"]


@pytest.mark.asyncio
async def test_the_in_process_server_plays_over_sockets_and_keeps_what_it_logs(tmp_path):
    srv = await InProcessServer(tmp_path / "riichi.sqlite3").start_async()
    try:
        client = await Client.connect(srv.url, "alice")
        assert client.welcome["type"] == "welcome"
        await client.close()
        structlog.get_logger("riichi.tables").error("planted", table="t")
        assert [json.loads(e)["event"] for e in srv.errors()] == ["planted"]
        assert any(e["event"] == "listening" for e in srv.entries)
    finally:
        assert await srv.stop_async() == 0
    assert any(e["event"] == "stopping" for e in srv.entries)
