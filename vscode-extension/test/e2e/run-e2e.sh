#!/usr/bin/env bash
# End-to-end test of the tflsp extension in real VS Code (code-server in Debian's chromium).
#
# Installs its test bed if needed (install-testbed.sh), builds and packages the .vsix, installs it
# into a fresh code-server profile, starts code-server with workspace trust ON, and runs
# drive.mjs, which clicks through the editor like a user.  Exits 0 only when every check passed.
#
# Environment:
#   TFLSP_E2E_PYTHON     Python with tflsp installed (default: <repo>/.venv/bin/python)
#   TFLSP_E2E_ARTIFACTS  where screenshots, logs and result.json go (default: <repo>/test-artifacts/vscode-e2e)
#   TFLSP_TESTBED        cache of Node 24 + code-server (default: vscode-extension/.testbed)
#   KEEP=1               keep the temporary profile/workspace directory
#   UPDATE_IMAGES=1      copy the README screenshots (images/*.png) from this run
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
EXT_DIR=$(cd "$HERE/../.." && pwd)
REPO=$(cd "$EXT_DIR/.." && pwd)
PYTHON=${TFLSP_E2E_PYTHON:-$REPO/.venv/bin/python}
ARTIFACTS=${TFLSP_E2E_ARTIFACTS:-$REPO/test-artifacts/vscode-e2e}
started=$(date +%s)
say() { printf '[e2e %3ss] %s\n' "$(($(date +%s) - started))" "$*" >&2; }

# -- test bed -------------------------------------------------------------------------------------
testbed_vars=$(bash "$HERE/install-testbed.sh")
NODE24_BIN=$(sed -n 's/^NODE24_BIN=//p' <<<"$testbed_vars")
CODE_SERVER=$(sed -n 's/^CODE_SERVER=//p' <<<"$testbed_vars")
CHROMIUM=$(sed -n 's/^CHROMIUM=//p' <<<"$testbed_vars")
say "test bed ready: $CODE_SERVER"

# -- the interpreter the extension will use -------------------------------------------------------
"$PYTHON" -c 'import tflsp.server' || {
  say "tflsp (with its server) is not importable by $PYTHON; set TFLSP_E2E_PYTHON"
  exit 1
}

# -- build and package (the fast stage: type check, lint, unit tests, .vsix) -----------------------
bash "$EXT_DIR/scripts/check.sh" >&2
say "packaged tflsp.vsix ($(du -k "$EXT_DIR/tflsp.vsix" | cut -f1) KiB)"

# -- a fresh profile and workspace ----------------------------------------------------------------
rm -rf "$ARTIFACTS"/*.png "$ARTIFACTS/logs" "$ARTIFACTS/result.json"
mkdir -p "$ARTIFACTS"
DATA=$(mktemp -d "${TMPDIR:-/tmp}/tflsp-e2e.XXXXXX")
CS_PID=""
cleanup() {
  if [ -n "$CS_PID" ]; then
    kill "$CS_PID" 2>/dev/null || true
    wait "$CS_PID" 2>/dev/null || true
  fi
  mkdir -p "$ARTIFACTS/logs"
  cp "$DATA/code-server.log" "$ARTIFACTS/logs/" 2>/dev/null || true
  # The extension host's logs hold the tflsp output channel (the server's stderr and traces).
  [ -d "$DATA/user/logs" ] && cp -r "$DATA/user/logs/." "$ARTIFACTS/logs/" 2>/dev/null || true
  if [ -n "${KEEP:-}" ]; then say "kept $DATA"; else rm -rf "$DATA"; fi
}
trap cleanup EXIT
WS=$DATA/workspace
mkdir -p "$DATA/user/User" "$DATA/extensions" "$WS"
cp -r "$HERE/workspace/." "$WS/"
# The project pins its interpreter with an extra flag the user settings do not have; Restricted
# Mode must ignore it (tflsp.interpreter is a restricted setting) and trust must apply it.
mkdir -p "$WS/.vscode"
"$PYTHON" -c 'import json, sys; print(json.dumps({"tflsp.interpreter": [sys.argv[1], "-X", "tflsp_e2e_workspace"]}))' \
  "$PYTHON" >"$WS/.vscode/settings.json"
# An interpreter without tflsp, for the "not installed" check (a venv needs no network).
python3 -m venv --without-pip "$DATA/bare-venv"
# What the catalog says, so the checks follow the catalog instead of repeating its wording.
"$PYTHON" - "$DATA/expect.json" <<'PY'
import json, sys
from tflsp.catalog import load_catalog
p = load_catalog().get("TFL101")
json.dump({
    "code": p.code,
    "name": p.name,
    "title": p.title_in("en"),
    "fixTitle": p.fix_title("en"),
}, open(sys.argv[1], "w"))
PY
PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$DATA/config.yaml" <<YAML
bind-addr: 127.0.0.1:$PORT
auth: none
cert: false
YAML
# User settings (they apply in Restricted Mode too, unlike workspace settings of restricted keys).
"$PYTHON" - "$DATA/user/User/settings.json" "$PYTHON" <<'PY'
import json, sys
json.dump({
    "tflsp.interpreter": [sys.argv[2]],
    "security.workspace.trust.enabled": True,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "chat.disableAIFeatures": True,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "update.mode": "none",
    "editor.hover.delay": 200,
    "editor.codeLens": True,
    "editor.autoIndent": "none",
    "editor.autoClosingBrackets": "never",
    "window.zoomLevel": 0,
}, open(sys.argv[1], "w"), indent=2)
PY

export PATH="$NODE24_BIN:$PATH"
# code-server writes heartbeat files and a default config under XDG dirs: keep them in $DATA.
export XDG_DATA_HOME=$DATA/xdg-data XDG_CONFIG_HOME=$DATA/xdg-config
CS=("$CODE_SERVER" --config "$DATA/config.yaml" --user-data-dir "$DATA/user" --extensions-dir "$DATA/extensions")
"${CS[@]}" --install-extension "$EXT_DIR/tflsp.vsix" >"$DATA/install-extension.log" 2>&1 || {
  cat "$DATA/install-extension.log" >&2
  exit 1
}
say "extension installed"

"${CS[@]}" --disable-telemetry --disable-update-check --disable-getting-started-override "$WS" >"$DATA/code-server.log" 2>&1 &
CS_PID=$!

for _ in $(seq 1 120); do
  curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
  kill -0 "$CS_PID" 2>/dev/null || { say "code-server exited"; cat "$DATA/code-server.log" >&2; exit 1; }
  sleep 0.5
done
curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" || { say "code-server did not answer on $PORT"; exit 1; }
say "code-server listening on $PORT"

set +e
node "$HERE/drive.mjs" \
  --url "http://127.0.0.1:$PORT/?folder=$WS" \
  --out "$ARTIFACTS" \
  --chromium "$CHROMIUM" \
  --expect "$DATA/expect.json" \
  --workspace "$WS" \
  --bare-python "$DATA/bare-venv/bin/python" \
  --logs "$DATA/user/logs"
rc=$?
set -e
say "drive.mjs exited $rc; artefacts in $ARTIFACTS"
if [ "$rc" -eq 0 ] && [ -n "${UPDATE_IMAGES:-}" ]; then
  # README screenshots: artefact name -> image name.
  while read -r shot image; do
    cp "$ARTIFACTS/$shot.png" "$EXT_DIR/images/$image.png"
  done <<'LIST'
02-restricted-mode-lints restricted-mode
04-problems-panel problems-and-lenses
06-hover hover
08-quick-fix-menu quick-fix
12-notebook notebook
15-not-installed not-installed
LIST
  say "README images updated"
fi
exit $rc
