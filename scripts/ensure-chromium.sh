#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing (the tests run
# as root on CI and developer machines here; playwright-core cannot download a browser).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing: install Debian's package (apt-get install -y chromium) as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
command -v chromium >/dev/null
