/**
 * Every path the service publishes, stated once. Paths are absolute (`/…`); the
 * build writes the file of a path at `outputFile(path)` in the output folder.
 */
import { API_BASE } from "./contract.js";

/** The catalog of indicators (static file). */
export const CATALOG_PATH = `${API_BASE}/index.json`;
/** The OpenAPI description (static file). */
export const OPENAPI_PATH = `${API_BASE}/openapi.json`;
/** The indicator pages' script, bundled from src/site/client/. */
export const PAGE_SCRIPT_PATH = "/assets/series-page.js";

/**
 * The endpoint's route: `/api/v1/{indicator}`, with or without a final slash. The
 * id is the raw path segment, as Pages' router hands it over (not percent-decoded).
 */
export const ENDPOINT_ROUTE = new RegExp(`^${API_BASE}/([^/]+)/?$`);

/** Path of an indicator's API endpoint. */
export function endpointPath(indicator: string): string {
  return `${API_BASE}/${indicator}`;
}

/** The indicator's default answer as a static file (what a mirror serves for the endpoint). */
export function defaultPagePath(indicator: string): string {
  return `${endpointPath(indicator)}/index.json`;
}

/** Every point of the indicator as CSV (static file). */
export function csvPath(indicator: string): string {
  return `${endpointPath(indicator)}/data.csv`;
}

/** The indicator's page on the site: the target of its attribution link. */
export function seriesPagePath(indicator: string): string {
  return `/series/${indicator}/`;
}

/** The indicator's full dataset, column-wise binary (src/core/columnar.ts); internal. */
export function datasetPath(indicator: string): string {
  return `/_data/${indicator}.bin`;
}

/** The output file that holds `path`: relative to the output folder, `index.html` for a folder. */
export function outputFile(path: string): string {
  const relative = path.replace(/^\//, "");
  return relative === "" || relative.endsWith("/") ? `${relative}index.html` : relative;
}
