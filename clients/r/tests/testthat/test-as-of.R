# as_of over the synthetic data history (OSU_HISTORY_URL): each day's answer is
# the data folder of that day's last commit (OSU_HISTORY_VERSIONS, a JSON list of
# {day, data}), and asking again gives the same data frame.

test_that("as_of pins every call to the data published at the end of that day", {
  versions <- history_versions()
  expect_gte(length(versions), 5)
  for (version in versions) {
    for (indicator in indicators_in(version$data)) {
      points <- osu_values(indicator, as_of = version$day, base_url = history_url())
      expect_points(points, csv_points(version$data, indicator))
      expect_identical(attr(points, "meta")$as_of, version$day)
    }
  }
})

test_that("options(openseriesuy.as_of) pins as the argument does, and a re-run through the cache is identical", {
  versions <- history_versions()
  day <- versions[[2]]$day
  local_options(openseriesuy.as_of = day, openseriesuy.base_url = history_url(),
                openseriesuy.cache_dir = tempfile("osu-cache-"))
  first <- osu_values("wages")
  expect_points(first, csv_points(versions[[2]]$data, "wages"))
  before <- osu_stats()
  again <- osu_values("wages")
  expect_identical(again, first)
  compared()
  # Asked again, answered 304 from the cache: nothing new stored.
  expect_identical(osu_stats()[["revalidated"]] - before[["revalidated"]], 1L)
  expect_identical(osu_stats()[["stored"]] - before[["stored"]], 0L)
})
