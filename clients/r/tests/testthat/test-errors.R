# The API's errors as conditions of class openseriesuy_<code>, and the usage
# limit: a 429 is waited on (OSU_TIGHT_URL: 5 requests per 3 s per address).

# The openseriesuy_error a call signals (the test fails when it signals none).
condition_of <- function(call) {
  signalled <- tryCatch({
    call
    NULL
  }, openseriesuy_error = function(e) e)
  if (is.null(signalled)) stop("no openseriesuy_error signalled")
  signalled
}

test_that("a bad parameter is a bad_request naming it", {
  e <- condition_of(osu_values("bpc", start = "2024-13-01", base_url = main_url()))
  expect_s3_class(e, "openseriesuy_bad_request")
  expect_identical(c(e$status, e$code), c(400L, "bad_request"))
  expect_match(e$detail, "^from: ")
  e <- condition_of(osu_values("bpc", frequncy = "year", base_url = main_url()))
  expect_match(e$detail, "^frequncy: unknown parameter")
  e <- condition_of(osu_values("health-insurance-prices", series = "nope", base_url = main_url()))
  expect_match(e$detail, "^series: \"nope\" matches no sub-series")
})

test_that("an unknown indicator is not_found, from the function and from a static document", {
  e <- condition_of(osu_values("gdp", base_url = main_url()))
  expect_s3_class(e, "openseriesuy_not_found")
  expect_identical(c(e$status, e$code), c(404L, "not_found"))
  expect_match(e$detail, "^indicator: there is no indicator \"gdp\"")
  e <- condition_of(osu_metadata("gdp", base_url = main_url()))
  expect_s3_class(e, "openseriesuy_not_found")
})

# Runs `attempt` until it returns TRUE, at most 30 times (30 calls with no 429
# would need 6 windows of 3 s), and returns how many times it ran.
until <- function(attempt) {
  for (i in 1:30) if (attempt()) return(i)
  i
}

# The points of bpc from the tight server, compared with the CSV file.
tight_bpc <- function() {
  expect_points(osu_values("bpc", base_url = server_env("OSU_TIGHT_URL")), csv_points(data_dir(), "bpc"))
}

test_that("a 429 is waited on for its Retry-After, and the call succeeds", {
  local_options(openseriesuy.headers = c("CF-Connecting-IP" = "198.51.100.21"), openseriesuy.max_wait = 10)
  waits <- osu_stats()[["waits"]]
  calls <- until(function() {
    tight_bpc()
    osu_stats()[["waits"]] > waits
  })
  expect_gt(osu_stats()[["waits"]], waits)
  expect_gte(calls, 6)
})

test_that("a 429 whose Retry-After is over the bound is signalled as too_many_requests", {
  local_options(openseriesuy.headers = c("CF-Connecting-IP" = "198.51.100.22"), openseriesuy.max_wait = 0)
  signalled <- NULL
  calls <- until(function() {
    signalled <<- tryCatch({
      tight_bpc()
      NULL
    }, openseriesuy_too_many_requests = function(e) e)
    !is.null(signalled)
  })
  expect_s3_class(signalled, "openseriesuy_too_many_requests")
  expect_identical(c(signalled$status, signalled$code), c(429L, "too_many_requests"))
  expect_match(signalled$detail, "^rate: over the limit of 5 requests per 3 s")
  expect_gte(signalled$retry_after, 1)
  expect_gte(calls, 6)
})
