# The other endpoints: an indicator's metadata document, search, the status
# document, the changes since a day and the adjustment of an amount.

osu_metadata <- function(indicator, base_url = getOption("openseriesuy.base_url", "https://open-series-uy.pages.dev")) {
  get_json(api_url(base_url, indicator_path(indicator, "/metadata.json")))
}

osu_search <- function(q, indicator = NULL, facet = NULL, limit = 20, offset = 0,
                       base_url = getOption("openseriesuy.base_url", "https://open-series-uy.pages.dev")) {
  params <- list(q = q, indicator = indicator, facet = facet_parameter(facet), limit = limit, offset = offset)
  answer <- get_json(api_url(base_url, "/api/v1/search", params), simplify = FALSE)
  results <- answer$data
  found <- data.frame(
    indicator = text_of(results, "indicator"), series = text_of(results, "series"),
    title_es = text_of(results, "title", "es"), title_en = text_of(results, "title", "en"),
    indicator_title_es = text_of(results, "indicator_title", "es"), indicator_title_en = text_of(results, "indicator_title", "en"),
    newest_date = as_day(text_of(results, "newest", "date")), newest_value = as.numeric(text_of(results, "newest", "value")),
    url = text_of(results, "url"), stringsAsFactors = FALSE
  )
  for (name in unique(unlist(lapply(results, function(r) vapply(r$facets, function(f) f$name, ""))))) {
    found[[paste0("facet_", name)]] <- vapply(results, facet_value, "", name = name)
  }
  attr(found, "meta") <- answer$meta
  found
}

# The facet filter as the API takes it: a named vector c(provider = "casmu") as
# "provider:casmu", or the API's own text as it is.
facet_parameter <- function(facet) {
  if (is.null(facet) || is.null(names(facet))) return(facet)
  paste0(names(facet), ":", facet)
}

# A search result's value of facet `name` (NA when it has none).
facet_value <- function(result, name) {
  for (facet in result$facets) if (identical(facet$name, name)) return(facet$value)
  NA_character_
}

# The text at `path` (names into nested objects) of each of a list of parsed JSON
# objects, NA where it is null or absent.
text_of <- function(items, ...) {
  path <- c(...)
  vapply(items, function(item) {
    for (key in path) item <- if (is.list(item)) item[[key]] else NULL
    if (is.null(item)) NA_character_ else as.character(item)
  }, "")
}

osu_status <- function(base_url = getOption("openseriesuy.base_url", "https://open-series-uy.pages.dev")) {
  indicators <- get_json(api_url(base_url, "/api/v1/status.json"), simplify = FALSE)$indicators
  day <- function(name) as_day(text_of(indicators, name))
  data.frame(
    id = text_of(indicators, "id"), title_es = text_of(indicators, "title", "es"), title_en = text_of(indicators, "title", "en"),
    checked = day("checked"), data_changed = day("data_changed"), newest = day("newest"), next_due = day("next_due"),
    overdue = as.logical(text_of(indicators, "overdue")), overdue_since = day("overdue_since"),
    overdue_series = as.integer(text_of(indicators, "overdue_series")),
    check_by = text_of(indicators, "check", "by"), check_outcome = text_of(indicators, "check", "outcome"),
    check_read = text_of(indicators, "check", "read"), check_note = text_of(indicators, "check", "note"),
    stringsAsFactors = FALSE
  )
}

# The columns of a change list: the point's date and sub-series, added, revised or
# removed, its value now and then (NA: none), the day it changed.
change_columns <- list(date = as_day, series = as.character, change = as.character, value = as.numeric,
                       previous = as.numeric, changed = as_day)

osu_changes <- function(indicator, since, series = NULL, page_size = 5000,
                        base_url = getOption("openseriesuy.base_url", "https://open-series-uy.pages.dev")) {
  params <- list(since = since, series = series, limit = page_size)
  pages <- follow_pages(base_url, get_json(api_url(base_url, indicator_path(indicator, "/changes"), params)))
  changes <- pages_frame(pages, change_columns)
  attr(changes, "meta") <- answer_meta(pages)
  changes
}

osu_adjust <- function(amount, start, end, by, base_url = getOption("openseriesuy.base_url", "https://open-series-uy.pages.dev")) {
  answer <- get_json(api_url(base_url, "/api/v1/adjust", list(amount = amount, from = start, to = end, by = by)))
  adjusted <- answer$data
  attr(adjusted, "meta") <- answer$meta
  adjusted
}
