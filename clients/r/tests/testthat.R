# The package's tests. Against a served API only: each file skips without the
# addresses test/e2e/r-client.test.ts passes (OSU_BASE_URL, OSU_DATA, ...), so
# R CMD check runs them offline as skips.
library(testthat)
library(openseriesuy)

test_check("openseriesuy")
