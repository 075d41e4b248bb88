#!/usr/bin/env bash
# Proves the linter works from the installed wheel, outside the repo: the
# bundled examples give findings (exit 1 by default, 0 with --fail-on never),
# SARIF comes out, and the rule pages are there.
set -euo pipefail
out=$(mktemp -d)
cp -r "$REPO/examples" "$out/examples"
cd "$out"
status=0
"$APISPEC" lint examples > lint.txt || status=$?
[ "$status" -eq 1 ] || { echo "expected exit 1 on the examples, got $status"; exit 1; }
grep -q ': API001 ' lint.txt && grep -q ': API006 ' lint.txt
"$APISPEC" lint --fail-on never --format sarif --output lint.sarif examples
python3 -c "import json,sys; d=json.load(open('lint.sarif')); n=len(d['runs'][0]['results']); print(n, 'SARIF results from the installed wheel'); sys.exit(n == 0)"
"$APISPEC" rule API002 | grep -q '^### API002 deprecated-endpoint'
echo 'requests.get("https://m:1616/api/v2/sensors/1/overview")' | "$APISPEC" lint --stdin-filename x.py --fail-on never - | grep -q 'API002'
