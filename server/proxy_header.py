"""The PROXY protocol's header (HAProxy's `send-proxy` and `send-proxy-v2`), read by our own code.

A load balancer in TCP mode connects to the server itself, so every player seems to come
from its address.  With the PROXY protocol it first sends one header naming the client's
address, then the client's bytes as they came.  Version 1 is a text line, `PROXY TCP4
SRC DST SPORT DPORT\\r\\n` (at most 107 bytes); version 2 is binary: a 12-byte signature, a
version and command byte, a family byte, a 2-byte length, the addresses, then TLVs (which
the server does not need and skips).

`read_header` takes the bytes received so far and says whether a whole header is there
yet; it never guesses: a header it cannot read whole is `BadHeader`, and the server closes
the connection (the header comes only from a trusted load balancer, which would not send a
bad one).  `looks_like_header` tells, from the first bytes, whether a connection begins
with a header at all.
"""

from __future__ import annotations

import enum
import ipaddress
import struct
from dataclasses import dataclass

V1_PREFIX = b"PROXY "
V1_MAX = 107  # bytes of a version 1 line, its \r\n included (the specification's bound)
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V2_FIXED = 16  # the signature, the version and command, the family, the length
# the address block's size for each family (AF_INET, AF_INET6 and AF_UNIX with TCP or UDP)
V2_ADDRESSES = {0x1: 12, 0x2: 36, 0x3: 216}


class BadHeader(Exception):
    """A PROXY header that is not one (args[0] says what is wrong with it)."""


class Looks(enum.Enum):
    """What the first bytes of a connection are."""

    HEADER = "header"  # a PROXY header of either version begins here
    NOT = "not"  # something else (an HTTP request)
    UNDECIDED = "undecided"  # too few bytes yet to tell


@dataclass(frozen=True)
class Header:
    """A whole PROXY header: the client's address (None: the header names none, as a load
    balancer's own health check says LOCAL or UNKNOWN; the connection's peer is the client)
    and how many bytes it took."""

    source: str | None
    length: int


def looks_like_header(data: bytes) -> Looks:
    for prefix in (V1_PREFIX, V2_SIGNATURE):
        if data[:len(prefix)] == prefix[:len(data)]:
            return Looks.HEADER if len(data) >= len(prefix) else Looks.UNDECIDED
    return Looks.NOT


def read_header(data: bytes) -> Header | None:
    """The header at the start of `data`, or None if more bytes are needed for it.

    Raises BadHeader when `data` does not begin with a well-formed header."""
    looks = looks_like_header(data)
    if looks is Looks.UNDECIDED:
        return None
    if looks is Looks.NOT:
        raise BadHeader("the connection does not begin with a PROXY protocol header")
    return _v1(data) if data.startswith(V1_PREFIX) else _v2(data)


def _v1(data: bytes) -> Header | None:
    end = data.find(b"\r\n", 0, V1_MAX)
    if end < 0:
        if len(data) >= V1_MAX or b"\n" in data:
            raise BadHeader(f"a PROXY v1 line with no \\r\\n within {V1_MAX} bytes")
        return None
    try:
        line = data[:end].decode("ascii")
    except UnicodeDecodeError:
        raise BadHeader("a PROXY v1 line that is not ASCII") from None
    parts = line.split(" ")
    if len(parts) >= 2 and parts[1] == "UNKNOWN":
        return Header(None, end + 2)  # the rest of the line is to be ignored
    if len(parts) != 6 or parts[1] not in ("TCP4", "TCP6"):
        raise BadHeader(f"a PROXY v1 line that is not 'PROXY TCP4|TCP6 SRC DST SPORT DPORT': {line[:60]!r}")
    version = 4 if parts[1] == "TCP4" else 6
    source = _address(parts[2], version)
    _address(parts[3], version)
    for port in parts[4:6]:
        if not port.isdigit() or not port.isascii() or (len(port) > 1 and port[0] == "0") or int(port) > 65535:
            raise BadHeader(f"a PROXY v1 line with a port that is not one: {port[:10]!r}")
    return Header(source, end + 2)


def _address(text: str, version: int) -> str:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise BadHeader(f"a PROXY v1 line with an address that is not one: {text[:45]!r}") from None
    if address.version != version:
        raise BadHeader(f"a PROXY v1 line whose address {text} is not IPv{version}")
    return str(address)


def _v2(data: bytes) -> Header | None:
    if len(data) < V2_FIXED:
        return None
    version_command, family, length = data[12], data[13], struct.unpack_from("!H", data, 14)[0]
    if version_command >> 4 != 2:
        raise BadHeader(f"a PROXY v2 signature with version {version_command >> 4}, not 2")
    command = version_command & 0xF
    if command > 1:
        raise BadHeader(f"a PROXY v2 header with the command {command}, neither LOCAL (0) nor PROXY (1)")
    total = V2_FIXED + length
    if len(data) < total:
        return None
    if command == 0:  # LOCAL: the load balancer's own connection (a health check)
        return Header(None, total)
    kind, transport = family >> 4, family & 0xF
    if kind == 0 or kind == 0x3:  # UNSPEC, or a Unix socket's path: no client address to count
        return Header(None, total)
    if kind not in V2_ADDRESSES or transport not in (1, 2):
        raise BadHeader(f"a PROXY v2 header with the family byte 0x{family:02x}, which is none the protocol has")
    if length < V2_ADDRESSES[kind]:
        raise BadHeader(f"a PROXY v2 header of {length} address bytes, less than its family's {V2_ADDRESSES[kind]}")
    raw = data[V2_FIXED:V2_FIXED + (4 if kind == 0x1 else 16)]
    return Header(str(ipaddress.IPv4Address(raw) if kind == 0x1 else ipaddress.IPv6Address(raw)), total)


def v1_line(source: str, destination: str, source_port: int, destination_port: int) -> bytes:
    """A version 1 header for a TCP connection from `source` (for tests and tools)."""
    family = "TCP4" if ipaddress.ip_address(source).version == 4 else "TCP6"
    return f"PROXY {family} {source} {destination} {source_port} {destination_port}\r\n".encode("ascii")


def v2_header(source: str, destination: str, source_port: int, destination_port: int, tlvs: bytes = b"") -> bytes:
    """A version 2 PROXY header for a TCP connection from `source` (for tests and tools)."""
    src, dst = ipaddress.ip_address(source), ipaddress.ip_address(destination)
    family = 0x11 if src.version == 4 else 0x21
    block = src.packed + dst.packed + struct.pack("!HH", source_port, destination_port) + tlvs
    return V2_SIGNATURE + bytes([0x21, family]) + struct.pack("!H", len(block)) + block
