#!/usr/bin/env bash
# Set up, then run the test suite; extra arguments go to pytest (`-m slow` for the soaks and
# fuzz runs, a path or -k to choose tests). Two passes: first every test but those marked
# `alone`, on all cores (pytest-xdist, a test module to a worker, so a module's fixtures are
# made once); then the `alone` tests, which compare latencies, one at a time on an idle
# machine. RIICHI_TEST_WORKERS sets the first pass's workers (default: one a core and one more,
# since the end-to-end tests spend much of their time waiting on servers: 3 on 2 cores; 0 runs it
# in this process).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

marks="not slow"  # pyproject.toml's default
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -m) marks="$2"; shift 2 ;;
    -m*) marks="${1#-m}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
workers=${RIICHI_TEST_WORKERS:-$(( $(nproc) + 1 ))}
pytest=(.venv/bin/python -m pytest)
status=0
# pytest exits 5 when a pass selects no test (e.g. `-k` names only tests of the other pass)
"${pytest[@]}" -n "$workers" --dist loadfile -m "($marks) and not alone" ${args[@]+"${args[@]}"} || status=$?
[ "$status" = 5 ] && status=0
second=0
"${pytest[@]}" -p no:xdist -m "($marks) and alone" ${args[@]+"${args[@]}"} || second=$?
[ "$second" = 5 ] && second=0
[ "$status" != 0 ] && exit "$status"
exit "$second"
