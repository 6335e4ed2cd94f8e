// `/mcp`: the MCP server for AI assistants (src/api/mcp.ts), answered by the same
// portable handler and the same isolate's Api as /api/* (src/api/instance.ts).
import type { Env } from "../src/api/handler.js";
import { api } from "../src/api/instance.js";

export function onRequest(context: { request: Request; env: Env }): Promise<Response> {
  return api.fetch(context.request, context.env);
}
