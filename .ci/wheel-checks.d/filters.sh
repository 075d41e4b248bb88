#!/usr/bin/env bash
# Proves the filter checker works from the installed wheel, outside the repo:
# the grammar ships (a fresh cache directory forces reading it), valid filters
# exit 0, a broken one exits 1 with a caret line, JSON parses, fmt formats.
set -euo pipefail
out=$(mktemp -d)
export XDG_CACHE_HOME="$out/cache"
"$APISPEC" filter check 'status = up' 'type = sensor and status = down or favorite = true' > "$out/ok.txt"
grep -q '^2 filters checked: 2 valid, 0 invalid' "$out/ok.txt"
test -n "$(find "$out/cache" -name 'filter-tables-*.json')"  # tables built from the shipped grammar
status=0
"$APISPEC" filter check 'status == up' > "$out/bad.txt" || status=$?
[ "$status" -eq 1 ] || { echo "expected exit 1 for 'status == up', got $status"; exit 1; }
grep -q 'error FLT001' "$out/bad.txt"
grep -qx '            ^' "$out/bad.txt"
APISPEC_NO_CACHE=1 "$APISPEC" filter check --format json 'status = "up"' > "$out/bad.json" || true
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[0]['diagnostics'][0]['code'] == 'FLT004', d" "$out/bad.json"
[ "$(printf '(status=up) and ((type=sensor))\n' | "$APISPEC" filter fmt --stdin)" = 'status = up and type = sensor' ]
echo "filter check, JSON and fmt work from the installed wheel"
rm -rf "$out"
