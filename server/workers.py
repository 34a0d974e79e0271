"""`riichi-server --workers N`: N node processes of one service on this machine, behind one port.

Each worker is a whole `riichi-server` node (`--redis`, `--db postgresql://...`, node id
`BASE-1` ... `BASE-N`) listening on the same port with SO_REUSEPORT, so the kernel spreads
the connections among them; a client reaches its table through whichever it lands on, as
through any node (docs/cluster.md).  This process only supervises: it starts the workers,
starts again one that dies (its tables are taken over by the others meanwhile, as for any
lost node), and passes SIGTERM and SIGINT on, stopping when they all have.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

import structlog

from server.cluster.node import new_node_id
from server.store.postgres import is_postgres_url

log = structlog.get_logger("riichi.workers")

RESTART_PAUSE = 1.0  # seconds before a worker that died is started again
START_GRACE = 5.0  # a worker that ends sooner after its start could not start: the rest stop too


def workers_need(workers: int, db: str, redis: str | None) -> str | None:
    """Why `--workers` cannot run with these options (None: it can)."""
    if workers < 1:
        return f"--workers {workers}: give 1 or more"
    if workers > 1 and (redis is None or not is_postgres_url(db)):
        return ("--workers needs --redis URL and --db postgresql://...: the workers are nodes of one service"
                " (one process keeps its SQLite file alone)")
    return None


def worker_argv(argv: Sequence[str], node_id: str) -> list[str]:
    """A worker's arguments: this command's, without --workers (and any --node-id), as one
    node on the shared port."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--workers", "--node-id"):
            skip = True
            continue
        if arg.startswith(("--workers=", "--node-id=")):
            continue
        out.append(arg)
    return [*out, "--node-id", node_id, "--reuse-port"]


def supervise(argv: Sequence[str], workers: int, base: str | None = None) -> int:
    """Run the workers until SIGTERM or SIGINT; the exit status."""
    base = base or new_node_id()
    program = [sys.executable, "-m", "server.app"]
    stopping: list[int] = []
    failed = [False]

    def stop(signum: int, _frame: object) -> None:
        stopping.append(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    procs = {i: _start(program, argv, f"{base}-{i}") for i in range(1, workers + 1)}
    started = {i: time.monotonic() for i in procs}
    log.info("workers_started", workers=workers, node_ids=[f"{base}-{i}" for i in procs])
    while not stopping:
        time.sleep(0.2)
        for i, proc in list(procs.items()):
            if proc.poll() is None or stopping:
                continue
            if time.monotonic() - started[i] < START_GRACE:  # it could not start (it said why): nor will it
                stopping.append(signal.SIGTERM)
                failed[0] = True
                break
            log.warning("worker_died", node_id=f"{base}-{i}", status=proc.returncode)
            time.sleep(RESTART_PAUSE)
            procs[i], started[i] = _start(program, argv, f"{base}-{i}"), time.monotonic()
    for proc in procs.values():
        if proc.poll() is None:
            proc.send_signal(stopping[0])
    status = 1 if failed[0] else 0
    for proc in procs.values():
        try:
            status = status or proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            status = 1
    return status


def _start(program: list[str], argv: Sequence[str], node_id: str) -> subprocess.Popen:
    return subprocess.Popen([*program, *worker_argv(argv, node_id)], env=os.environ.copy())
