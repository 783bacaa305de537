#!/usr/bin/env bash
# Fast stage: type check, lint, unit tests, bundle and package the .vsix (about 30 s once
# node_modules is there).  Runs on the test bed's Node 24 (fetched from npm on first use, ~20 s),
# so the result does not depend on the machine's Node; no VS Code or code-server needed.
set -euo pipefail
cd "$(dirname "$0")/.."
node24=$(bash test/e2e/install-testbed.sh --node-only)
NODE24_DIR=$(sed -n 's/^NODE24_DIR=//p' <<<"$node24")
# The machine's npmrc may point nodedir at another Node's headers.
export PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm test
rm -f tflsp.vsix
npm run --silent package >/dev/null
[ -f tflsp.vsix ] || { echo "npm run package made no tflsp.vsix" >&2; exit 1; }
echo "vscode-extension: checks passed on Node $(node --version), tflsp.vsix packaged ($(du -k tflsp.vsix | cut -f1) KiB)"
