#!/usr/bin/env bash
# Set up, then run the test suite. Extra arguments go to pytest (e.g. -m slow for the soaks).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
