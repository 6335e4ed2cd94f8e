#!/usr/bin/env bash
# Makes sure LibreOffice Calc runs headless (`soffice`): Debian's libreoffice-calc-nogui,
# installed with apt when missing (as root, or through sudo: scripts/apt-install.sh),
# like scripts/ensure-chromium.sh does. The spreadsheet CSV test opens our CSV with it
# in the es_UY locale (test/integration/spreadsheet-csv.test.ts).
set -euo pipefail
command -v soffice >/dev/null 2>&1 || bash "$(dirname "$0")/apt-install.sh" libreoffice-calc-nogui
soffice --version >/dev/null
