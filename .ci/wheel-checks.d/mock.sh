#!/usr/bin/env bash
# The installed `apispec mock` starts from the wheel alone (registry data shipped),
# answers the unauthenticated GET /settings/public and a logged-in list, and stops.
set -euo pipefail
log=$(mktemp)
"$APISPEC" mock --port 0 --objects 200 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^apispec mock: API v2 release .* at \(http:[^ ]*\)$/\1/p' "$log")
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "mock did not print its URL"; cat "$log"; exit 1; }
curl -fsS "$url/settings/public"
echo
token=$(curl -fsS -X POST "$url/session" -H 'Content-Type: application/json' \
  -d '{"username": "prtgadmin", "password": "prtgadmin"}' | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
count=$(curl -fsS -D - -o /dev/null -H "Authorization: Bearer $token" "$url/experimental/devices?limit=1" \
  | tr -d '\r' | sed -n 's/^x-total-count: //Ip')
echo "mock serves $count devices"
[ "$count" -gt 0 ]
kill -INT "$pid"
wait "$pid"
echo "mock stopped cleanly"
