"""Sets across processes: `run_sets` yields each set's outcome as it finishes.

One worker process per core by default (the engine is pure Python: processes, not
threads).  Workers ignore Ctrl+C: the parent takes it, stops them (`terminate`) and keeps
what finished.  With one worker the sets run in this process (no pool to start or stop).
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator

from client_cli.arena.play import ArenaConfig, SetOutcome, play_set
from client_cli.arena.seats import quiet_bridge_log

_config: ArenaConfig | None = None  # each worker's, set once by its initializer


def _init_worker(config: ArenaConfig) -> None:
    global _config
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    quiet_bridge_log()
    _config = config


def _play(index: int) -> SetOutcome:
    assert _config is not None
    return play_set(_config, index)


def run_sets(config: ArenaConfig, indices: range, workers: int) -> Iterator[SetOutcome]:
    """Each set's outcome, in the order they finish.  Closing the iterator early (or a
    KeyboardInterrupt in the consumer) stops the workers."""
    if workers <= 1:
        quiet_bridge_log()
        for index in indices:
            yield play_set(config, index)
        return
    pool = multiprocessing.Pool(workers, _init_worker, (config,))
    try:
        yield from pool.imap_unordered(_play, indices)
        pool.close()
    finally:
        pool.terminate()
        pool.join()
