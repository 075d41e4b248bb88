#!/usr/bin/env bash
# The installed `apispec proxy` (httpx comes with the wheel's dependencies) runs a command
# against the installed mock, logs what passed, and `apispec traffic` reads the log back.
set -euo pipefail
work=$(mktemp -d)
"$APISPEC" mock --port 0 --objects 50 >"$work/mock.out" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
url=""
for _ in $(seq 1 100); do
  url=$(sed -n 's/^apispec mock: API v2 release .* at \(http:[^ ]*\)\/api\/v2$/\1/p' "$work/mock.out")
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/mock.out"; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "mock did not print its URL"; cat "$work/mock.out"; exit 1; }
"$APISPEC" proxy --upstream "$url" --log "$work/proxy.log" \
  --run 'curl -fsS -o /dev/null "$APISPEC_PROXY_URL/api/v2/settings/public"' >"$work/summary.txt"
grep -q '^apispec proxy: 1 request read from' "$work/summary.txt"
"$APISPEC" traffic "$work/proxy.log" --format csv | grep -q '^GET,/settings/public,stable,'
echo "proxy and traffic work from the wheel"
