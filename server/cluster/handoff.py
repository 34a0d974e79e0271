"""Handing a client's connection to the node that runs its table, when both run on this
machine (docs/cluster.md, "Handed over, on one machine").

A client reaches some node (the kernel picks one of `--workers`, or a load balancer picks
one of the nodes); when the first thing it asks for (a resume, a join, a watch) is at a
table another node of this machine runs, its node passes the socket itself to that node
(SCM_RIGHTS over a Unix datagram socket), with the messages it has read and not handled,
and forgets the client; the table's node carries on with the connection as its own, so
nothing of that client's is relayed through Redis.  Where a hand-off cannot be made (the
table's node is on another machine, its socket is not there, or the connection is not at a
clean point between two frames), the node relays, as before.

Each node's socket is `TMP/riichi-nodes-UID/SERVICE/NODE.sock`, in folders that only this
user may enter; SERVICE is the service's id, kept in its Redis (so that two services on
one machine never take each other's connections), and a node id is unique in the service,
so a socket of that name on this machine is that node's.
"""

from __future__ import annotations

import array
import asyncio
import errno
import os
import socket
import stat
import tempfile
from collections.abc import Callable
from typing import Any

import msgpack
import structlog
from websockets.asyncio.server import ServerConnection
from websockets.frames import Opcode
from websockets.http11 import Request
from websockets.datastructures import Headers
from websockets.protocol import State
from websockets.server import ServerProtocol

log = structlog.get_logger("riichi.handoff")

MAX_HANDOFF = 60_000  # bytes of what a hand-off carries (the messages read and not handled) at most
PATH_MAX = 107  # a Unix socket's path, in bytes, at most (sun_path, with its terminating NUL)


def service_folder(service: str) -> str:
    """The folder of the hand-off sockets of the nodes of `service` on this machine."""
    return os.path.join(tempfile.gettempdir(), f"riichi-nodes-{os.getuid()}", service)


class Handoffs:
    """This node's socket for connections handed to it, and the sending of its own."""

    def __init__(self, node: str, folder: str, on_connection: Callable[[socket.socket, dict[str, Any]], None]):
        self.node, self.folder, self.on_connection = node, folder, on_connection
        self.sock: socket.socket | None = None
        self.sent = 0  # connections handed to other nodes (for /metrics)
        self.taken = 0  # connections handed to this one
        self.kept = 0  # connections that could not be handed (not between two frames): relayed

    def path(self, node: str) -> str:
        return os.path.join(self.folder, f"{node}.sock")

    def open(self) -> bool:
        """Listen for hand-offs; False (and why, in the log) when this node cannot take any, so
        that other nodes relay to it instead."""
        path = self.path(self.node)
        problem = self._folder_problem() or (f"the socket's path is over {PATH_MAX} bytes"
                                             if len(os.fsencode(path)) > PATH_MAX else None)
        if problem is None:
            try:
                if os.path.exists(path):
                    os.unlink(path)  # a socket left by an earlier process with this node id
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                sock.bind(path)
                sock.setblocking(False)
            except OSError as error:
                problem = f"{path}: {error.strerror or error}"
        if problem is not None:
            log.warning("handoff_off", reason=problem)
            return False
        self.sock = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._readable)
        return True

    def _folder_problem(self) -> str | None:
        for folder in (os.path.dirname(self.folder), self.folder):
            try:
                os.mkdir(folder, 0o700)
            except FileExistsError:
                pass
            except OSError as error:
                return f"{folder}: {error.strerror or error}"
            info = os.lstat(folder)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
                return f"{folder} is not a folder that only this user may enter"
        return None

    def close(self) -> None:
        if self.sock is None:
            return
        asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.sock.close()
        self.sock = None
        try:
            os.unlink(self.path(self.node))
        except OSError:
            pass

    def reaches(self, node: str) -> bool:
        """Whether `node` takes hand-offs on this machine."""
        return self.sock is not None and node != self.node and os.path.exists(self.path(node))

    def send(self, node: str, fd: int, what: dict[str, Any]) -> bool:
        """Pass the socket `fd` and `what` to `node`; False when it cannot be (then nothing was
        passed, and the caller keeps the connection)."""
        data = msgpack.packb(what)
        if self.sock is None or len(data) > MAX_HANDOFF:
            return False
        try:
            # (not socket.send_fds, which leaves the address out)
            self.sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))], 0,
                              self.path(node))
        except OSError as error:  # not there, gone (ECONNREFUSED), or its queue is full (EAGAIN)
            if error.errno not in (errno.ENOENT, errno.ECONNREFUSED, errno.EAGAIN):
                log.warning("handoff_failed", to=node, error=error.strerror or str(error))
            return False
        self.sent += 1
        return True

    def _readable(self) -> None:
        while self.sock is not None:
            try:
                data, fds, flags, _ = socket.recv_fds(self.sock, MAX_HANDOFF + 1, 4)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                log.warning("handoff_receive_failed", error=error.strerror or str(error))
                return
            socks = [socket.socket(fileno=fd) for fd in fds]
            what = self._read(data, flags, len(socks))
            if what is None:
                for sock in socks:
                    sock.close()
                continue
            self.taken += 1
            try:
                self.on_connection(socks[0], what)
            except Exception:  # noqa: BLE001 - one bad hand-off must not stop the node
                log.exception("handoff_not_taken")
                socks[0].close()

    @staticmethod
    def _read(data: bytes, flags: int, fds: int) -> dict[str, Any] | None:
        if fds != 1 or flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
            log.warning("handoff_malformed", fds=fds)
            return None
        try:
            what = msgpack.unpackb(data)
        except Exception:  # noqa: BLE001 - only this user's processes can send here, but still
            log.warning("handoff_malformed", bytes=len(data))
            return None
        if not isinstance(what, dict) or not isinstance(what.get("unread"), list) \
                or not all(isinstance(frame, bytes) for frame in what["unread"]):
            log.warning("handoff_malformed", bytes=len(data))
            return None
        return what


# ---- the websocket: when it can be handed, and taking one over ------------------------

def unread_messages(ws: ServerConnection) -> list[bytes] | None:
    """What the connection has read and not handled, as whole messages, if it can be handed
    over now: plain TCP, open, everything written to it sent, and its reader between two
    frames (no part of a frame read).  None: it cannot (the caller relays instead).

    This reads websockets' own state (the version is pinned in pyproject.toml, and
    tests/cluster/test_handoff.py checks it)."""
    transport, protocol = ws.transport, ws.protocol
    if transport is None or transport.is_closing() or protocol.state is not State.OPEN \
            or transport.get_extra_info("sslcontext") is not None or transport.get_write_buffer_size():
        return None
    if protocol.reader.buffer or protocol.writes or not _between_frames(protocol.parser):
        return None
    frames = list(ws.recv_messages.frames.queue)
    if any(not frame.fin or frame.opcode is not Opcode.BINARY for frame in frames):
        return None
    return [bytes(frame.data) for frame in frames]


def _between_frames(parser: Any) -> bool:
    """Whether websockets' parser waits for the first byte of a frame (in StreamReader.at_eof),
    not inside one."""
    inner = parser
    while getattr(inner, "gi_yieldfrom", None) is not None:
        inner = inner.gi_yieldfrom
    return getattr(inner, "__name__", "") == "at_eof"


def adopted_connection(base: type[ServerConnection], server: Any, serve: Callable[[ServerConnection], Any],
                       max_size: int | None) -> Callable[..., ServerConnection]:
    """A factory of connections for sockets handed over, already past their handshake: each is
    a `base` connection whose protocol starts open, served by `serve` under websockets'
    `server` (which counts it, closes it at the stop, and waits for it).  `base` has
    `counted(transport)`, which its own `connection_made` calls after websockets'."""

    class Adopted(base):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            # the handshake was the other node's: not ServerConnection's (which would wait for one)
            super(ServerConnection, self).connection_made(transport)
            self.counted(transport)
            task = self.loop.create_task(self._serve())
            server.handler_tasks.add(task)

        async def _serve(self) -> None:
            server.all_connections.add(self)
            self.start_keepalive()
            try:
                async with self:
                    await serve(self)
            except Exception:  # noqa: BLE001 - as websockets' own handler does
                log.exception("handed_connection_failed")
            finally:
                server.all_connections.discard(self)
                server.handler_tasks.discard(asyncio.current_task())

    def make(what: dict[str, Any], **settings: Any) -> ServerConnection:
        protocol = ServerProtocol(max_size=max_size)
        protocol.state = State.OPEN
        protocol.parser = protocol.parse()  # started afresh: frames, not a request
        next(protocol.parser)
        connection = Adopted(protocol, server, **settings)
        connection.request = Request("/", Headers())  # (websockets reads what comes next as frames)
        connection.handed = what  # what the node that handed it over says of it
        return connection

    return make
