#!/usr/bin/env bash
# Installs Debian packages for the tests: as root directly, else through sudo.
# Usage: scripts/apt-install.sh PACKAGE [FALLBACK_PACKAGE]
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "$1 is missing: apt-get install -y $1 (as root)" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "$1" >/dev/null || { [ -n "${2:-}" ] && $SUDO apt-get install -y -qq "$2" >/dev/null; }
