"""Whose each connection is: its client's address, counted from accept to close.

A connection's address is its TCP peer's, unless the peer is a load balancer named by
`--trusted-proxy` (server/forwarded.py): then it is the client's that the balancer names,
in a PROXY protocol header before anything else (server/proxy_header.py) or in the HTTP
request's X-Forwarded-For.  A PROXY header from any other peer is refused: it would let a
client pick the address that every limit per address counts.

Each connection is counted under its address (`limits.AddressCounts`) from the moment the
kernel hands it over, handshake included, since it holds a descriptor just the same; one
from a trusted balancer once its first bytes say whose it is.  An address past twice its
cap is cut at once, before it costs a handshake.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from server.forwarded import TrustedProxies
from server.limits import AddressCounts, RareLog
from server.proxy_header import BadHeader, Looks, looks_like_header, read_header


class Counted(Protocol):
    """A connection as counted here (server.app's CountedConnection)."""

    address: str  # the client's
    peer: str  # the TCP peer's (a load balancer's, behind one)
    counted_as: str | None  # the address it is counted under (None: not yet)
    start: bytes | None  # its first bytes, while it may yet begin with a PROXY header (None: past that)
    transport: Any


class ClientAddresses:
    """The connections open per client address (counted in `counts`), and the reading of what
    a trusted load balancer says of them.  `cap`: connections an address may have open (0:
    no cap)."""

    def __init__(self, counts: AddressCounts, cap: int, trusted: TrustedProxies = TrustedProxies()):
        self.open, self.cap, self.trusted = counts, cap, trusted
        self.cut = RareLog("connections_cut")
        self.proxy_refused = RareLog("proxy_header_refused")
        self.proxy_bad = RareLog("proxy_header_bad")

    def opened(self, connection: Counted, transport: asyncio.BaseTransport) -> None:
        """A new TCP connection (or one handed over, `start` None, whose address came with
        it): counted, unless a trusted load balancer is to say whose it is first."""
        if connection.start is None or not self.trusted.trusts(connection.peer):
            self._count(connection, connection.address, transport)

    def closed(self, connection: Counted) -> None:
        if connection.counted_as is not None:
            self.open.closed(connection.counted_as)

    def over_cap(self, connection: Counted) -> bool:
        return bool(self.cap) and self.open[connection.address] > self.cap

    def first_bytes(self, connection: Counted, data: bytes) -> bytes:
        """The bytes a connection has sent so far, which may begin with a PROXY header: read
        from a trusted load balancer (the connection counted under the client's address it
        names), refused from anyone else.  What comes after the header, for websockets (b"":
        nothing yet, or the connection is closed)."""
        start, transport = connection.start + data, connection.transport
        looks = looks_like_header(start)
        if looks is Looks.UNDECIDED:
            connection.start = start
            return b""
        trusted = self.trusted.trusts(connection.peer)
        if looks is Looks.NOT:
            connection.start = None
            # from a load balancer: its own connection, or one that says whose in X-Forwarded-For
            return b"" if trusted and not self._count(connection, connection.peer, transport) else start
        if not trusted:
            connection.start = None
            self.proxy_refused.note(peer=connection.peer)
            refuse(transport, f"a PROXY protocol header from {connection.peer}, which is not a trusted proxy:"
                              f" start the server with --trusted-proxy {connection.peer} if it is your load balancer")
            return b""
        try:
            header = read_header(start)
        except BadHeader as problem:
            connection.start = None
            self.proxy_bad.note(peer=connection.peer, why=str(problem))
            transport.abort()
            return b""
        if header is None:
            connection.start = start
            return b""
        connection.start = None
        return start[header.length:] if self._count(connection, header.source or connection.peer, transport) else b""

    def forwarded(self, connection: Counted, forwarded_for: list[str]) -> None:
        """An HTTP request's X-Forwarded-For values: from a trusted proxy, the connection is the
        client's they name (counted under that address from now on; past the cap, its
        handshake is answered 429, not cut)."""
        if not self.trusted or connection.counted_as is None or not forwarded_for:
            return
        client = self.trusted.client_of(connection.address, forwarded_for)
        if client != connection.address:
            self._count(connection, client, None)

    def _count(self, connection: Counted, address: str, transport: asyncio.BaseTransport | None) -> bool:
        """Count the connection under `address` (moved there if it was counted under another),
        cut past twice the cap unless `transport` is None; False: it was cut."""
        if connection.counted_as is not None:
            self.open.closed(connection.counted_as)
        connection.address = connection.counted_as = address
        count = self.open.opened(address)
        if self.cap and count > 2 * self.cap and transport is not None:
            self.cut.note(peer=address, cap=self.cap)
            transport.abort()
            return False
        return True


def refuse(transport: asyncio.BaseTransport, reason: str) -> None:
    """Answer a connection HTTP 400 with `reason` and close it (before websockets saw a byte)."""
    body = (reason + "\n").encode()
    transport.write(b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
    transport.close()
