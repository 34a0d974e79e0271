"""A service this server needs (its database, the service's Redis) does not answer now.  A
client's request that needs it is answered `unavailable` (PROTOCOL.md "Errors") with
args[0], one line saying which and for how long, rather than `internal`."""


class Away(Exception):
    """args[0]: which service does not answer, and for how long, in one line."""
