#!/usr/bin/env bash
# Proves the wheel works where ahocorasick-rs cannot be installed (a platform without
# its wheel): in a second venv, the wheel installed without that dependency lints the
# examples through the Python marker pass and reports exactly what the full install does.
set -euo pipefail
out=$(mktemp -d)
cp -r "$REPO/examples" "$out/examples"
cd "$out"
bin=$(dirname "$APISPEC")
python3 -m venv bare
# the same dependencies as the installed wheel, less the compiled marker pass
"$bin/python" -m pip freeze --exclude-editable | grep -iv '^\(ahocorasick\|apispec\)' > requirements.txt
bare/bin/pip install -q --no-deps -r requirements.txt
bare/bin/pip install -q --no-deps "$REPO"/build/ci-dist/*.whl
engine=$(bare/bin/python -c "from apispec.lint import prefilter; print(prefilter.ENGINE)")
[ "$engine" = python ] || { echo "expected the Python marker pass, got $engine"; exit 1; }
APISPEC_NO_CACHE=1 "$APISPEC" lint --format json --fail-on never examples > full.json
APISPEC_NO_CACHE=1 bare/bin/apispec lint --format json --fail-on never examples > bare.json
cmp full.json bare.json
echo "the wheel without ahocorasick-rs: same report, Python marker pass"
