"""Issue 14, "Seats and resuming", on the server's side: through real sockets against a
real server (tests/server/test_end_to_end.py's fixture)."""

from __future__ import annotations

import pytest

from protocol.client import Client
from tests.server.test_end_to_end import recv, server  # noqa: F401  (the fixture)


@pytest.mark.asyncio
async def test_join_with_a_watch_code_is_refused_as_a_watch_code(server):  # noqa: F811
    """A `join` given the table's watch code says which code it is (`watch_code`), not just
    that no table has that invite code."""
    host = await Client.connect(server.url, "host")
    await host.send({"type": "create_table"})
    table = await recv(host, "table")
    guest = await Client.connect(server.url, "guest")
    await guest.send({"type": "join", "code": table["watch"]})
    refused = await recv(guest, "error")
    assert refused["code"] == "watch_code" and "watch code" in refused["message"]
    await guest.send({"type": "join", "code": "no-such-code-at-all"})
    assert (await recv(guest, "error"))["code"] == "no_table"
    await host.close()
    await guest.close()
