#!/usr/bin/env bash
# Runs a command with TMPDIR a folder of its own, removed when the command ends
# however it ends, so that it leaves nothing behind: `npm run test:unit` (the
# fixtures' builds), as `npm test` does for the whole run (scripts/test.sh).
set -u
run_tmp=$(mktemp -d -t open-series-test.XXXXXX)
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"
"$@"
