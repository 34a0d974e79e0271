"""Recorded games from other servers, read into our engine's terms.

`mjlog` and `tenhou6` read a log into a `ParsedLog` (`replay`): the rules it was played
under, the names, each hand's wall, the steps play took (`steps`) and what each hand came
to (`expected`).  `replay.replay_log` plays it on the engine, answering every call window
the engine opens, and holds the results up to the log's.
"""
