"""What a command line does when its reader goes away, e.g. `riichi-server games | head`.

The reader closing the pipe is not the writer's error, so no traceback: the command stops at
once and exits with the status a shell reports for a writer killed by SIGPIPE (141), as `cat`,
`seq` or `git log` would in the same place.  Standard output is pointed at /dev/null first,
because the interpreter flushes it again at exit and would print "Exception ignored" if it
still led to the closed pipe (the recipe in Python's `signal` documentation).
"""

from __future__ import annotations

import functools
import os
import sys
from typing import Callable, ParamSpec

CLOSED_PIPE_STATUS = 128 + 13  # 128 + SIGPIPE, what a shell shows for `yes | head`

P = ParamSpec("P")


def quiet_when_the_reader_leaves(main: Callable[P, int]) -> Callable[P, int]:
    """Wrap a command's `main` so that a closed standard output ends it quietly."""

    @functools.wraps(main)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> int:
        try:
            status = main(*args, **kwargs)
            sys.stdout.flush()  # what is still buffered may meet the closed pipe too
            return status
        except BrokenPipeError:
            _point_stdout_at_devnull()
            return CLOSED_PIPE_STATUS

    return guarded


def _point_stdout_at_devnull() -> None:
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # replaced by a test or a non-file stream
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)
