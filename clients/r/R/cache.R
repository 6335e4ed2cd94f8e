# The disk cache of answers, on when options(openseriesuy.cache_dir) names a folder.
# An answer with an ETag or a Last-Modified is kept, one file per URL; the next GET
# of that URL sends them back (If-None-Match, If-Modified-Since) and a 304 answers
# from the file. Every call still asks the server (a 304 has no body, so it costs
# little): the data may have changed since, and the server says whether it has.

# The cache's file for `url`: the MD5 of the URL (a file name of any URL's length).
cache_file <- function(dir, url) {
  key_file <- tempfile()
  on.exit(unlink(key_file))
  writeBin(charToRaw(url), key_file)
  file.path(dir, paste0(unname(tools::md5sum(key_file)), ".rds"))
}

# The cached answer of `url` (its validators and body), or NULL: no cache, none kept.
cache_read <- function(url) {
  dir <- getOption("openseriesuy.cache_dir")
  if (is.null(dir)) return(NULL)
  file <- cache_file(dir, url)
  if (!file.exists(file)) return(NULL)
  entry <- readRDS(file)
  if (identical(entry$url, url)) entry else NULL
}

# The request headers that ask for a 304 when the cached answer is still current.
cache_validators <- function(entry) {
  if (is.null(entry)) return(character())
  c("If-None-Match" = entry$etag, "If-Modified-Since" = entry$last_modified)
}

# The body of a cached answer the server has just confirmed (a 304), counted.
cache_revalidated <- function(entry) {
  count("revalidated")
  entry$body
}

# Keeps a successful answer when the cache is on and the answer has a validator,
# written to a temporary file and renamed (a reader never sees half a file).
# Returns the body.
cache_write <- function(url, answer) {
  dir <- getOption("openseriesuy.cache_dir")
  etag <- answer$headers[["etag"]]
  last_modified <- answer$headers[["last-modified"]]
  if (is.null(dir) || answer$status != 200 || (is.null(etag) && is.null(last_modified))) return(answer$body)
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  file <- cache_file(dir, url)
  partial <- tempfile(tmpdir = dir, fileext = ".partial")
  saveRDS(list(url = url, etag = etag, last_modified = last_modified, body = answer$body), partial)
  file.rename(partial, file)
  count("stored")
  answer$body
}
