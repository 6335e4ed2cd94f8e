#!/usr/bin/env bash
# Makes sure R (Debian's r-base-core: Rscript) is there for the test that runs the
# indicator page's R snippet (test/e2e/pandas.test.ts); installed with apt when missing.
set -euo pipefail
command -v Rscript >/dev/null 2>&1 || bash "$(dirname "$0")/apt-install.sh" r-base-core
Rscript --version >/dev/null
