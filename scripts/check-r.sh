#!/usr/bin/env bash
# `npm run check:r`: R CMD build, then R CMD check --no-manual of the R client
# (clients/r) in a temporary folder, offline; fails unless the check's status is
# OK (no ERROR, WARNING or NOTE). About 14 s on the idle 2-core machine (37-49 s
# beside other jobs); test/e2e/r-client.test.ts runs it in `npm test`, after the
# package's tests against the served API.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/ensure-r.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
R CMD build "$root/clients/r" >/dev/null
# Offline: no time server to compare the files' dates with (that check would be a
# NOTE), and no API: the package's tests skip without the servers' addresses.
env -u OSU_BASE_URL -u OSU_DATA -u OSU_TIGHT_URL -u OSU_HISTORY_URL -u OSU_HISTORY_VERSIONS \
  _R_CHECK_FUTURE_FILE_TIMESTAMPS_=FALSE R CMD check --no-manual openseriesuy_*.tar.gz | tee check.out
grep -q '^Status: OK$' check.out || { echo "R CMD check: not OK (above)" >&2; exit 1; }
