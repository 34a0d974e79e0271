"""GET /metrics (issue 16, "Operating it"): the node's figures in the Prometheus text format,
read by prometheus_client's own parser, after a real game on a real server process."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.harness import ServerProcess

BOT = Path(sys.executable).parent / "riichi-bot"


def test_metrics_count_the_decisions_their_latency_the_tables_and_the_connections(tmp_path):
    database = tmp_path / "riichi.sqlite3"
    server = ServerProcess(database).start()
    try:
        before = server.metrics()
        assert before["riichi_decisions_total"] == 0 and before["riichi_tables{state=playing}"] == 0
        assert "riichi_failovers_total" not in before  # one node: no leases
        played = subprocess.run([str(BOT), "--server", server.url, "--new-table", "--count", "1", "--no-clock",
                                 "--rules", "tenhou", "--seed", "3"], capture_output=True, text=True, timeout=240)
        assert played.returncode == 0, played.stderr[-2000:]
        after = server.metrics()
    finally:
        server.stop()
    with sqlite3.connect(database) as db:  # the walls are random: the game's length is read, not assumed
        (stored,) = db.execute("SELECT COUNT(*) FROM decisions").fetchone()
        (acts,) = db.execute("SELECT COUNT(*) FROM decisions WHERE seat = 0").fetchone()  # the client's seat
    assert 0 < acts < stored and after["riichi_decisions_total"] == stored
    answered = after["riichi_decision_latency_seconds_count"]
    assert answered == acts  # the client's acts, not the server's bots'
    assert after["riichi_decision_latency_seconds_bucket{le=+Inf}"] == answered
    assert after["riichi_decision_latency_seconds_sum"] > 0
    assert after["riichi_tables{state=playing}"] == after["riichi_tables{state=waiting}"] == 0  # the game is over
    assert after["riichi_connections"] == 0
