#!/usr/bin/env bash
# Records the commit each service was built from (GET /version reports it as gitSha).
set -euo pipefail
cd "$(dirname "$0")/.."
sha=${TROVE_GIT_SHA:-$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}
for dir in services/*/; do
  printf '{"gitSha":"%s"}\n' "$sha" > "${dir}build-info.json"
done
