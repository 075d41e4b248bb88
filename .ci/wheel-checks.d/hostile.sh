#!/usr/bin/env bash
# Hostile-input smoke test from the installed wheel (issue 11): bad .gitignore
# patterns give warnings, not a traceback; `openapi --check` never prints a
# file a `$ref` names outside the document; a FIFO given as configuration is
# refused instead of blocking; a crash would be exit 3, so 0/1/2 only here.
set -euo pipefail
work=$(mktemp -d)
cd "$work"
printf '!\n[z-a]\n\\\n' > .gitignore
echo 'x = "https://h:1616/api/v2/devices"' > a.py
status=0
"$APISPEC" lint --fail-on never . > lint.txt 2> lint.err || status=$?
[ "$status" -le 1 ] || { echo "lint with a broken .gitignore: exit $status"; cat lint.err; exit 1; }
if grep -q Traceback lint.err; then cat lint.err; exit 1; fi
grep -q "apispec: warning: .gitignore:2: invalid pattern '\[z-a\]' skipped" lint.err
grep -q 'a.py:1:27: API002' lint.txt
echo '{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/a":{"$ref":"file:///etc/passwd"}}}' > api.json
status=0
"$APISPEC" openapi --check api.json > check.txt 2>&1 || status=$?
[ "$status" -eq 1 ] || { echo "openapi --check with a file:// ref: exit $status"; cat check.txt; exit 1; }
if grep -q 'root:' check.txt; then echo 'openapi --check printed /etc/passwd'; exit 1; fi
grep -q "not followed: URLs are never read" check.txt
mkfifo pipe.toml
status=0
timeout 30 "$APISPEC" lint --config pipe.toml . > /dev/null 2> fifo.err || status=$?
[ "$status" -eq 2 ] || { echo "lint --config FIFO: exit $status"; cat fifo.err; exit 1; }
grep -q 'not a regular file (a named pipe)' fifo.err
echo "hostile inputs: clean errors from the installed wheel"
