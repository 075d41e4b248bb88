#!/usr/bin/env bash
# Proves the docs templates ship in the wheel: render every release in both
# formats and a changelog from the installed command, outside the repo.
set -euo pipefail
out=$(mktemp -d)
"$APISPEC" docs --all-releases --format html -o "$out/html"
"$APISPEC" docs --all-releases --format md -o "$out/md"
"$APISPEC" docs --release 24.3.100 --format html -o "$out/one"
test -s "$out/html/index.html" && test -s "$out/md/README.md" && test -s "$out/one/index.html"
pages=$(find "$out/html" -name index.html | wc -l)
echo "$pages HTML pages from the installed wheel"
[ "$pages" -ge 2 ]
grep -q 'id="search"' "$out/one/index.html"
# The committed reference must equal what the installed wheel generates.
diff -r "$REPO/docs/reference" "$out/md"
"$APISPEC" changelog 24.3.100 | grep -q '/experimental/devices/{id}/settings'
"$APISPEC" changelog 24.3.100 25.x.122 --format json > "$out/changelog.json"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out/changelog.json"
# The example site the README links: every release, the landing page and the migration
# guides, built by the installed wheel into build/docs-site; its weight is printed.
site="$REPO/build/docs-site"
rm -rf "$site"
"$APISPEC" docs --all-releases --format html -o "$site"
echo "example site: $(du -sh "$site" | cut -f1) in $(find "$site" -name index.html | wc -l) pages at build/docs-site/index.html"
rm -rf "$out"
