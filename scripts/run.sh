#!/usr/bin/env bash
# Set up, then score an example hand with riichi-score (the server comes with issue 4).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ $# -eq 0 ]; then
  set -- 123456789s234m55p --win 9s --tsumo --riichi --seat S --round E --dora 6s
fi
exec .venv/bin/riichi-score "$@"
