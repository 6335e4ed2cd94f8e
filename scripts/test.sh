#!/usr/bin/env bash
# `npm test`: the static checks (scripts/static-checks.ts: the type-check and the
# lint over one TypeScript program) and vitest's layers, side by side. The checks
# take one core for about 45 s while vitest's setup builds the real data and starts
# its servers. Their output is printed after vitest's, and the exit code is 1 if
# either failed: ready to merge means both.
#
# Every temporary file of the run (builds, git repositories, wrangler's state, nginx's
# logs, Chromium's profiles) goes under one folder, TMPDIR for every process the run
# starts, in memory when there is room, removed when it ends however it ends: a run
# leaves nothing behind (scripts/in-temp.sh).
set -u
cd "$(dirname "$0")/.."
if [ -z "${OPEN_SERIES_IN_TEMP:-}" ]; then
  OPEN_SERIES_IN_TEMP=1 exec bash scripts/in-temp.sh bash "$0" "$@"
fi
checks=$(mktemp)
npx tsx scripts/static-checks.ts > "$checks" 2>&1 &
pid=$!
npx vitest run
tests=$?
wait "$pid"
static=$?
echo
echo "type-check and lint (scripts/static-checks.ts): $([ "$static" -eq 0 ] && echo ok || echo FAILED)"
cat "$checks"
rm -f "$checks"
exit $((tests != 0 || static != 0))
