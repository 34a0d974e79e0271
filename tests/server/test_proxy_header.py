"""server/proxy_header.py: PROXY protocol v1 and v2 headers read whole, or refused."""

from __future__ import annotations

import struct

import pytest

from server.proxy_header import (V2_SIGNATURE, BadHeader, Header, Looks, looks_like_header, read_header, v1_line,
                                 v2_header)

REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


def v2(command: int, family: int, block: bytes, version: int = 2) -> bytes:
    return V2_SIGNATURE + bytes([version << 4 | command, family]) + struct.pack("!H", len(block)) + block


def test_v1_tcp4_gives_the_source_and_its_length():
    line = v1_line("203.0.113.7", "127.0.0.1", 51000, 8765)
    assert line == b"PROXY TCP4 203.0.113.7 127.0.0.1 51000 8765\r\n"
    assert read_header(line + REQUEST) == Header("203.0.113.7", len(line))


def test_v1_tcp6_gives_the_source_in_its_usual_form():
    line = b"PROXY TCP6 2001:db8:0:0::1 ::1 443 8765\r\n"
    assert read_header(line) == Header("2001:db8::1", len(line))


def test_v1_unknown_names_nobody():
    line = b"PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n"
    assert read_header(line + REQUEST) == Header(None, len(line))
    assert read_header(b"PROXY UNKNOWN\r\n") == Header(None, 15)


def test_v2_tcp4_skips_its_tlvs():
    header = v2_header("198.51.100.9", "127.0.0.1", 40000, 8765, tlvs=b"\x04\x00\x03abc")
    assert read_header(header + REQUEST) == Header("198.51.100.9", len(header))


def test_v2_tcp6():
    header = v2_header("2001:db8::42", "::1", 40000, 8765)
    assert read_header(header) == Header("2001:db8::42", 16 + 36)


def test_v2_local_and_unspec_name_nobody():
    assert read_header(v2(0, 0x00, b"")) == Header(None, 16)
    assert read_header(v2(0, 0x11, bytes(12))) == Header(None, 28)  # a health check: LOCAL, addresses ignored
    assert read_header(v2(1, 0x00, b"")) == Header(None, 16)


@pytest.mark.parametrize("header", [v1_line("203.0.113.7", "127.0.0.1", 1, 2), v2_header("10.1.2.3", "10.0.0.1", 1, 2)])
def test_a_header_cut_anywhere_waits_for_the_rest(header):
    for cut in range(len(header)):
        assert read_header(header[:cut]) is None, cut
    assert read_header(header).length == len(header)


def test_what_is_not_a_header_looks_so_at_once():
    assert looks_like_header(REQUEST) is Looks.NOT
    assert looks_like_header(b"G") is Looks.NOT
    assert looks_like_header(b"PRO") is Looks.UNDECIDED
    assert looks_like_header(b"\r\n\r\n\x00") is Looks.UNDECIDED
    assert looks_like_header(b"PROXY TCP4") is Looks.HEADER
    assert looks_like_header(V2_SIGNATURE) is Looks.HEADER
    with pytest.raises(BadHeader, match="does not begin"):
        read_header(REQUEST)


@pytest.mark.parametrize("line, why", [
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 51000\r\n", "SRC DST SPORT DPORT"),
    (b"PROXY TCP5 203.0.113.7 127.0.0.1 1 2\r\n", "SRC DST SPORT DPORT"),
    (b"PROXY TCP4 203.0.113.7  127.0.0.1 1 2\r\n", "SRC DST SPORT DPORT"),
    (b"PROXY TCP4 203.0.113.999 127.0.0.1 1 2\r\n", "address that is not one"),
    (b"PROXY TCP4 ::1 127.0.0.1 1 2\r\n", "is not IPv4"),
    (b"PROXY TCP6 203.0.113.7 ::1 1 2\r\n", "is not IPv6"),
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 65536 2\r\n", "port"),
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 -1 2\r\n", "port"),
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 01 2\r\n", "port"),
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 \xd9\xa1 2\r\n", "not ASCII"),
    (b"PROXY TCP4 203.0.113.7 127.0.0.1 1 2\n", "no \\\\r\\\\n"),
    (b"PROXY " + b"x" * 120, "no \\\\r\\\\n"),
])
def test_malformed_v1_lines_are_refused(line, why):
    with pytest.raises(BadHeader, match=why):
        read_header(line)


@pytest.mark.parametrize("header, why", [
    (v2(1, 0x11, bytes(12), version=1), "version 1, not 2"),
    (v2(2, 0x11, bytes(12)), "command 2"),
    (v2(1, 0x41, bytes(12)), "family byte 0x41"),
    (v2(1, 0x13, bytes(12)), "family byte 0x13"),
    (v2(1, 0x11, bytes(8)), "8 address bytes"),
    (v2(1, 0x21, bytes(12)), "12 address bytes"),
])
def test_malformed_v2_headers_are_refused(header, why):
    with pytest.raises(BadHeader, match=why):
        read_header(header)


def test_a_v2_header_whose_length_runs_past_the_data_waits():
    header = v2_header("10.1.2.3", "10.0.0.1", 1, 2)
    longer = header[:14] + struct.pack("!H", 500) + header[16:]
    assert read_header(longer) is None
