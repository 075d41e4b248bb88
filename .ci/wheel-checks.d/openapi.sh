#!/usr/bin/env bash
# The installed wheel generates and checks OpenAPI documents and the MCP catalog
# without the repository (and without the optional `mcp` extra).
set -euo pipefail
work=$(mktemp -d)
cd "$work"
"$APISPEC" openapi --release 24.3.100 -o first.json
"$APISPEC" openapi -o newest.yaml
"$APISPEC" openapi --check first.json
"$APISPEC" openapi --check newest.yaml
"$APISPEC" mcp-tools --format json > tools.json
python3 - <<'PY'
import json
tools = json.load(open("tools.json"))
first = json.load(open("first.json"))
operations = sum(len(item) for item in first["paths"].values())
print(f"{len(tools)} MCP tools (newest release), {operations} operations in 24.3.100")
assert len(tools) > operations > 0
PY
set +e
"$APISPEC" openapi --check does-not-exist.yaml 2>/dev/null
code=$?
set -e
[ "$code" -eq 2 ] || { echo "openapi --check on a missing file exited $code, expected 2"; exit 1; }
rm -rf "$work"
echo "openapi and mcp-tools ok"
