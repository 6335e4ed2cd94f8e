/**
 * The table of the function's routes (src/api/routes.ts): the router picks the route
 * the paths have always gone to, and every route the function serves is described
 * (OpenAPI, docs/api.md's endpoint table) while every path the descriptions list is
 * served, by a route or as a file of the build.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { router, routePattern, type Route } from "../../src/api/route.js";
import { ROUTES } from "../../src/api/routes.js";
import { endpointTable } from "../../src/builder/docs-tables.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT, runCli, tempDir } from "../helpers.js";

const routeOf = router(ROUTES);

describe("the router", () => {
  it.each([
    ["/api/v1/domestic-worker-wages", "/api/v1/{indicator}", ["domestic-worker-wages"]],
    ["/api/v1/x/", "/api/v1/{indicator}", ["x"]],
    ["/api/v1/%20x", "/api/v1/{indicator}", ["%20x"]],
    ["/api/v1/search", "/api/v1/search", []],
    ["/api/v1/search/", "/api/v1/{indicator}", ["search"]],
    ["/api/v1/adjust", "/api/v1/adjust", []],
    ["/api/v1/adjust/", "/api/v1/{indicator}", ["adjust"]],
    ["/api/v1/x/changes", "/api/v1/{indicator}/changes", ["x"]],
    ["/api/v1/x/changes/", "/api/v1/{indicator}/changes", ["x"]],
    ["/api/v1/search/changes", "/api/v1/{indicator}/changes", ["search"]],
    ["/api/v1/x/data.csv", "/api/v1/{indicator}/…", ["x"]],
    ["/api/v1/x/changes/y", "/api/v1/{indicator}/…", ["x"]],
    ["/api/v1", null, []],
    ["/api/v1/", null, []],
    ["/api/v1//x", null, []],
    ["/api/v2/x", null, []],
  ])("%s → %s", (path, route, segments) => {
    const found = routeOf(path);
    expect(found?.route.path ?? null).toBe(route);
    expect(found?.segments ?? []).toEqual(segments);
  });

  it("reads a `{…}` as one raw segment, with an optional final slash; a fixed path only as written", () => {
    expect(routePattern("/a/{x}/b").exec("/a/%20x/b")?.slice(1)).toEqual(["%20x"]);
    expect(routePattern("/a/{x}/b").test("/a/x/b/")).toBe(true);
    expect(routePattern("/a/{x}/b").test("/a/x/y/b")).toBe(false);
    expect(routePattern("/a/{x}/b").test("/a//b")).toBe(false);
    expect(routePattern("/a.b").test("/a.b")).toBe(true);
    expect(routePattern("/a.b").test("/axb")).toBe(false);
    expect(routePattern("/a.b").test("/a.b/")).toBe(false);
  });
});

/** The OpenAPI path written as a pattern of the files that answer it: each `{…}` one segment or part of one. */
const filePattern = (path: string) => new RegExp(`^${path.split(/\{[a-z_]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+")}$`);

/** Every file of the output folder `dir`, as a path from the site's root. */
function builtFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? builtFiles(join(dir, name), `${prefix}/${name}`) : [`${prefix}/${name}`]));
}

describe("the routes and their descriptions", () => {
  let out: string;
  let paths: string[];
  let files: string[];
  const described = ROUTES.filter((r): r is Route & Required<Pick<Route, "describe">> => r.describe !== undefined);

  beforeAll(async () => {
    out = join(await tempDir(), "dist");
    const r = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", out, "--limits", "2", "--no-history"], { SOURCE_DATE_EPOCH: "1700000000" });
    expect(r.code, r.stderr).toBe(0);
    paths = Object.keys((JSON.parse(readFileSync(join(out, "api/v1/openapi.json"), "utf8")) as { paths: Record<string, unknown> }).paths);
    files = builtFiles(out);
  });

  it("describe every route the function serves but the hosted files (described as the static files they are)", () => {
    expect(ROUTES.filter((r) => r.describe === undefined).map((r) => r.path)).toEqual(["/api/v1/{indicator}/…"]);
    for (const route of described) {
      expect(paths, route.path).toContain(route.path);
      expect(endpointTable(), route.path).toContain(`| GET ${route.path} |`);
    }
  });

  it("list no path that is neither a route the function serves nor a file the build writes", () => {
    for (const path of paths) {
      const found = routeOf(path);
      if (found?.route.path === path) continue;
      expect(files.some((file) => filePattern(path).test(file)), `${path}: no route, no file`).toBe(true);
    }
  });

  it("are answered by the function, not with its 404 for an unknown path", async () => {
    const api = new Api();
    const env = { ASSETS: folderAssets(out), RATE_LIMIT_REQUESTS: "1000000" };
    for (const route of described) {
      const response = await api.fetch(new Request(`http://api.test${route.path.replace("{indicator}", "tiny-wages")}`), env, 0);
      const body = (await response.json()) as { error?: { detail: string } };
      expect(body.error?.detail ?? "", route.path).not.toMatch(/^path: nothing at/);
    }
  });

  it("find a path described but not served, or served but not described (the checks can fail)", () => {
    expect(routeOf("/api/v1/no-such-endpoint")?.route.path).not.toBe("/api/v1/no-such-endpoint");
    expect(files.some((file) => filePattern("/api/v1/no-such-endpoint").test(file))).toBe(false);
    expect(endpointTable()).not.toContain("| GET /api/v1/{indicator}/… |");
    expect(readFileSync(join(ROOT, "docs/api.md"), "utf8")).toContain(`| GET ${described[0]?.path ?? ""} |`);
  });
});
