#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine, then run all of it.
# Used by README.md ("run the whole test suite") and by .ci/run.
#
# Stages: system packages, Python environment, lint and types, pytest (analyzer, CLI, language
# server with pytest-lsp and Neovim, verifier with real TensorFlow on Keras 3 and Keras 2,
# Sphinx builds in both languages, notebooks, pre-commit, SARIF schema, packaging, JupyterLab),
# then the VS Code extension (type check, lint, unit tests, .vsix, end-to-end in code-server).
# Extra arguments go to pytest.  SKIP_VSCODE=1 skips the last stage.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
started=$(date +%s)

step() { printf '\n==> [%4ss] %s\n' "$(($(date +%s) - started))" "$*"; }

# -- system packages: the real clients the end-to-end tests drive --------------------------------
need_apt=()
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# Japanese glyphs for the documentation screenshots.
dpkg-query -W -f='${Status}' fonts-ipafont-gothic 2>/dev/null | grep -q 'install ok installed' ||
  need_apt+=(fonts-ipafont-gothic)
if [ ${#need_apt[@]} -gt 0 ]; then
  step "apt-get install ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# -- Python --------------------------------------------------------------------------------------
if [ ! -x .venv/bin/python ]; then
  step "create .venv"
  "$PY" -m venv .venv
fi
step "pip install -e .[tf,docs,dev]"
# The machine's pip.conf names local mirrors that may not exist; pip says so on every run.
quiet_pip() { grep -v "Location 'file" || true; }
.venv/bin/python -m pip install -q --upgrade pip 2>&1 | quiet_pip
.venv/bin/python -m pip install -q -e ".[tf,docs,dev]" 2>&1 | quiet_pip

step "ruff check, ruff format --check, mypy"
.venv/bin/ruff check tflsp tests benchmarks scripts
.venv/bin/ruff format --check tflsp tests benchmarks scripts
.venv/bin/mypy

# -- tests ---------------------------------------------------------------------------------------
step "pytest (every tool is installed now: a missing one fails instead of skipping)"
TFLSP_REQUIRE_ALL=1 .venv/bin/python -m pytest -q -p no:cacheprovider "$@"

if [ -z "${SKIP_VSCODE:-}" ]; then
  step "VS Code extension: tsc, eslint, unit tests, .vsix, end-to-end in code-server"
  bash vscode-extension/scripts/test.sh
fi

step "all tests passed"
