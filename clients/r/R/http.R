# One GET of the API: the request's headers, the wait on a 429, the conditional
# request of the disk cache and the error mapping, in the one function every
# endpoint calls (get_json).

# The client's own User-Agent, so that a server's log can tell its requests apart.
user_agent <- function() {
  paste0("openseriesuy-r/", utils::packageVersion("openseriesuy"), " (+https://open-series-uy.pages.dev)")
}

# The headers of a request: the User-Agent, the headers of
# options(openseriesuy.headers = c(Name = "value")), then the cache's validators.
request_headers <- function(conditional) {
  extra <- getOption("openseriesuy.headers", character())
  c("User-Agent" = user_agent(), vapply(extra, as.character, ""), conditional)
}

# One HTTP GET: its status, its headers (names in lower case) and its raw body.
# Redirects are followed; options(openseriesuy.timeout) bounds it in seconds.
http_get <- function(url, headers) {
  handle <- curl::new_handle(timeout = getOption("openseriesuy.timeout", 60))
  curl::handle_setheaders(handle, .list = as.list(headers))
  answer <- curl::curl_fetch_memory(url, handle = handle)
  count("requests")
  list(status = answer$status_code, headers = curl::parse_headers_list(answer$headers), body = answer$content)
}

# The seconds a 429 asks to wait (Retry-After, whole seconds >= 1 in this API; an
# HTTP-date or nothing counts as 1 s).
retry_after_of <- function(answer) {
  seconds <- suppressWarnings(as.numeric(answer$headers[["retry-after"]] %||% NA))
  if (is.na(seconds) || seconds < 0) 1 else seconds
}

# The body of a GET of `url`, following the API's rules for a client:
# - a 429 waits its Retry-After and asks again, as long as the waits of this call
#   add up to at most options(openseriesuy.max_wait) seconds (default 60); past
#   that bound, the 429 is signalled (class openseriesuy_too_many_requests);
# - with options(openseriesuy.cache_dir) set, the cached answer's validators are
#   sent (If-None-Match, If-Modified-Since: RFC 9110 section 13) and a 304 is
#   answered from the cache;
# - any other status >= 400 is signalled as the API's error (error_from_answer).
get_body <- function(url) {
  cached <- cache_read(url)
  max_wait <- getOption("openseriesuy.max_wait", 60)
  waited <- 0
  repeat {
    answer <- http_get(url, request_headers(cache_validators(cached)))
    if (answer$status == 304 && !is.null(cached)) return(cache_revalidated(cached))
    if (answer$status < 400) return(cache_write(url, answer))
    wait <- retry_after_of(answer)
    if (answer$status != 429 || waited + wait > max_wait) {
      stop(error_from_answer(answer$status, answer$body, url, if (answer$status == 429) wait else NA_real_))
    }
    count("waits")
    Sys.sleep(wait)
    waited <- waited + wait
  }
}

# The JSON answer of `url`, parsed by jsonlite (simplified to vectors and data
# frames, or kept as lists with simplify = FALSE).
get_json <- function(url, simplify = TRUE) {
  jsonlite::fromJSON(raw_text(get_body(url)), simplifyVector = simplify)
}

`%||%` <- function(x, y) if (is.null(x)) y else x
