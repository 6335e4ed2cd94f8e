# The values of an indicator (GET /api/v1/{indicator}) as one data frame.

# The most points the API writes in an answer with provenance or derived values
# (docs/api.md "provenance", docs/time.md "Derived answers": MAX_DERIVED_POINTS),
# and the largest page it gives per sub-series (limit).
capped_points <- 8000
max_limit <- 5000

# The parameters the client sets itself, which `...` must not name.
own_parameters <- c("from", "to", "series", "as_of", "limit", "offset", "format", "dialect")

osu_values <- function(indicator, series = NULL, start = NULL, end = NULL, ..., page_size = NULL,
                       as_of = getOption("openseriesuy.as_of"),
                       base_url = getOption("openseriesuy.base_url", "https://open-series-uy.pages.dev")) {
  params <- c(list(from = start, to = end, series = series), extra_parameters(list(...)), list(as_of = as_of))
  pages <- value_pages(base_url, indicator_path(indicator), params, page_size)
  points <- pages_frame(pages, if (isTRUE(params$provenance)) c(point_columns, provenance_columns) else point_columns)
  points <- points[order(points$date, points$series, decreasing = c(TRUE, FALSE), method = "radix"), , drop = FALSE]
  rownames(points) <- NULL
  attr(points, "meta") <- answer_meta(pages)
  points
}

# The other query parameters, by their API names (at, frequency, units, ...): named,
# and none the client sets itself. A name the API does not know is its 400.
extra_parameters <- function(extra) {
  names <- names(extra)
  if (length(extra) > 0 && (is.null(names) || any(names == ""))) stop("every argument in ... must be named (at = , units = , ...)", call. = FALSE)
  clash <- intersect(names, own_parameters)
  if (length(clash) > 0) {
    stop(sprintf("%s: set by the client (start, end, series, as_of and page_size are its arguments)", paste(clash, collapse = ", ")), call. = FALSE)
  }
  extra
}

# Whether the API caps the answer at 8,000 points: with provenance, or a derived
# value (frequency, per, real, units other than level).
capped <- function(params) {
  isTRUE(params$provenance) || !is.null(params$frequency) || !is.null(params$per) || !is.null(params$real) ||
    !(is.null(params$units) || identical(params$units, "level"))
}

# Every page of the answer. `page_size` is the API's limit: points per sub-series
# in a page. By default a page holds 5,000 per sub-series (most answers come in
# one page); when the answer is capped, a first page of one point per sub-series
# counts the sub-series that have points, and the next pages hold as many as the
# cap allows for that many.
value_pages <- function(base_url, path, params, page_size) {
  if (!is.null(page_size) || !capped(params)) {
    return(follow_pages(base_url, get_json(api_url(base_url, path, c(params, list(limit = page_size %||% max_limit))))))
  }
  first <- get_json(api_url(base_url, path, c(params, list(limit = 1))))
  if (!isTRUE(first$meta$has_more)) return(list(first))
  limit <- min(max_limit, max(1, floor(capped_points / max(1, rows_of(first$data)))))
  c(list(first), follow_pages(base_url, get_json(api_url(base_url, path, c(params, list(limit = limit, offset = 1))))))
}

# The columns of the points: date (Date), series, value (numeric); with
# provenance also note, source and source_kind (NA where the API sends null).
point_columns <- list(date = as_day, series = as.character, value = as.numeric)
provenance_columns <- list(note = as.character, source = as.character, source_kind = as.character)
