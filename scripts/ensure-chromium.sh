#!/usr/bin/env bash
# Makes sure a Chromium for the browser tests is there: $CHROMIUM_PATH when set
# (CI uses the runner's Chrome), else Debian's: `chromium-headless-shell`, which the
# tests drive (test/chromium.ts), and `chromium`, which scripts/screenshots.ts and
# scripts/measure-phone.ts drive, each installed when missing (playwright-core
# cannot download a browser here).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] && exit 0
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable" >&2
  exit 1
fi
[ -x /usr/bin/chromium ] || bash "$(dirname "$0")/apt-install.sh" chromium
[ -x /usr/lib/chromium/chromium-headless-shell ] || bash "$(dirname "$0")/apt-install.sh" chromium-headless-shell
[ -x /usr/bin/chromium ] && [ -x /usr/lib/chromium/chromium-headless-shell ]
