# The session's counters (osu_stats): what the client did, for a person who
# wonders why a call took long, and for the tests, which read that a 429 was
# waited on or a 304 answered from the cache.
counters <- new.env(parent = emptyenv())
counters$requests <- 0L
counters$waits <- 0L
counters$revalidated <- 0L
counters$stored <- 0L

# Adds one to the counter `name`.
count <- function(name) {
  counters[[name]] <- counters[[name]] + 1L
  invisible(NULL)
}

osu_stats <- function() {
  c(requests = counters$requests, waits = counters$waits, revalidated = counters$revalidated, stored = counters$stored)
}
