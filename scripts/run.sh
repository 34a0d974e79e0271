#!/usr/bin/env bash
# Set up, start a local riichi-server and open the terminal client (riichi-play) at a new
# table with three bots; it shows the invite code, so a friend in a second terminal can
# take a bot's seat before you press g:  .venv/bin/riichi-play --join CODE
# Arguments go to riichi-play (--rules tenhou, --no-clock, --unicode, --name, --help).
# `scripts/run.sh --plain [--rules tenhou] [--keep-server]` instead plays a whole game
# without a screen: a plain player and three bots, each hand's result printed.
# `scripts/run.sh --web` starts a local riichi-server and prints its link: open it in a
# browser to play there (the lobby creates tables with bots; Ctrl+C stops the server).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "${1:-}" = "--plain" ]; then
  shift
  exec .venv/bin/python scripts/demo_game.py "$@"
fi
if [ "${1:-}" = "--web" ]; then
  shift
  port=$(.venv/bin/python -c 'from client_cli.play.local import DEFAULT_PORT, free_port, port_free
print(DEFAULT_PORT if port_free(DEFAULT_PORT) else free_port())')
  folder=$(mktemp -d "${TMPDIR:-/tmp}/riichi-web.XXXXXX")
  .venv/bin/riichi-server --port "$port" --db "$folder/riichi.sqlite3" --ephemeral "$@" 2>"$folder/server.log" &
  server=$!
  # Ctrl+C (or a TERM) stops the server (its players are told it has ended), then the folder goes
  trap 'kill -TERM "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$folder"' EXIT
  trap 'exit 130' INT TERM
  echo "Open http://127.0.0.1:$port/ in a browser to play (Ctrl+C stops the server)."
  if ! wait "$server"; then
    cat "$folder/server.log" >&2  # it could not start (say, the port was taken meanwhile)
    exit 1
  fi
  exit 0
fi
exec .venv/bin/riichi-play --local --bots 3 "$@"
