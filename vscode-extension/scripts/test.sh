#!/usr/bin/env bash
# Everything for the VS Code extension: the fast stage, then the end-to-end test in code-server
# (installs Node 24 + code-server into .testbed/ on first use: about 2-5 minutes; a run takes about 1 minute).
set -euo pipefail
cd "$(dirname "$0")/.."
# run-e2e.sh runs scripts/check.sh itself before it packages and installs the .vsix.
bash test/e2e/run-e2e.sh
