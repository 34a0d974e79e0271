"""Many server processes as one service (issue 16; the design: docs/cluster.md).

leases.py  which node runs each table: a lease in Redis, its epoch fencing the node's writes
wire.py    the frames nodes relay through Redis: a table's inputs and the outputs for clients
"""
