/**
 * The part of Cloudflare Pages' `EventContext` the functions use, typed here so
 * the project needs no runtime-specific type package.
 */
import type { Assets } from "./handler.js";

/** The bindings of `wrangler.toml`: the static assets and the `[vars]`. */
export interface Env {
  readonly ASSETS: Assets;
  readonly [variable: string]: unknown;
}

export interface PagesContext<Param extends string = never> {
  readonly request: Request;
  readonly env: Env;
  readonly params: Record<Param, string | string[]>;
  next(): Promise<Response>;
}
