#!/usr/bin/env bash
# Makes sure Debian's nginx is installed for the offline-mirror test.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "nginx is missing: apt-get install -y nginx-light (as root)" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq nginx-light >/dev/null || $SUDO apt-get install -y -qq nginx >/dev/null
[ -x /usr/sbin/nginx ]
