// Every request under /api/ that _routes.json sends to the function, answered by the
// one portable handler (src/api/handler.ts), which routes, limits and answers. A
// middleware rather than a `[[path]]` route: Pages runs a middleware for every path
// under /api/, also one with an empty segment (`/api//x`) that no route matches.
// One Api per isolate (src/api/instance.ts), shared with functions/mcp.ts.
import type { Env } from "../../src/api/handler.js";
import { api } from "../../src/api/instance.js";

export function onRequest(context: { request: Request; env: Env }): Promise<Response> {
  return api.fetch(context.request, context.env);
}
