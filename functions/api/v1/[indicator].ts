// GET|HEAD /api/v1/{indicator}: prebuilt file or computed answer (src/api/handler.ts).
// The data cache lives as long as the isolate.
import { DataStore, serveIndicator } from "../../../src/api/handler.js";
import type { PagesContext } from "../../../src/api/pages-context.js";

const store = new DataStore();

export function onRequest(context: PagesContext<"indicator">): Promise<Response> {
  return serveIndicator(context.request, String(context.params.indicator), context.env.ASSETS, store);
}
