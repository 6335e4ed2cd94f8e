// Any other path under /api/ that reaches the function: the JSON 404.
import { notFound } from "../../src/api.js";
import type { PagesContext } from "../../src/pages-context.js";

export function onRequest(context: PagesContext): Response {
  return notFound(context.request);
}
