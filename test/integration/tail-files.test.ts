/**
 * A tail indicator's files served by the function in Node (src/api/files.ts): the
 * golden data built with a file budget that makes its one indicator the tail and
 * moves files to R2, answered by the handler over the output folder and over
 * `<out>.r2/` (the objects the deploy uploads) as its bucket. The same through
 * workerd and wrangler's local R2: test/e2e/tail-files.test.ts.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { Api } from "../../src/api/handler.js";
import type { Bucket } from "../../src/api/files.js";
import { R2_BINDING, type FileIndex, type FileRecord, type R2Record } from "../../src/core/file/hosted.js";
import { runCli, tempDir, treeDigest } from "../helpers.js";

const GOLDEN = "test/fixtures/golden/data";
let out: string;
let index: FileIndex;
/** The same build with every file on Pages: what each file served from R2 must be. */
let whole: string;
let env: Record<string, unknown>;

/** The objects of `<out>.r2/` as an R2 bucket: a range of a key's bytes, or null. */
function folderBucket(dir: string): Bucket {
  return {
    async get(key, { range }) {
      const bytes = await readFile(join(dir, key)).catch(() => null);
      return bytes === null ? null : { body: new Response(bytes.subarray(range.offset, range.offset + range.length)).body as ReadableStream };
    },
  };
}

beforeAll(async () => {
  whole = join(await tempDir(), "dist");
  expect((await runCli(["build", "--data", GOLDEN, "--out", whole, "--no-base"], { SOURCE_DATE_EPOCH: "1" })).code).toBe(0);
  const all = treeDigest(whole);
  out = join(await tempDir(), "dist");
  const built = await runCli(["build", "--data", GOLDEN, "--out", out, "--no-base", "--max-files", String(all.size - 10), "--no-r2-state"], { SOURCE_DATE_EPOCH: "1" });
  expect(built.code, built.stderr).toBe(0);
  index = JSON.parse(readFileSync(join(out, "_data/tiny-wages/files.json"), "utf8")) as FileIndex;
  env = { ASSETS: folderAssets(out), [R2_BINDING]: folderBucket(`${out}.r2`), RATE_LIMIT_REQUESTS: "1000000" };
});

const get = (path: string, headers: Record<string, string> = {}, method = "GET") => new Api().fetch(new Request(`http://x.test${path}`, { headers, method }), env as never);

describe("a tail indicator's files", () => {
  it("are served from R2 and from the assets with the same bytes as the build wrote, their media type, ETag and Last-Modified", async () => {
    const inR2 = Object.entries(index).filter(([, [, where]]) => where === 1);
    const onAssets = Object.entries(index).filter(([, [, where]]) => where === 0);
    expect(inR2.length).toBeGreaterThan(0);
    expect(onAssets.length).toBeGreaterThan(0);
    for (const [path, [sha256, where]] of [...inR2, ...onAssets]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(join(where === 1 ? whole : out, path))), path).toBe(true);
      expect(response.headers.get("ETag"), path).toBe(`"${sha256}"`);
      expect(response.headers.get("Last-Modified"), path).toBe("Thu, 01 Jan 1970 00:00:01 GMT");
      expect(response.headers.get("Cache-Control"), path).toBe("public, max-age=900");
    }
    expect((await get("/api/v1/tiny-wages/data.csv")).headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect((await get("/api/v1/tiny-wages/metadata.json")).headers.get("Content-Type")).toBe("application/json");
  });

  it("answer 304 to If-None-Match or If-Modified-Since, and a HEAD without a body", async () => {
    const [path, [sha256]] = Object.entries(index).find(([, [, where]]) => where === 1) as [string, FileRecord];
    expect((await get(path, { "If-None-Match": `"${sha256}"` })).status).toBe(304);
    expect((await get(path, { "If-Modified-Since": "Thu, 01 Jan 1970 00:00:01 GMT" })).status).toBe(304);
    const head = await get(path, {}, "HEAD");
    expect([head.status, (await head.arrayBuffer()).byteLength]).toEqual([200, 0]);
  });

  it("answer the JSON 404 for a file the indicator does not have, and a 500 when its object is missing from the bucket", async () => {
    expect((await get("/api/v1/tiny-wages/nothing.json")).status).toBe(404);
    const [path] = Object.entries(index).find(([, [, where]]) => where === 1) as [string, unknown];
    const noBucket = await new Api().fetch(new Request(`http://x.test${path}`), { ...env, [R2_BINDING]: folderBucket(join(out, "nowhere")) } as never);
    expect(noBucket.status).toBe(500);
  });

  it("are read from R2 by the endpoint too: a prebuilt page moved there answers ?limit=10", async () => {
    expect(index["/api/v1/tiny-wages/limit-10/offset-0.json"]?.[1]).toBe(1);
    const response = await get("/api/v1/tiny-wages?limit=10");
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(join(whole, "api/v1/tiny-wages/limit-10/offset-0.json")))).toBe(true);
  });

  it("are in one R2 object, the indicator's pack: each file's bytes once, named by the pack's SHA-256", async () => {
    const records = Object.values(index).filter((record): record is R2Record => record[1] === 1);
    const packs = new Set(records.map((record) => record[2]));
    expect([...packs]).toEqual(readdirSync(`${out}.r2`));
    const pack = await readFile(join(`${out}.r2`, [...packs][0] as string));
    expect(createHash("sha256").update(pack).digest("hex")).toBe([...packs][0]);
    // Files of the same bytes (a three-point indicator's pages of every limit) share their range.
    const ranges = new Map(records.map((record) => [record[0], record.slice(3)]));
    expect(pack.length).toBe([...ranges.values()].reduce((sum, [, length]) => sum + (length as number), 0));
    for (const [sha256, [offset, length]] of ranges) expect(createHash("sha256").update(pack.subarray(offset as number, (offset as number) + (length as number))).digest("hex")).toBe(sha256);
  });
});
