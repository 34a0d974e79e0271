"""The other cores for `riichi-score --jsonl`: a large batch of lines is shared out between
this process and forked helpers, and the answers are written in input order.

A helper is forked once, at the first batch large enough to share (a program asking one
hand at a time never forks one), after the readings table is in memory, so it starts with
the table and the warm modules and costs a few milliseconds.  It is sent its share of a
batch as one frame on a pipe (the lines' raw bytes, joined) and sends back one frame of
answers.  The parent answers the first share itself while the helpers answer theirs, so the
work overlaps; it then writes its answers and each helper's in turn.  Answers are the same
bytes whichever process gives them (score_lines.answer_line).  A helper that is gone (it
was killed, or could not be forked) costs nothing but speed: its share is answered here.
"""

from __future__ import annotations

import os
import signal
import struct
from collections.abc import Callable, Sequence

Answer = Callable[[bytes], bytes]  # one raw line in, its answer line out
SHARE_AT_LEAST = 200  # lines a helper is worth: fewer are answered here, with no pipe between
_LENGTH = struct.Struct("<Q")


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _Helper:
    """One forked process answering frames of lines, or None from start() where fork fails."""

    def __init__(self, pid: int, to_helper: int, from_helper: int) -> None:
        self.pid, self.to_helper, self.from_helper = pid, to_helper, from_helper

    @classmethod
    def start(cls, answer: Answer, others: Sequence[_Helper]) -> _Helper | None:
        try:
            down_read, down_write = os.pipe()
            up_read, up_write = os.pipe()
            pid = os.fork()
        except OSError:
            return None
        if pid == 0:  # the helper: answer frames until the parent closes its pipe
            # nothing but its own two pipe ends: a copy of another helper's pipe kept here
            # would keep that helper from seeing the parent close it; stdin and stdout are
            # the parent's alone
            for fd in (down_write, up_read, 0, 1, *(fd for h in others for fd in (h.to_helper, h.from_helper))):
                try:
                    os.close(fd)
                except OSError:
                    pass
            _serve_frames(down_read, up_write, answer)
        os.close(down_read)
        os.close(up_write)
        return cls(pid, down_write, up_read)

    def send(self, lines: Sequence[bytes]) -> bool:
        try:
            _write_frame(self.to_helper, b"".join(lines))
            return True
        except OSError:
            return False

    def receive(self) -> bytes | None:
        """The answers to what was sent, or None if the helper is gone."""
        try:
            return _read_frame(self.from_helper)
        except OSError:
            return None

    def stop(self) -> None:
        for fd in (self.to_helper, self.from_helper):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def _serve_frames(inbox: int, outbox: int, answer: Answer) -> None:
    """The helper's whole life; it never returns (os._exit: nothing of the parent's, such
    as its unflushed output, is flushed or torn down twice)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to act on
    status = 0
    try:
        while (frame := _read_frame(inbox)) is not None:
            _write_frame(outbox, b"".join([answer(raw) for raw in _split_lines(frame) if raw.strip()]))
    except BaseException:  # noqa: BLE001 - the parent answers the share itself; say nothing twice
        status = 1
    os._exit(status)


def _split_lines(frame: bytes) -> list[bytes]:
    """The lines joined into a frame, each with its newline as read (the last perhaps without)."""
    lines = [line + b"\n" for line in frame.split(b"\n")]
    if frame.endswith(b"\n"):
        lines.pop()
    else:
        lines[-1] = lines[-1][:-1]
    return lines


def _write_frame(fd: int, data: bytes) -> None:
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _read_frame(fd: int) -> bytes | None:
    head = _read_exactly(fd, _LENGTH.size)
    if head is None:
        return None
    (size,) = _LENGTH.unpack(head)
    data = _read_exactly(fd, size)
    if data is None:
        raise OSError("the other end left in the middle of a frame")
    return data


def _read_exactly(fd: int, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


class Shares:
    """Answers batches of lines in order, sharing each large one with up to `helpers` forked
    processes (started on first need)."""

    def __init__(self, answer: Answer, helpers: int) -> None:
        self._answer = answer
        self._wanted = helpers
        self._helpers: list[_Helper] | None = None

    def answers(self, batch: Sequence[bytes]) -> list[bytes]:
        """The answer bytes of every non-blank line of the batch, in order, in pieces."""
        parts = min(self._wanted + 1, len(batch) // SHARE_AT_LEAST)
        if parts < 2 or not self._started():
            return [self._here(batch)]
        helpers = self._helpers[:parts - 1]
        size = -(-len(batch) // (len(helpers) + 1))
        shares = [batch[at:at + size] for at in range(0, len(batch), size)]
        sent = [helper.send(share) for helper, share in zip(helpers, shares[1:])]
        out = [self._here(shares[0])]
        for helper, share, was_sent in zip(helpers, shares[1:], sent):
            answered = helper.receive() if was_sent else None
            if answered is None:
                self._lose(helper)
                answered = self._here(share)
            out.append(answered)
        return out

    def _here(self, lines: Sequence[bytes]) -> bytes:
        return b"".join([self._answer(raw) for raw in lines if raw.strip()])

    def _started(self) -> bool:
        if self._helpers is None:
            self._helpers = []
            for _ in range(self._wanted):
                helper = _Helper.start(self._answer, self._helpers)
                if helper is None:
                    break
                self._helpers.append(helper)
        return bool(self._helpers)

    def _lose(self, helper: _Helper) -> None:
        helper.stop()
        if self._helpers and helper in self._helpers:
            self._helpers.remove(helper)

    def close(self) -> None:
        for helper in self._helpers or ():
            helper.stop()
        self._helpers = []
