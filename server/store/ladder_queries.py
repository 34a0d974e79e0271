"""The ladders' SQL (schema step 16), written once with `?` for each argument (PostgreSQL's
$1, $2, ... by event_queries.numbered).  Both stores run these and nothing else for ladders
(server/store/ladder_store.py)."""

from __future__ import annotations

from server.store.ladder_rows import BOT_COLUMNS, GAME_COLUMNS, LADDER_COLUMNS, SET_COLUMNS

ADD_LADDER = f"INSERT INTO ladders ({LADDER_COLUMNS}) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
LADDER = f"SELECT {LADDER_COLUMNS} FROM ladders WHERE name = ?"
LADDERS = f"SELECT {LADDER_COLUMNS} FROM ladders ORDER BY created, name"
# the matchmaker's lease: one node at a time matches a ladder's bots (taken when free or lapsed)
CLAIM_MATCHER = ("UPDATE ladders SET matcher = ?, matcher_until = ? WHERE name = ?"
                 " AND (matcher IS NULL OR matcher = ? OR matcher_until < ?)")
# queued: free again (a bot at a table stays busy: its game frees it), on the node holding its connection
QUEUE_BOT = (f"INSERT INTO ladder_bots ({BOT_COLUMNS}) VALUES (?, ?, 'free', ?, ?, ?, ?)"
             " ON CONFLICT (ladder, player_id) DO UPDATE SET seen = excluded.seen, node = excluded.node,"
             " joined = CASE WHEN ladder_bots.state = 'gone' THEN excluded.joined ELSE ladder_bots.joined END,"
             " state = CASE WHEN ladder_bots.state = 'busy' THEN 'busy' ELSE 'free' END,"
             " since = CASE WHEN ladder_bots.state = 'busy' THEN ladder_bots.since ELSE excluded.since END")
TOUCH_BOTS = "UPDATE ladder_bots SET seen = ? WHERE ladder = ? AND node = ? AND state <> 'gone'"
BOT_GONE = "UPDATE ladder_bots SET state = 'gone' WHERE ladder = ? AND player_id = ? AND node = ?"
DROP_BOT = "UPDATE ladder_bots SET state = 'gone' WHERE ladder = ? AND player_id = ?"
BOTS = f"SELECT {BOT_COLUMNS} FROM ladder_bots WHERE ladder = ? ORDER BY since, player_id"
CLAIM_BOT = "UPDATE ladder_bots SET state = 'busy' WHERE ladder = ? AND player_id = ? AND state = 'free'"
FREE_BOT = "UPDATE ladder_bots SET state = 'free', since = ? WHERE ladder = ? AND player_id = ? AND state = 'busy'"
# (typed: PostgreSQL does not take a bare parameter's type from the columns of an INSERT ... SELECT)
ADD_SET = (f"INSERT INTO ladder_sets ({SET_COLUMNS}) SELECT CAST(? AS TEXT), COALESCE(MAX(set_no), 0) + 1,"
           " CAST(? AS TEXT), CAST(? AS TEXT), 'playing', CAST(? AS DOUBLE PRECISION) FROM ladder_sets WHERE ladder = ?")
LAST_SET = f"SELECT {SET_COLUMNS} FROM ladder_sets WHERE ladder = ? ORDER BY set_no DESC LIMIT 1"
SETS_PLAYING = f"SELECT {SET_COLUMNS} FROM ladder_sets WHERE ladder = ? AND state = 'playing' ORDER BY set_no"
SET_DONE = "UPDATE ladder_sets SET state = 'done' WHERE ladder = ? AND set_no = ?"
# a game of a set: the insert is its claim (one node's; the key refuses a second)
ADD_GAME = (f"INSERT INTO ladder_games ({GAME_COLUMNS}) VALUES (?, ?, ?, ?, 'opening', NULL, NULL, NULL, NULL)"
            " ON CONFLICT DO NOTHING")
DROP_GAME = "DELETE FROM ladder_games WHERE ladder = ? AND set_no = ? AND rotation = ? AND state = 'opening'"
# a table closed before its game began (a bot it waited for left): the game is opened again
DROP_OPEN_GAME = "DELETE FROM ladder_games WHERE table_id = ? AND state = 'open'"
GAME_OPENED = ("UPDATE ladder_games SET state = 'open', table_id = ?, invite = ? WHERE ladder = ? AND set_no = ?"
               " AND rotation = ?")
GAME_ENDED = "UPDATE ladder_games SET state = ?, game_id = ?, ended = ? WHERE table_id = ? AND state = 'open'"
GAME_OF_TABLE = f"SELECT {GAME_COLUMNS} FROM ladder_games WHERE table_id = ?"
GAMES_OF_SET = f"SELECT {GAME_COLUMNS} FROM ladder_games WHERE ladder = ? AND set_no = ? ORDER BY rotation"
OPEN_GAMES = f"SELECT {GAME_COLUMNS} FROM ladder_games WHERE ladder = ? AND state = 'open' ORDER BY set_no, rotation"
# the games played out, newest first (limit), and their seats as kept (game_seats)
ENDED_GAMES = (f"SELECT {GAME_COLUMNS} FROM ladder_games WHERE ladder = ? AND state IN ('done', 'abandoned')"
               " ORDER BY game_id DESC LIMIT ?")
SEATS = ("SELECT s.game_id, s.seat, s.player_id, s.name, s.score, s.place FROM ladder_games g"
         " JOIN game_seats s ON s.game_id = g.game_id WHERE g.ladder = ? AND g.state = 'done'"
         " ORDER BY s.game_id, s.seat")
RATINGS = "SELECT player_id, mu, sigma, games FROM ladder_ratings WHERE ladder = ?"
SET_RATING = ("INSERT INTO ladder_ratings (ladder, player_id, mu, sigma, games) VALUES (?, ?, ?, ?, ?)"
              " ON CONFLICT (ladder, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
              " games = excluded.games")
