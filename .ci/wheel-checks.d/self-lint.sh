#!/usr/bin/env bash
# The repository lints itself with its own [tool.apispec] configuration (pyproject.toml):
# the installed linter, run in the repository root, must find nothing at the fail level.
set -euo pipefail
cd "$REPO"
status=0
"$APISPEC" lint --format concise > "$(mktemp)" || status=$?
if [ "$status" -ne 0 ]; then
  "$APISPEC" lint --format concise --quiet || true
  echo "apispec lint of the repository itself exited $status (expected 0)"
  exit 1
fi
echo "the repository lints clean with its own configuration"
