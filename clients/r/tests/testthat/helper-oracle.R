# What the tests compare the client's answers with: the indicators' CSV files
# under OSU_DATA, read here with utils::read.csv and nothing of the client, and
# the servers test/e2e/r-client.test.ts passes in environment variables.

# The value of environment variable `name`; the test is skipped when it is unset.
server_env <- function(name) {
  value <- Sys.getenv(name)
  skip_if(value == "", paste(name, "is not set: no served API to test against (test/e2e/r-client.test.ts sets it)"))
  value
}

# The main server (the real data) and the data folder it was built from.
main_url <- function() server_env("OSU_BASE_URL")
data_dir <- function() server_env("OSU_DATA")

# The server of the synthetic data history and its days, oldest first: a list of
# {day, data}, the data folder of each day's last commit (OSU_HISTORY_VERSIONS,
# a JSON file).
history_url <- function() server_env("OSU_HISTORY_URL")
history_versions <- function() jsonlite::read_json(server_env("OSU_HISTORY_VERSIONS"))

# Every point of `indicator` in the CSV files of `dir`, as text (columns date,
# series, value, source, note; a file without notes has none), in the API's
# order: date descending, then series ascending (byte order). Read once per run.
csv_points <- function(dir, indicator) {
  key <- file.path(dir, indicator)
  if (is.null(csv_read[[key]])) csv_read[[key]] <- read_csv_points(key)
  csv_read[[key]]
}
csv_read <- new.env(parent = emptyenv())

# The points of the CSV files of an indicator's folder (csv_points).
read_csv_points <- function(folder) {
  files <- sort(list.files(folder, pattern = "\\.csv$", full.names = TRUE))
  rows <- do.call(rbind, lapply(files, function(file) {
    read <- utils::read.csv(file, colClasses = "character", encoding = "UTF-8", na.strings = character())
    if (is.null(read$note)) read$note <- rep("", nrow(read))
    read[c("date", "series", "value", "source", "note")]
  }))
  rows <- rows[order(rows$date, rows$series, decreasing = c(TRUE, FALSE), method = "radix"), , drop = FALSE]
  rownames(rows) <- NULL
  rows
}

# The numbers a list of decimal texts stands for, each the double nearest to it.
# (C's strtod, through jsonlite's reader: R's as.numeric is off by one unit in
# the last place for 2 of the 24,274 health insurance prices, "320.590397014893".)
decimal_values <- function(text) {
  if (length(text) == 0) return(numeric())
  as.numeric(jsonlite::parse_json(paste0("[", paste(text, collapse = ","), "]"), simplifyVector = TRUE))
}

# The kind of source of each address by the indicator's declared prefixes (the
# longest that begins it), NA for an empty address.
source_kinds <- function(dir, indicator, sources) {
  kinds <- rep(NA_character_, length(sources))
  longest <- rep(0L, length(sources))
  for (declared in jsonlite::read_json(file.path(dir, indicator, "indicator.json"))$sourceKinds) {
    better <- startsWith(sources, declared$prefix) & nchar(declared$prefix) > longest
    kinds[better] <- declared$kind
    longest[better] <- nchar(declared$prefix)
  }
  kinds
}

# Counts a call whose answer was compared with the CSV files (reported by the
# runner of test/e2e/r-client.test.ts).
compared <- function() {
  options(openseriesuy.tests.compared = getOption("openseriesuy.tests.compared", 0) + 1)
}

# Expects `points` (an osu_values answer) to be exactly `expected` (csv_points rows):
# the same dates, sub-series and values in the same order.
expect_points <- function(points, expected) {
  compared()
  expect_identical(names(points)[1:3], c("date", "series", "value"))
  expect_identical(nrow(points), nrow(expected))
  expect_identical(points$date, as.Date(expected$date))
  expect_identical(points$series, expected$series)
  expect_identical(points$value, decimal_values(expected$value))
}

# The indicators of a data folder (its subfolders with an indicator.json).
indicators_in <- function(dir) {
  folders <- sort(list.dirs(dir, full.names = FALSE, recursive = FALSE))
  folders[file.exists(file.path(dir, folders, "indicator.json"))]
}

# Sets options for the rest of the calling test (restored when it ends).
local_options <- function(..., env = parent.frame()) {
  old <- options(...)
  do.call(on.exit, list(bquote(options(.(old))), add = TRUE), envir = env)
}
