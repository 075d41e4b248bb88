#!/usr/bin/env bash
# Other renderers read the same checked samples (docs/reference-docs.md): the Redocly CLI
# renders the generated OpenAPI document into a Redoc page and every operation's
# x-codeSamples must be in it; Redocly's `recommended` and Spectral's `spectral:oas`
# rulesets must report nothing at all (no error, no warning) for the first and newest
# release. Both tools come from the npm registry; without npm this check is skipped.
set -euo pipefail
command -v npm >/dev/null 2>&1 || { echo "npm not found: Redocly/Spectral check skipped (install nodejs and npm to run it)"; exit 0; }
tools="$REPO/build/oas-tools"
if [ ! -x "$tools/node_modules/.bin/redocly" ] || [ ! -x "$tools/node_modules/.bin/spectral" ]; then
  mkdir -p "$tools"
  (cd "$tools" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund \
    @redocly/cli@2.77.0 @stoplight/spectral-cli@6.16.3 >/dev/null 2>&1)
fi
work=$(mktemp -d)
cd "$work"
for release in 24.3.100 ""; do
  name=${release:-newest}
  "$APISPEC" openapi ${release:+--release "$release"} -o "$name.yaml" 2>/dev/null
  "$tools/node_modules/.bin/redocly" lint --extends recommended --format json "$name.yaml" > "redocly-$name.json" 2>/dev/null || true
  "$tools/node_modules/.bin/spectral" lint --ruleset "$REPO/tests/fixtures/openapi/spectral.yaml" -f json -o "spectral-$name.json" "$name.yaml" >/dev/null 2>&1 || true
  python3 - "$name" <<'PY'
import json, sys
name = sys.argv[1]
redocly = json.load(open(f"redocly-{name}.json"))["totals"]
spectral = json.load(open(f"spectral-{name}.json"))
problems = [f"{p['code']}: {p['message']}" for p in spectral]
print(f"{name}: Redocly recommended {redocly['errors']} errors, {redocly['warnings']} warnings; "
      f"Spectral spectral:oas {len(problems)} problems")
assert redocly["errors"] == redocly["warnings"] == 0, redocly
assert not problems, problems
PY
done
"$tools/node_modules/.bin/redocly" build-docs newest.yaml -o redoc.html >/dev/null 2>&1
python3 - <<'PY'
import json
import yaml
doc = yaml.safe_load(open("newest.yaml"))
page = open("redoc.html", encoding="utf-8").read()
samples = [s for item in doc["paths"].values() for op in item.values() for s in op["x-codeSamples"]]
missing = [s["label"] for s in samples if json.dumps(s["source"])[1:-1] not in page]
operations = sum(len(item) for item in doc["paths"].values())
print(f"Redoc page ({len(page.encode()) // 1024} KB): {len(samples) - len(missing)} of {len(samples)} "
      f"code samples of {operations} operations found")
assert samples and not missing, missing[:5]
PY
rm -rf "$work"
