"""Tournaments (issue 27): an event's definition, its seating, its standings (pure, no I/O:
spec.py, seating.py, winds.py, table_points.py, standings.py), and the glue that keeps an
event in the store and opens its rounds' tables (service.py)."""
