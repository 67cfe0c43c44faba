#!/usr/bin/env bash
# Installs what `make up` and `make test` need and is missing: npm packages and nats-server.
# Safe to run again: it does nothing when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "Trove needs Node.js 20 or newer (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

# npm packages, at the versions of the lock file, when node_modules is missing or older than it.
# `npm install` rather than `npm ci`: the registry this project is built against serves only the
# Linux builds of packages with per-platform optional dependencies (@swc/core, …), so the lock file
# cannot list the others and `npm ci` would refuse it as "out of sync".
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "==> npm install (from package-lock.json)"
  npm install --no-audit --no-fund
fi

# apt-get update once per run of this script, only when something must be installed.
apt_updated=0
apt_install() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing: $*. Install it with: sudo apt-get install $* (Debian/Ubuntu), then run this again." >&2
    exit 1
  fi
  if [ "$apt_updated" -eq 0 ]; then
    echo "==> apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    apt_updated=1
  fi
  echo "==> apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if [ -z "${TROVE_NATS_SERVER_BIN:-}" ] && ! command -v nats-server >/dev/null 2>&1; then
  apt_install nats-server
fi

for tool in "$@"; do
  case "$tool" in
    chromium) command -v chromium >/dev/null 2>&1 || apt_install chromium ;;
    ffmpeg) command -v ffmpeg >/dev/null 2>&1 || apt_install ffmpeg ;;
    *) echo "install.sh: unknown tool $tool" >&2; exit 2 ;;
  esac
done
