#!/usr/bin/env bash
# Makes sure Debian's wget is installed for the offline-mirror test (a `wget --mirror` of the site).
set -euo pipefail
command -v wget >/dev/null 2>&1 || bash "$(dirname "$0")/apt-install.sh" wget
command -v wget >/dev/null 2>&1
