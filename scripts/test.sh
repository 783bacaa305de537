#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine, then run all of it.
# Used by README.md ("run the whole test suite") and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PYTHON:-python3}

step() { printf '\n==> %s\n' "$*"; }

# -- system packages (real clients for the end-to-end tests) ------------------------------------
need_apt=()
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  step "apt-get install ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# -- Python --------------------------------------------------------------------------------------
if [ ! -x .venv/bin/python ]; then
  step "create .venv"
  "$PY" -m venv .venv
fi
step "pip install -e .[tf,docs,dev]"
.venv/bin/python -m pip install -q --upgrade pip 2>&1 | grep -v "Location 'file" || true
.venv/bin/python -m pip install -q -e ".[tf,docs,dev]" 2>&1 | grep -v "Location 'file" || true

step "ruff, ruff format, mypy"
.venv/bin/ruff check tflsp tests benchmarks scripts
.venv/bin/ruff format --check tflsp tests benchmarks scripts
.venv/bin/mypy

# -- tests ---------------------------------------------------------------------------------------
step "pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"

step "all tests passed"
