#!/usr/bin/env bash
# Set up .venv in the repository root with the project and its dev tools (idempotent).
# Quiet when it works: pip's and the build backend's output (setuptools prints a banner on
# every editable install) is kept in a log, shown only if a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
log=$(mktemp "${TMPDIR:-/tmp}/riichi-setup.XXXXXX")
trap 'rm -f "$log"' EXIT

quietly() {  # run a step, its output into the log; on failure show the log and stop
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "scripts/setup.sh: this step failed (its output is above): $*" >&2
    exit 1
  fi
}

if [ ! -x .venv/bin/python ]; then
  quietly "$PYTHON" -m venv .venv
fi
# The editable install puts the repository on sys.path with a plain .pth line ("compat"
# mode; the build backend is pinned in pyproject.toml, so the mode is there): the default
# mode's import hook costs every start of every command some 25 ms, a tenth of a
# `riichi-score --jsonl` run.
install=(-m pip install -e '.[dev]' --config-settings editable_mode=compat)
stamp=.venv/.installed-$( (cat pyproject.toml; echo "${install[*]}") | sha1sum | cut -c1-12)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true  # an old pip works too
  quietly .venv/bin/python "${install[@]}"
  rm -f .venv/.installed-*
  touch "$stamp"
fi

# Bytecode for the project's own modules, once: where PYTHONDONTWRITEBYTECODE is set (as on
# CI), Python would otherwise compile every module at every start of every command.
quietly .venv/bin/python -m compileall -q server protocol client_cli

# The web client (web/, TypeScript and @msgpack/msgpack from web/package-lock.json) is built
# into server/webclient/, which riichi-server serves: only when its sources changed.
if [ -f web/package.json ] && ! node web/build.mjs --fresh >/dev/null 2>&1; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "scripts/setup.sh: npm is missing, so the web client is not built: install Node.js 18 or later" \
         "(Debian: apt-get install nodejs npm) and run scripts/setup.sh again" >&2
  else
    quietly npm --prefix web ci --ignore-scripts --no-audit --no-fund
    quietly npm --prefix web run build
  fi
fi

# What the tests start for themselves, from Debian's packages: headless Chromium and its
# driver for the browser tests (tests/web/), PostgreSQL and Redis servers for the PostgreSQL
# store and the cluster (tests/store/, tests/cluster/, tests/services.py), tmux for the
# terminal client's tests.
packages=()
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  packages+=(chromium chromium-driver)
fi
if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  packages+=(postgresql)
fi
if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then
  packages+=(haproxy)  # the load balancer in front of the nodes (tests/server/test_behind_proxy.py)
fi
if ! command -v redis-server >/dev/null 2>&1; then
  packages+=(redis-server)
fi
if ! command -v tmux >/dev/null 2>&1; then
  packages+=(tmux)  # riichi-play in a real terminal (tests/client_cli/test_play_tmux.py)
fi
if [ ${#packages[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    quietly apt-get update -q
    quietly env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}"
  else
    echo "scripts/setup.sh: the tests need ${packages[*]}: as root, apt-get install ${packages[*]}" >&2
  fi
fi
