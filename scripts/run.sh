#!/usr/bin/env bash
# Set up, then play a whole game on a local riichi-server: you (a plain player) and three
# bots, each hand's result shown as it ends. Arguments go to scripts/demo_game.py
# (--rules tenhou, --keep-server, --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python scripts/demo_game.py "$@"
