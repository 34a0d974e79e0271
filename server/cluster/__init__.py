"""Many server processes as one service (issue 16): leases.py, which node runs each table."""
