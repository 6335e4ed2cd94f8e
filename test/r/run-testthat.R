# Runs the R client's testthat tests (clients/r/tests/testthat) against the
# package installed in a library, for test/e2e/r-client.test.ts, and writes what
# happened as JSON: one row per test (its file, name, expectations, failures,
# errors, skips) and the number of calls the tests compared with the CSV files.
# The check reporter prints the counts and every problem; the JSON goes to a file.
#
# Usage: Rscript test/r/run-testthat.R <library> <tests folder> <output.json>
args <- commandArgs(trailingOnly = TRUE)
.libPaths(c(args[[1]], .libPaths()))
library(testthat)
results <- as.data.frame(test_dir(args[[2]], package = "openseriesuy", load_package = "installed",
                                  reporter = CheckReporter$new(), stop_on_failure = FALSE))
rows <- data.frame(file = results$file, test = results$test, expectations = results$nb, failed = results$failed,
                   error = results$error, skipped = results$skipped, seconds = results$real)
jsonlite::write_json(list(tests = rows, compared = getOption("openseriesuy.tests.compared", 0)), args[[3]],
                     auto_unbox = TRUE, digits = NA)
