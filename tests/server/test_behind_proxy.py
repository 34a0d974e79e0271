"""Players behind a load balancer are counted under their own addresses: a real HAProxy in
front of a real server, in TCP mode with the PROXY protocol (v1: send-proxy, v2:
send-proxy-v2) or in HTTP mode with X-Forwarded-For, believed only from `--trusted-proxy`.

Every client connects to HAProxy from an address of its own on loopback (127.0.1.N: all of
127/8 is this machine), so HAProxy's header names it; the server connects to nothing but
HAProxy, which reaches it from 127.0.0.1.  Before the server read these headers, all of
them were one address (127.0.0.1) and the 65th connection was answered 429.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from protocol.messages import VERSION
from server.proxy_header import V2_SIGNATURE, v1_line, v2_header
from tests.harness import ServerProcess
from tests.services import HAProxy, start_haproxy

pytestmark = pytest.mark.asyncio

PLAYERS = 70  # more than one address may have open (64)


@pytest.fixture
def haproxies() -> Iterator[list[HAProxy]]:
    """The HAProxy processes a test starts (start_haproxy), stopped after it."""
    started: list[HAProxy] = []
    yield started
    for proxy in started:
        proxy.stop()


async def player(port: int, source: str, name: str, headers: dict[str, str] | None = None) -> ClientConnection:
    """A connection from `source` to loopback `port` that has said hello and been welcomed."""
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    ws = await connect(f"ws://127.0.0.1:{port}", sock=sock, max_size=None, open_timeout=20,
                       additional_headers=headers)
    await ws.send(msgpack.packb({"type": "hello", "name": name, "version": VERSION}))
    welcome = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 20))
    assert welcome["type"] == "welcome", welcome
    return ws


def hello_peers(server: ServerProcess) -> dict[str, str]:
    """Each player's address as the server logged it at its hello, by the player's name."""
    peers = {}
    for line in server.log_text().splitlines():
        entry = json.loads(line)
        if entry.get("event") == "hello":
            peers[entry["name"]] = entry["peer"]
    return peers


def source(i: int) -> str:
    return f"127.0.1.{i + 1}"


@pytest.mark.server("--trusted-proxy", "127.0.0.1", checked=True)
@pytest.mark.parametrize("header", ["send-proxy", "send-proxy-v2"])
async def test_more_than_64_players_behind_haproxy_count_each_under_its_own_address(server, haproxies, header):
    haproxies.append(proxy := start_haproxy([server.port], header))
    players = await asyncio.gather(*(player(proxy.port, source(i), f"p{i}") for i in range(PLAYERS)))
    try:
        # all of them open at once, each known by the address HAProxy was reached from
        assert hello_peers(server) == {f"p{i}": source(i) for i in range(PLAYERS)}
        assert server.metrics()["riichi_connections"] == PLAYERS
    finally:
        await asyncio.gather(*(ws.close() for ws in players))


@pytest.mark.server("--trusted-proxy", "127.0.0.0/8", "--connections-per-address", "2", checked=True)
async def test_the_cap_counts_each_client_behind_haproxy(server, haproxies):
    """One client behind the load balancer is held to the cap; another beside it is not."""
    haproxies.append(proxy := start_haproxy([server.port], "send-proxy-v2"))
    mine = [await player(proxy.port, "127.0.1.1", f"a{i}") for i in range(2)]
    with pytest.raises(InvalidStatus) as refused:
        await player(proxy.port, "127.0.1.1", "a2")
    assert refused.value.response.status_code == 429
    assert b"too many connections from 127.0.1.1 (at most 2)" in refused.value.response.body
    other = await player(proxy.port, "127.0.1.2", "b0")
    await asyncio.gather(*(ws.close() for ws in [*mine, other]))


@pytest.mark.server(checked=True)
@pytest.mark.parametrize("header", ["send-proxy", "send-proxy-v2"])
async def test_a_proxy_header_from_a_peer_not_trusted_is_refused(server, haproxies, header):
    haproxies.append(proxy := start_haproxy([server.port], header))
    with pytest.raises(InvalidStatus) as refused:
        await player(proxy.port, "127.0.1.1", "p")
    assert refused.value.response.status_code == 400
    assert b"not a trusted proxy: start the server with --trusted-proxy 127.0.0.1" in refused.value.response.body
    assert "hello" not in {json.loads(line).get("event") for line in server.log_text().splitlines()}
    assert '"event": "proxy_header_refused"' in server.log_text()


@pytest.mark.server("--trusted-proxy", "127.0.0.1", "--connections-per-address", "1", checked=True)
async def test_x_forwarded_for_from_haproxy_in_http_mode_names_the_client(server, haproxies):
    haproxies.append(proxy := start_haproxy([server.port], mode="http"))
    players = [await player(proxy.port, source(i), f"p{i}") for i in range(3)]
    assert hello_peers(server) == {f"p{i}": source(i) for i in range(3)}
    await asyncio.gather(*(ws.close() for ws in players))


@pytest.mark.server("--trusted-proxy", "127.0.0.1", "--connections-per-address", "1", checked=True)
async def test_x_forwarded_for_from_a_peer_not_trusted_is_ignored(server):
    """A client that says it is someone else gets no fresh allowance: it is its own address."""
    first = await player(server.port, "127.0.0.2", "p0", {"X-Forwarded-For": "203.0.113.1"})
    with pytest.raises(InvalidStatus) as refused:
        await player(server.port, "127.0.0.2", "p1", {"X-Forwarded-For": "203.0.113.2"})
    assert refused.value.response.status_code == 429
    assert hello_peers(server) == {"p0": "127.0.0.2"}
    # and from the trusted peer, the right-most address it did not append itself
    second = await player(server.port, "127.0.0.1", "p2", {"X-Forwarded-For": "198.51.100.1, 203.0.113.9"})
    assert hello_peers(server)["p2"] == "203.0.113.9"
    await asyncio.gather(first.close(), second.close())


async def headed_player(port: int, header: bytes, name: str, pieces: int = 1) -> ClientConnection:
    """A connection from 127.0.0.1 that first sends `header` itself, in `pieces`, as a load
    balancer would, then says hello."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    step = -(-len(header) // pieces)
    for at in range(0, len(header), step):
        await loop.sock_sendall(sock, header[at:at + step])
        await asyncio.sleep(0.05)  # separate reads on the server's side
    ws = await connect(f"ws://127.0.0.1:{port}", sock=sock, max_size=None, open_timeout=20)
    await ws.send(msgpack.packb({"type": "hello", "name": name, "version": VERSION}))
    assert msgpack.unpackb(await asyncio.wait_for(ws.recv(), 20))["type"] == "welcome"
    return ws


@pytest.mark.server("--trusted-proxy", "127.0.0.1", checked=True)
async def test_a_header_that_comes_in_pieces_is_read_whole(server):
    v1 = await headed_player(server.port, v1_line("203.0.113.5", "127.0.0.1", 4000, 8765), "v1", pieces=4)
    v2 = await headed_player(server.port, v2_header("2001:db8::5", "::1", 4000, 8765, tlvs=b"\x04\x00\x01x"), "v2",
                             pieces=5)
    assert hello_peers(server) == {"v1": "203.0.113.5", "v2": "2001:db8::5"}
    await asyncio.gather(v1.close(), v2.close())


@pytest.mark.server("--trusted-proxy", "127.0.0.1", checked=True)
async def test_a_malformed_header_from_a_trusted_peer_closes_the_connection_and_the_server_goes_on(server):
    loop = asyncio.get_running_loop()
    for bad in (b"PROXY TCP4 203.0.113.999 127.0.0.1 1 2\r\nGET / HTTP/1.1\r\n\r\n",
                V2_SIGNATURE + b"\x21\x51\x00\x0c" + bytes(12) + b"GET / HTTP/1.1\r\n\r\n"):
        sock = socket.socket()
        sock.setblocking(False)
        await loop.sock_connect(sock, ("127.0.0.1", server.port))
        await loop.sock_sendall(sock, bad)
        try:
            said = await asyncio.wait_for(loop.sock_recv(sock, 100), 10)
        except ConnectionResetError:
            said = b""
        assert said == b""  # closed, nothing said
        sock.close()
    assert '"event": "proxy_header_bad"' in server.log_text()
    ws = await headed_player(server.port, v1_line("203.0.113.6", "127.0.0.1", 1, 2), "after")
    await ws.close()
