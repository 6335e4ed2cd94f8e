# osu_values against the real data served (OSU_BASE_URL), compared with the CSV
# files it was built from (OSU_DATA).

test_that("every indicator's values are its CSV points, in the API's order", {
  indicators <- indicators_in(data_dir())
  expect_length(indicators, 6)
  for (indicator in indicators) {
    points <- osu_values(indicator, base_url = main_url())
    expect_points(points, csv_points(data_dir(), indicator))
    expect_identical(attr(points, "meta")$indicator, indicator)
  }
})

test_that("with provenance, each point carries its CSV note and source and the kind its address declares", {
  for (indicator in indicators_in(data_dir())) {
    points <- osu_values(indicator, provenance = TRUE, base_url = main_url())
    expected <- csv_points(data_dir(), indicator)
    expect_points(points, expected)
    expect_identical(points$note, ifelse(expected$note == "", NA_character_, expected$note))
    expect_identical(points$source, ifelse(expected$source == "", NA_character_, expected$source))
    expect_identical(points$source_kind, source_kinds(data_dir(), indicator, expected$source))
  }
})

test_that("a selection by series (ids and patterns), start and end is the CSV points it names", {
  patterns <- c("casmu.*", "*.consult-general-medicine.fonasa")
  points <- osu_values("health-insurance-prices", series = patterns, start = "2019-08", end = "2024", base_url = main_url())
  expected <- csv_points(data_dir(), "health-insurance-prices")
  named <- Reduce(`|`, lapply(patterns, function(p) grepl(utils::glob2rx(p), expected$series)))
  expected <- expected[named & expected$date >= "2019-08-01" & expected$date <= "2024-12-31", ]
  expect_gt(length(unique(expected$series)), 50)
  expect_points(points, expected)
  expect_identical(attr(points, "meta")$series, sort(patterns, method = "radix"))

  one <- osu_values("domestic-worker-wages", series = "hourly", start = as.Date("2015-01-01"), base_url = main_url())
  wages <- csv_points(data_dir(), "domestic-worker-wages")
  expect_points(one, wages[wages$series == "hourly" & wages$date >= "2015-01-01", ])
})

test_that("an answer of more than 5,000 points comes whole through many small pages", {
  before <- osu_stats()[["requests"]]
  points <- osu_values("health-insurance-prices", page_size = 2, base_url = main_url())
  expected <- csv_points(data_dir(), "health-insurance-prices")
  expect_identical(nrow(expected), 24274L)
  expect_points(points, expected)
  # 1,554 sub-series of at most 17 points, 2 per sub-series a page: 9 pages.
  expect_identical(osu_stats()[["requests"]] - before, 9L)
})

test_that("a derived answer (units) is computed from the CSV values, through the pages of a capped answer", {
  change <- osu_values("consumer-price-index", units = "percent_change_a_year_ago", start = "2020", base_url = main_url())
  cpi <- csv_points(data_dir(), "consumer-price-index")
  value <- decimal_values(cpi$value)
  names(value) <- cpi$date
  months <- cpi$date[cpi$date >= "2020-01-01"]
  a_year_before <- paste0(as.integer(substr(months, 1, 4)) - 1L, substr(months, 5, 10))
  compared()
  expect_identical(change$date, as.Date(months))
  # Rounded to 8 significant digits (docs/time.md).
  expect_equal(change$value, unname(100 * (value[months] / value[a_year_before] - 1)), tolerance = 1e-7)
  expect_identical(attr(change, "meta")$value_unit, "percent")
})
