#!/usr/bin/env bash
# The static checks of `npm test`, side by side (each is one thread; the machine has
# two cores): the type-check, tests included, and the lint with zero warnings. Both
# run to the end, so one run shows every fault; the exit code is 1 if either failed.
set -u
cd "$(dirname "$0")/.."
npx tsc --noEmit &
types=$!
npx eslint --max-warnings 0 .
lint=$?
wait "$types"
types=$?
exit $((lint != 0 || types != 0))
