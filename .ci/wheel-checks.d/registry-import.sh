#!/usr/bin/env bash
# The installed `apispec registry import` reads the installed mock's own description
# back into an overlay that adds nothing (the round trip of docs/registry.md), the
# overlay checks clean, and the multi-file fixture imports and lints with it.
set -euo pipefail
work=$(mktemp -d)
log="$work/mock.log"
"$APISPEC" mock --port 0 --objects 6 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^apispec mock: API v2 release .* at \(http:[^ ]*\)$/\1/p' "$log")
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "mock did not print its URL"; cat "$log"; exit 1; }
"$APISPEC" registry import "$url/oas/" -o "$work/mock-overlay"
"$APISPEC" registry check --overlay "$work/mock-overlay"
"$APISPEC" registry diff "$work/mock-overlay" --exit-code
"$APISPEC" registry diff "$url/oas/" --exit-code
"$APISPEC" registry import "$REPO/tests/fixtures/registry_import/server" -o "$work/server"
printf 'import requests\nrequests.get("https://h/api/v2/health")\n' > "$work/client.py"
"$APISPEC" lint --overlay "$work/server" "$work/client.py"
