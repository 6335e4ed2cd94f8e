# URLs of the API: a path and its query parameters as R values.

# A query value as the API reads it: a Date as YYYY-MM-DD, TRUE/FALSE as
# true/false, a number written out without an exponent (the API refuses 1e+05),
# a vector as its items joined by commas (series, facet), each item escaped.
query_value <- function(x) {
  if (inherits(x, "Date")) x <- format(x, "%Y-%m-%d")
  if (is.logical(x)) x <- tolower(as.character(x))
  if (is.numeric(x)) x <- format(x, scientific = FALSE, digits = 15, trim = TRUE)
  paste(vapply(as.character(x), curl::curl_escape, ""), collapse = ",")
}

# The query string of the named list `params`, its NULL items left out ("" when none).
query_string <- function(params) {
  params <- params[!vapply(params, is.null, TRUE)]
  if (length(params) == 0) return("")
  paste0("?", paste(names(params), vapply(params, query_value, ""), sep = "=", collapse = "&"))
}

# The absolute URL of an API path (`/api/v1/...`, as meta.next gives it) on `base_url`.
api_url <- function(base_url, path, params = list()) {
  paste0(sub("/+$", "", base_url), path, query_string(params))
}

# The API path of an indicator (or of one of its documents, `suffix`).
indicator_path <- function(indicator, suffix = "") {
  stopifnot(is.character(indicator), length(indicator) == 1)
  paste0("/api/v1/", curl::curl_escape(indicator), suffix)
}

# Every page of a paged answer (the values, the changes), from the first page's
# URL: the API says in meta$has_more whether another page follows and gives its
# URL in meta$next.
follow_pages <- function(base_url, first) {
  pages <- list(first)
  while (isTRUE(pages[[length(pages)]]$meta$has_more)) {
    pages[[length(pages) + 1]] <- get_json(api_url(base_url, pages[[length(pages)]]$meta[["next"]]))
  }
  pages
}

# The data of every page as one data frame of `columns` (a named list of
# converters: as.character, as.numeric, as_day), in the pages' order.
pages_frame <- function(pages, columns) {
  do.call(rbind, lapply(pages, function(page) {
    frame <- lapply(names(columns), function(name) column(page$data, name, columns[[name]]))
    names(frame) <- names(columns)
    as.data.frame(frame, stringsAsFactors = FALSE)
  }))
}

# What a paged answer is about (its meta), without the paging fields, which
# describe its first page only.
answer_meta <- function(pages) {
  meta <- pages[[1]]$meta
  meta[setdiff(names(meta), c("limit", "offset", "has_more", "next"))]
}

# The rows of a page's `data` (jsonlite makes a data frame of an array of objects,
# and an empty list of an empty array).
rows_of <- function(data) if (is.data.frame(data)) nrow(data) else 0L

# A column of a page's data frame converted by `as` (as.character, as.numeric,
# as_day): jsonlite makes a column of nulls logical NA, and an absent key absent.
column <- function(data, name, as) {
  values <- if (is.data.frame(data)) data[[name]] else NULL
  as(if (is.null(values)) rep(NA, rows_of(data)) else values)
}

# The dates of a column of YYYY-MM-DD text (NA stays NA).
as_day <- function(x) as.Date(as.character(x), format = "%Y-%m-%d")
