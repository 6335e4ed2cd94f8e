/** The data version of the tests' builds of the real data: 2026-11-20, after its newest points, as a real version is. */
export const EPOCH = "1795132800";
/** The same instant as an HTTP-date (the answers' Last-Modified). */
export const LAST_MODIFIED = "Fri, 20 Nov 2026 00:00:00 GMT";
