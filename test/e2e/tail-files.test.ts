/**
 * Many indicators within every Cloudflare Pages limit, through `wrangler pages dev`
 * with the real R2 binding (docs/formats.md, "Files within the host's limits"):
 * 40 small synthetic indicators (scripts/bench/generate.ts) built with a file budget
 * that moves files to R2 (`--max-files`, their objects put into the server's local R2
 * state by the build):
 * - the build holds every limit (files, `_headers` and `_routes.json` rules);
 * - every indicator answers its page, default answer, metadata, a computed answer
 *   and a search;
 * - a sample of files, static (the head), served by the function from the assets
 *   and from R2 (the tail), are byte for byte what the build wrote (a file moved to
 *   R2: its range of the pack, and the SHA-256 its index records), with the headers
 *   Pages gives a static file, and a 304 to `If-None-Match` and to `If-Modified-Since`.
 * That each file the build moves is the file an all-on-Pages build writes is
 * test/integration/tail-files.test.ts's (a second build and server here cost about
 * 15 CPU-s). The 1,000-indicator build is measured by `npm run bench -- --only=many`.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateMany } from "../../scripts/bench/generate.js";
import { startPagesDev, type PagesDev } from "../../scripts/lib/pages-dev.js";
import type { FileIndex, FileRecord, R2Record } from "../../src/core/file/hosted.js";
import type { Manifest } from "../../src/core/file/manifest.js";
import { runCli, tempDir } from "../helpers.js";

const COUNT = 40;
/** Under the ~1,850 files of the 40 indicators: the head (18 indicators) stays whole, all but the last kind of the tail's files move to R2. */
const MAX_FILES = 1_150;
const HIGH = { RATE_LIMIT_REQUESTS: "1000000" };
const EPOCH = "1795132800";

let dir: string;
let ids: string[];
let r2: { out: string; server: PagesDev };

/** Builds `data` into `<dir>/<name>` with `extra` options and serves it (its local R2 state beside it). */
async function builtAndServed(data: string, name: string, extra: readonly string[]): Promise<{ out: string; server: PagesDev }> {
  const out = join(dir, name);
  const state = join(dir, `${name}-state`);
  const built = await runCli(["build", "--data", data, "--out", out, "--no-base", "--no-history", "--r2-state", state, ...extra], { SOURCE_DATE_EPOCH: EPOCH });
  if (built.code !== 0) throw new Error(`build failed:\n${built.stderr}`);
  return { out, server: await startPagesDev(out, HIGH, undefined, state) };
}

beforeAll(async () => {
  dir = await tempDir("open-series-tail-");
  const data = join(dir, "data");
  // No real indicator: the small ones alone make the head, the tail and R2.
  ids = await generateMany(data, COUNT, null);
  r2 = await builtAndServed(data, "r2", ["--max-files", String(MAX_FILES)]);
}, 400_000);

afterAll(async () => {
  await r2?.server.stop();
});

const read = (out: string, path: string) => readFileSync(join(out, path), "utf8");
const manifestOf = (out: string) => JSON.parse(read(out, "_data/manifest.json")) as Manifest;

/** Rules of a `_headers` file: lines that start a rule (not indented, not a comment). */
const headerRules = (text: string) => text.split("\n").filter((line) => line !== "" && !line.startsWith(" ") && !line.startsWith("#")).length;

describe("the R2 build", () => {
  it("holds every Pages limit: files, _headers and _routes.json rules; the rest is in R2", () => {
    const onPages = fg.sync("**/*", { cwd: r2.out, dot: true, onlyFiles: true });
    expect(onPages.length).toBeLessThanOrEqual(MAX_FILES);
    const routes = JSON.parse(read(r2.out, "_routes.json")) as { include: string[]; exclude: string[] };
    expect(routes.include.length + routes.exclude.length).toBeLessThanOrEqual(100);
    expect(Math.max(...[...routes.include, ...routes.exclude].map((rule) => rule.length))).toBeLessThanOrEqual(100);
    expect(headerRules(read(r2.out, "_headers"))).toBeLessThanOrEqual(100);
    // The files moved to R2, in one object per tail indicator that has any (its pack, src/builder/r2-pack.ts).
    const moved = tailRecords().filter(([, record]) => record[1] === 1);
    expect(moved.length).toBeGreaterThan(300);
    const packs = new Set(moved.map(([, record]) => record[2]));
    expect(fg.sync("*", { cwd: `${r2.out}.r2` }).sort()).toEqual([...packs].sort());
  });
});

describe("every indicator", () => {
  it("answers its page, default answer, metadata, a computed answer and a search", async () => {
    const { url } = r2.server;
    const failed: string[] = [];
    for (const id of ids) {
      for (const path of [`/series/${id}/`, `/api/v1/${id}`, `/api/v1/${id}/metadata.json`, `/api/v1/${id}?from=2020-01-01&series=a`, `/api/v1/search?q=series&indicator=${id}`]) {
        const response = await fetch(url + path);
        const body = await response.text();
        if (response.status !== 200 || body.length === 0) failed.push(`${path}: ${response.status}`);
        else if (path.includes("search") && !body.includes(`"${id}"`)) failed.push(`${path}: no result of ${id}`);
      }
    }
    expect(failed).toEqual([]);
  }, 300_000);
});

/** Every tail indicator's files of the R2 build, with their records (src/core/file/hosted.ts). */
function tailRecords(): [string, FileRecord][] {
  const manifest = manifestOf(r2.out);
  const tail = ids.filter((id) => manifest.indicators[id]?.files !== undefined);
  return tail.flatMap((id) => Object.entries(JSON.parse(read(r2.out, `_data/${id}/files.json`)) as FileIndex));
}

/** A sample of files: a head indicator's (static), and a tail indicator's served from the assets and from R2, of each kind. */
function sample(): { path: string; where: "static" | "assets" | "r2" }[] {
  const manifest = manifestOf(r2.out);
  const head = ids.find((id) => manifest.indicators[id]?.files === undefined) as string;
  const records = tailRecords();
  const kinds = ["/limit-10/offset-0.json", "/series/a.csv", "/data.xlsx", "/data.parquet", "/feed.atom", "/data.es.csv", "/index.json", "/data.csv", "/metadata.json"];
  const picked = kinds.flatMap((kind) =>
    [1, 0].flatMap((inR2) => {
      const record = records.find(([path, [, where]]) => path.endsWith(kind) && where === inR2);
      return record === undefined ? [] : [{ path: record[0], where: inR2 === 1 ? ("r2" as const) : ("assets" as const) }];
    }),
  );
  return [...kinds.map((kind) => ({ path: `/api/v1/${head}${kind}`, where: "static" as const })), ...picked];
}

describe("a sample of files from Pages and from R2", () => {
  it("covers the three places: static, the function from the assets, the function from R2", () => {
    const wheres = new Set(sample().map((s) => s.where));
    expect(wheres).toEqual(new Set(["static", "assets", "r2"]));
    expect(sample().filter((s) => s.where === "r2").length).toBeGreaterThanOrEqual(5);
  });

  it("is byte for byte what the build wrote, with the headers of a static file, a 304 to either validator and no body to a HEAD", async () => {
    const staticType = new Map<string, string>();
    const records = new Map(tailRecords());
    let staticModified: string | null = null;
    const seen: string[] = [];
    for (const { path, where } of sample()) {
      const a = await fetch(r2.server.url + path);
      expect(a.status, path).toBe(200);
      const bytes = Buffer.from(await a.arrayBuffer());
      if (where === "r2") {
        // Its range of the indicator's pack (the object the build put), and the SHA-256 its index records.
        const [sha256, , pack, offset, length] = records.get(path) as R2Record;
        expect(bytes.equals(readFileSync(join(`${r2.out}.r2`, pack)).subarray(offset, offset + length)), path).toBe(true);
        expect(createHash("sha256").update(bytes).digest("hex"), path).toBe(sha256);
      } else expect(bytes.equals(readFileSync(join(r2.out, path))), path).toBe(true);
      for (const header of ["Content-Type", "Cache-Control", "Last-Modified", "Access-Control-Allow-Origin", "X-Content-Type-Options", "Referrer-Policy"]) {
        expect(a.headers.get(header), `${path} ${header}`).not.toBeNull();
      }
      // The same media type Pages gives the head's static file of that kind.
      const extension = path.slice(path.lastIndexOf("."));
      if (where === "static") staticType.set(extension, a.headers.get("Content-Type") as string);
      else expect(a.headers.get("Content-Type"), path).toBe(staticType.get(extension));
      // The build's time, as Pages gives it to the head's static files.
      if (where === "static") staticModified ??= a.headers.get("Last-Modified");
      else expect(a.headers.get("Last-Modified"), path).toBe(staticModified);
      const etag = a.headers.get("ETag") as string;
      const lastModified = a.headers.get("Last-Modified") as string;
      expect((await fetch(r2.server.url + path, { headers: { "If-None-Match": etag } })).status, path).toBe(304);
      if (where !== "static") expect((await fetch(r2.server.url + path, { headers: { "If-Modified-Since": lastModified } })).status, path).toBe(304);
      const head = await fetch(r2.server.url + path, { method: "HEAD" });
      expect([head.status, (await head.arrayBuffer()).byteLength], path).toEqual([200, 0]);
      seen.push(`${where.padEnd(6)} ${path} ${a.headers.get("Content-Length") ?? "chunked"} ${etag.slice(0, 14)}… identical, 304`);
    }
    // What the sample showed, for the record (docs/performance.md quotes such a run).
    console.log(`tail-files sample (where, path, bytes, ETag):\n${seen.join("\n")}`);
  }, 120_000);

  it("answers the JSON 404 for a file a tail indicator does not have", async () => {
    const tail = ids.find((id) => manifestOf(r2.out).indicators[id]?.files !== undefined) as string;
    const response = await fetch(`${r2.server.url}/api/v1/${tail}/nothing.json`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
