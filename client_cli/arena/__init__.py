"""riichi-arena: bots played against each other in duplicate sets, on the engine in-process.

specs.py what a bot argument names; sets.py a set's seed and its four seatings;
seats.py a seat played by a bot (in-process or an mjai process); play.py one game and
one set; pool.py sets across processes; interval.py the clustered 95% interval;
tally.py what the sets add up to per bot; report.py the text and JSON; progress.py the
progress line; cli.py the command (docs/arena.md).
"""
