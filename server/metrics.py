"""`GET /metrics`: the node's figures in the Prometheus text format (prometheus_client).

Counted as they happen: the decisions stored and each client decision's latency, from its
`act` reaching the table's queue to the end of the step that carried out what it caused
(the decision stored, the events sent).  Read when scraped: the tables by state, the
connections and sessions, and in a service of several nodes the leases this node holds,
their renewals and the tables it took over from a lost node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# seconds: a decision at bot pace is a few ms, one across a busy node tens
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Figures:
    """One node's figures: its tables count into `decided` and `answered`; `read` gives what is
    read at each scrape (a callable returning name -> value, see App.figures)."""

    def __init__(self, read: Callable[[], dict[str, Any]] = dict):
        self.registry = CollectorRegistry()
        self._decisions = Counter("riichi_decisions", "Decisions stored", registry=self.registry)
        self._latency = Histogram("riichi_decision_latency_seconds",
                                  "From a client's act reaching its table to the end of the step it caused",
                                  buckets=LATENCY_BUCKETS, registry=self.registry)
        self.read = read
        self.registry.register(_Read(self))

    def decided(self, count: int) -> None:
        self._decisions.inc(count)

    def answered(self, seconds: float) -> None:
        self._latency.observe(seconds)

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _Read:
    """The figures read at a scrape."""

    def __init__(self, figures: Figures):
        self.figures = figures

    def describe(self) -> list:
        return []  # read at each scrape: nothing to check when registered

    def collect(self) -> Iterator[Any]:
        now = self.figures.read()
        tables = GaugeMetricFamily("riichi_tables", "Open tables this node runs, by state", labels=["state"])
        for state, count in now.get("tables", {}).items():
            tables.add_metric([state], count)
        yield tables
        yield GaugeMetricFamily("riichi_connections", "Open websocket connections", value=now.get("connections", 0))
        yield GaugeMetricFamily("riichi_sessions", "Sessions kept (connected or resumable)",
                                value=now.get("sessions", 0))
        if "leases" in now:
            yield GaugeMetricFamily("riichi_leases", "Table leases this node holds", value=now["leases"])
            yield CounterMetricFamily("riichi_lease_renewals", "Lease renewals", value=now["renewals"])
            yield CounterMetricFamily("riichi_failovers", "Tables taken over from a node that was gone",
                                      value=now["failovers"])
        if "handoffs" in now:
            handoffs = CounterMetricFamily("riichi_handoffs", "Connections handed between this node and the table's"
                                           " node on this machine", labels=["way"])
            for way, count in now["handoffs"].items():
                handoffs.add_metric([way], count)
            yield handoffs
