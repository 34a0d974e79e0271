#!/usr/bin/env bash
# Set up, start a local riichi-server and open the terminal client (riichi-play) at a new
# table with three bots; it shows the invite code, so a friend in a second terminal can
# take a bot's seat before you press g:  .venv/bin/riichi-play --join CODE
# Arguments go to riichi-play (--rules tenhou, --no-clock, --unicode, --name, --help).
# `scripts/run.sh --plain [--rules tenhou] [--keep-server]` instead plays a whole game
# without a screen: a plain player and three bots, each hand's result printed.
# `scripts/run.sh --web [--port N]` starts a local riichi-server and prints its link: open it
# in a browser to play there (the lobby creates tables with bots; Ctrl+C stops the server).
# Every form keeps its finished games in one database in your data folder
# ($XDG_DATA_HOME/riichi-server, else ~/.local/share/riichi-server): `riichi-server games`
# lists them (and `riichi-server export ID` writes one).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
db=$(.venv/bin/python -m server.cli.local_games)  # (its folder made)
list=".venv/bin/riichi-server games"
if [ -e riichi.sqlite3 ]; then  # (games reads the server's default in this folder first)
  list="$list --db $db"
fi
games="Your finished games are kept in $db: list them with $list"
if [ "${1:-}" = "--plain" ]; then
  shift
  echo "$games"
  exec .venv/bin/python scripts/demo_game.py --db "$db" "$@"
fi
if [ "${1:-}" = "--web" ]; then
  shift
  port=$(.venv/bin/python -c 'from client_cli.play.local import DEFAULT_PORT, free_port, port_free
print(DEFAULT_PORT if port_free(DEFAULT_PORT) else free_port())')
  folder=$(mktemp -d "${TMPDIR:-/tmp}/riichi-web.XXXXXX")  # the server's log, for while it runs
  # (an own --port or --host among the arguments comes after these, and wins)
  .venv/bin/riichi-server --port "$port" --db "$db" --ephemeral "$@" 2>"$folder/server.log" &
  server=$!
  # Ctrl+C (or a TERM) stops the server (its players are told it has ended), then the log goes
  trap 'kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$folder"' EXIT
  trap 'exit 130' INT TERM
  # The link is the one the server says it listens on (its `listening` line), once it does.
  listening=""
  for _ in $(seq 600); do
    listening=$(grep -m 1 ' listening ' "$folder/server.log" || true)
    if [ -n "$listening" ] || ! kill -0 "$server" 2>/dev/null; then
      break
    fi
    sleep 0.1
  done
  if [ -z "$listening" ]; then
    wait "$server" || true
    cat "$folder/server.log" >&2  # it could not start (say, the port was taken meanwhile)
    exit 1
  fi
  link=$(sed -n 's/.* web=\(http[^ ]*\).*/\1/p' <<<"$listening")
  if [ -z "$link" ]; then  # the web client is not built: scripts/setup.sh said why
    echo "The server listens: $listening" >&2
    exit 1
  fi
  echo "Open $link in a browser to play (Ctrl+C stops the server)."
  echo "$games"
  if ! wait "$server"; then
    cat "$folder/server.log" >&2
    exit 1
  fi
  exit 0
fi
echo "$games"
exec .venv/bin/riichi-play --local --bots 3 --db "$db" "$@"
