# The API's errors as R conditions, made in one place (error_from_answer).
#
# Every error answer of the API is {"error": {"code", "message", "detail"}} with a
# status that has one code (docs/api.md, "Errors"). Clients branch on the code, so
# each code is a condition class of its own, openseriesuy_<code>, under
# openseriesuy_error, and every condition carries status, code and detail.

# The API's table of statuses and their codes (docs/api.md, "Errors"), for an answer
# whose body is not the API's error object (a static file's HTML 404 page).
code_of_status <- c(
  "400" = "bad_request", "404" = "not_found", "405" = "method_not_allowed",
  "429" = "too_many_requests", "500" = "internal_error"
)

# The condition of an answer of status >= 400: classes openseriesuy_<code> (when
# the code is known), openseriesuy_error, error, condition.
osu_condition <- function(status, code, detail, url, retry_after = NA_real_) {
  classes <- c(if (!is.na(code)) paste0("openseriesuy_", code), "openseriesuy_error", "error", "condition")
  message <- sprintf("%d %s: %s (%s)", status, if (is.na(code)) "error" else code, detail, url)
  structure(
    list(message = message, call = NULL, status = status, code = code, detail = detail,
         url = url, retry_after = retry_after),
    class = classes
  )
}

# The API's error object in a body, or NULL when the body is not one (an HTML page).
error_object <- function(body) {
  parsed <- tryCatch(jsonlite::fromJSON(raw_text(body), simplifyVector = FALSE), error = function(e) NULL)
  error <- if (is.list(parsed)) parsed$error else NULL
  if (is.list(error) && is.character(error$code)) error else NULL
}

# The condition for an answer of `status` >= 400 and its raw `body`. A body that is
# not the API's error object (an unknown indicator's metadata.json is the site's
# HTML 404 page: docs/api.md, "How a request is answered") takes the code the API
# gives that status, and a detail saying so.
error_from_answer <- function(status, body, url, retry_after = NA_real_) {
  error <- error_object(body)
  if (is.null(error)) {
    code <- unname(code_of_status[as.character(status)])
    detail <- sprintf("HTTP %d without the API's error object (not an address the API answers)", status)
  } else {
    code <- error$code
    detail <- if (is.character(error$detail)) error$detail else if (is.character(error$message)) error$message else ""
  }
  osu_condition(status, code, detail, url, retry_after)
}

# A body's bytes as UTF-8 text (the API's charset).
raw_text <- function(body) {
  text <- rawToChar(body)
  Encoding(text) <- "UTF-8"
  text
}
