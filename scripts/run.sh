#!/usr/bin/env bash
# Set up, start a local riichi-server and open the terminal client (riichi-play) at a new
# table with three bots; it shows the invite code, so a friend in a second terminal can
# take a bot's seat before you press g:  .venv/bin/riichi-play --join CODE
# Arguments go to riichi-play (--rules tenhou, --no-clock, --unicode, --name, --help).
# `scripts/run.sh --plain [--rules tenhou] [--keep-server]` instead plays a whole game
# without a screen: a plain player and three bots, each hand's result printed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ "${1:-}" = "--plain" ]; then
  shift
  exec .venv/bin/python scripts/demo_game.py "$@"
fi
exec .venv/bin/riichi-play --local --bots 3 "$@"
