# The other endpoints (metadata, search, status, changes, adjust), each answer
# compared with the CSV files.

# The CSV's newest point of each sub-series: date and value text by sub-series id.
newest_points <- function(points) points[!duplicated(points$series), ]

test_that("each indicator's metadata counts its CSV points and lists its sub-series", {
  for (indicator in indicators_in(data_dir())) {
    metadata <- osu_metadata(indicator, base_url = main_url())
    expected <- csv_points(data_dir(), indicator)
    compared()
    expect_identical(metadata$id, indicator)
    expect_identical(metadata$points, nrow(expected))
    expect_identical(metadata$last_updated, expected$date[1])
    expect_true(all(unique(expected$series) %in% metadata$series$id))
  }
})

test_that("search finds a sub-series by the words people type, with its newest point", {
  found <- osu_search("casmu gineco", base_url = main_url())
  expect_identical(found$series[1], "casmu.consult-gynaecology.fonasa")
  newest <- newest_points(csv_points(data_dir(), "health-insurance-prices"))
  compared()
  expect_identical(found$newest_date, as.Date(newest$date[match(found$series, newest$series)]))
  expect_identical(found$newest_value, decimal_values(newest$value[match(found$series, newest$series)]))

  filtered <- osu_search("consulta", facet = c(provider = "casmu", regime = "sin fonasa"), limit = 100, base_url = main_url())
  expect_gt(nrow(filtered), 5)
  expect_true(all(filtered$facet_provider == "CASMU" & filtered$facet_regime == "NO FONASA"))
  compared()
  expect_identical(filtered$newest_value, decimal_values(newest$value[match(filtered$series, newest$series)]))
})

test_that("the status names every indicator with its newest point", {
  status <- osu_status(base_url = main_url())
  indicators <- indicators_in(data_dir())
  expect_identical(status$id, indicators)
  compared()
  newest <- vapply(indicators, function(indicator) csv_points(data_dir(), indicator)$date[1], "")
  expect_identical(status$newest, as.Date(unname(newest)))
  expect_type(status$overdue, "logical")
})

# The changes between two data folders' CSV points of `indicator`, computed here:
# a point only in the newer is added, only in the older removed, with another
# value text revised (an indicator absent from the older: every point added);
# ordered by date descending, then sub-series.
changes_between <- function(old_dir, new_dir, indicator) {
  new <- csv_points(new_dir, indicator)[c("date", "series", "value")]
  old <- if (dir.exists(file.path(old_dir, indicator))) csv_points(old_dir, indicator)[c("date", "series", "value")] else new[0, ]
  both <- merge(old, new, by = c("date", "series"), all = TRUE, suffixes = c("_old", "_new"))
  both <- both[is.na(both$value_old) | is.na(both$value_new) | both$value_old != both$value_new, ]
  both$change <- ifelse(is.na(both$value_old), "added", ifelse(is.na(both$value_new), "removed", "revised"))
  both[order(both$date, both$series, decreasing = c(TRUE, FALSE), method = "radix"), ]
}

# The numbers of decimal texts, NA for NA.
decimal_or_na <- function(text) {
  values <- rep(NA_real_, length(text))
  values[!is.na(text)] <- decimal_values(text[!is.na(text)])
  values
}

# Expects an osu_changes answer to list exactly `expected` (changes_between rows).
expect_changes <- function(changes, expected) {
  compared()
  changes <- changes[order(changes$date, changes$series, decreasing = c(TRUE, FALSE), method = "radix"), ]
  expect_identical(changes$date, as.Date(expected$date))
  expect_identical(changes$series, expected$series)
  expect_identical(changes$change, expected$change)
  expect_identical(changes$value, decimal_or_na(expected$value_new))
  expect_identical(changes$previous, decimal_or_na(expected$value_old))
}

test_that("the changes since a day before the first version are every point, added", {
  for (indicator in c("bpc", "national-minimum-wage", "domestic-worker-wages")) {
    changes <- osu_changes(indicator, since = "2000-01-01", page_size = 10, base_url = main_url())
    expect_changes(changes, changes_between(tempfile(), data_dir(), indicator))
    expect_false(is.null(attr(changes, "meta")$since_before_first))
  }
})

test_that("the changes since each day of the history are the difference between its data and the last", {
  versions <- history_versions()
  last <- versions[[length(versions)]]
  for (version in versions[-length(versions)]) {
    for (indicator in indicators_in(last$data)) {
      changes <- osu_changes(indicator, since = version$day, base_url = history_url())
      expect_changes(changes, changes_between(version$data, last$data, indicator))
    }
  }
})

# The value text of `indicator`'s sub-series `series` on `date` in the CSV files.
csv_value <- function(indicator, series, date) {
  points <- csv_points(data_dir(), indicator)
  decimal_values(points$value[points$series == series & points$date == date])
}

test_that("an amount adjusted by the CPI is the ratio of the month values in the CSV", {
  adjusted <- osu_adjust(1000, "2019-01-15", "2026-07-01", "consumer-price-index:general", base_url = main_url())
  compared()
  expect_identical(c(adjusted$from$point, adjusted$to$point), c("2019-01-01", "2026-07-01"))
  from <- csv_value("consumer-price-index", "general", "2019-01-01")
  to <- csv_value("consumer-price-index", "general", "2026-07-01")
  expect_identical(c(adjusted$from$value, adjusted$to$value), c(from, to))
  # factor and adjusted are rounded to 8 significant digits (docs/api.md).
  expect_equal(adjusted$factor, to / from, tolerance = 1e-7)
  expect_equal(adjusted$adjusted, 1000 * to / from, tolerance = 1e-7)
  expect_null(adjusted$in_units)
})

test_that("a rent adjusted by the UI is the ratio of the day values, and counted in UI", {
  adjusted <- osu_adjust(30000, as.Date("2024-03-01"), "2026-07-01", "unidad-indexada:ui", base_url = main_url())
  compared()
  from <- csv_value("unidad-indexada", "ui", "2024-03-01")
  to <- csv_value("unidad-indexada", "ui", "2026-07-01")
  expect_identical(c(adjusted$from$value, adjusted$to$value), c(from, to))
  expect_equal(adjusted$adjusted, 30000 * to / from, tolerance = 1e-7)
  expect_equal(adjusted$in_units, 30000 / from, tolerance = 1e-7)
})
