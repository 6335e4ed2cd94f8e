#!/usr/bin/env bash
# Makes sure R (Debian's r-base-core: Rscript) is there, for the test that runs the
# indicator page's R snippet (test/e2e/pandas.test.ts), with the packages the R client
# (clients/r) needs and its tests use (test/e2e/r-client.test.ts): jsonlite, curl and
# testthat. The missing ones are installed with apt (as root, or through sudo:
# scripts/apt-install.sh), like scripts/ensure-python.sh does; nothing is installed
# when all are there (one Rscript start, about 0.2 s).
set -euo pipefail
command -v Rscript >/dev/null 2>&1 || bash "$(dirname "$0")/apt-install.sh" r-base-core
# R package → Debian package; find.package looks a package up without loading it (fast).
missing=$(Rscript --vanilla -e '
packages <- c(jsonlite = "r-cran-jsonlite", curl = "r-cran-curl", testthat = "r-cran-testthat")
cat(packages[!nzchar(vapply(names(packages), function(p) paste(find.package(p, quiet = TRUE), collapse = ""), ""))], sep = "\n")
')
for package in $missing; do
  bash "$(dirname "$0")/apt-install.sh" "$package"
done
# What was installed must load now.
[ -z "$missing" ] || Rscript --vanilla -e 'for (p in c("jsonlite", "curl", "testthat")) loadNamespace(p)' >/dev/null
