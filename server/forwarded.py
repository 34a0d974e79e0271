"""Which peers are load balancers the server believes (`--trusted-proxy`), and the client's
address from an HTTP X-Forwarded-For header.

Behind a load balancer every connection comes from the balancer's address, so the limits
per client address (connections, tables, the share of the event loop) would count all its
players as one.  A load balancer says who the client is, with a PROXY protocol header
(server/proxy_header.py) or an X-Forwarded-For header, and the server believes it only
from a peer named by `--trusted-proxy`: from anyone else either would let a client claim
any address it likes, and with it a fresh allowance of every limit.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def network(text: str) -> Network:
    """`--trusted-proxy`'s value, an address (10.0.0.5, ::1) or a network (10.0.0.0/8).

    Raises ValueError with the line to show when it is neither."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(f"--trusted-proxy {text!r} is not an address or a network: give one like 10.0.0.5,"
                         " 10.0.0.0/8 or ::1") from None


class TrustedProxies:
    """The peers whose PROXY headers and X-Forwarded-For the server believes."""

    def __init__(self, networks: Iterable[Network] = ()):
        self.networks = tuple(networks)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, address: str | None) -> bool:
        if not self.networks or not address:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped  # ::ffff:10.0.0.5 on a dual-stack socket is 10.0.0.5
        return any(ip in net for net in self.networks)

    def client_of(self, peer: str, forwarded_for: Sequence[str]) -> str:
        """The client's address, from the peer the request came from and the X-Forwarded-For
        headers' values (in the order they came): the right-most address that is not itself
        a trusted proxy, since each proxy appends the address it was reached from, and only
        what the nearest untrusted hop appended is not the client's own say.  From a peer
        that is not trusted the header is ignored; an entry that is not an address stops the
        walk at the proxy that passed it on."""
        if not self.trusts(peer):
            return peer
        hops = [hop.strip() for value in forwarded_for for hop in value.split(",")]
        address = peer
        for hop in reversed(hops):
            try:
                hop = str(ipaddress.ip_address(hop))
            except ValueError:
                return address
            address = hop
            if not self.trusts(hop):
                return hop
        return address
