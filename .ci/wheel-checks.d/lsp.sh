#!/usr/bin/env bash
# Proves `apispec lsp` from the installed wheel: without the `lsp` extra (this
# venv has only the base dependencies) it says how to install it and exits 2;
# `filter fix` repairs a filter from the wheel.
set -euo pipefail
out=$(mktemp -d)
status=0
"$APISPEC" lsp < /dev/null 2> "$out/err.txt" || status=$?
[ "$status" -eq 2 ] || { echo "expected exit 2 from apispec lsp without its extra, got $status"; exit 1; }
grep -q "^apispec: error: apispec lsp needs the extra 'lsp': pip install " "$out/err.txt"
[ "$(wc -l < "$out/err.txt")" -eq 1 ] || { echo "expected one line on stderr"; cat "$out/err.txt"; exit 1; }
[ "$("$APISPEC" filter fix 'status == "up" AND type = sensor')" = 'status = up and type = sensor' ]
echo "apispec lsp asks for its extra, filter fix works, from the installed wheel"
rm -rf "$out"
