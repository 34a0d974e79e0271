"""A table: its core (no I/O) and the actor that runs it on the server's event loop.

io.py       what goes in (inputs, from a Member) and what comes out (outputs), as plain data
spec.py     TableSpec: what a table is opened from (rules, clock, seats, seed or walls, labels)
core.py     TableCore: the entry, the game, its offers, clocks and bots, the one finish
seating.py  seats and presence: join, watch, bots, ready, leave, drops and resumes
base.py     the state, and how members are told: broadcasts, catch-up, snapshots, offers
seats.py    TableState, SeatState, Seat
clock.py    Clock, Offer, what is played for a seat whose time runs out
history.py  the last broadcasts, encoded once per audience, for members that resume
actor.py    Table: one asyncio task, one queue; carries the outputs to the store, sessions, timer
"""
