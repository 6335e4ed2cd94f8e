/**
 * The isolate's one `Api` (its usage limiter and data cache), shared by the Pages
 * Functions that hand requests to it: functions/api/_middleware.ts (`/api/*`) and
 * functions/mcp.ts (`/mcp`), so both count against the same usage limit.
 */
import { Api } from "./handler.js";

export const api = new Api();
