/**
 * The real data, built in process, answered by the handler workerd runs (`Api`)
 * called in Node: 200 seeded random windows per indicator against the independent
 * reference, every prebuilt page equal to the computed answer for its query, and
 * a property over arbitrary query strings. test/e2e/api.test.ts proves over HTTP
 * that workerd gives the same answers.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import fg from "fast-glob";
import { beforeAll, describe, expect, it } from "vitest";
import type { Assets } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { EPOCH, HIGH, IDS, arbitraryQueryString, etagOf, expectPage, expectPageOrBadRequest, fetched, randomWindows } from "../api-checks.js";
import { computedOnly, folderAssets } from "../assets.js";
import { runCli, tempDir } from "../helpers.js";

let out: string;
let prebuilt: (path: string) => Promise<Response>;
let computed: (path: string) => Promise<Response>;

function handler(assets: Assets): (path: string) => Promise<Response> {
  const api = new Api();
  return (path) => api.fetch(new Request(`http://api.test${path}`), { ASSETS: assets, ...HIGH });
}

beforeAll(async () => {
  out = join(await tempDir(), "dist");
  const built = await runCli(["build", "--out", out], { SOURCE_DATE_EPOCH: EPOCH });
  expect(built.code, built.stderr).toBe(0);
  prebuilt = handler(folderAssets(out));
  computed = handler(computedOnly(folderAssets(out)));
});

describe("the handler in Node on the real data", () => {
  it.each(IDS)("%s: 200 random windows and pages equal the reference, prebuilt or computed", async (id) => {
    for (const { path, query } of randomWindows(id, 200)) {
      expectPage(await fetched(await prebuilt(path)), id, query);
      expectPage(await fetched(await computed(path)), id, query);
    }
  });

  it("answers every prebuilt query with the prebuilt file's bytes, and computes the same bytes", async () => {
    let compared = 0;
    for (const id of IDS) {
      const files = fg.sync(`api/v1/${id}/limit-*/offset-*.json`, { cwd: out });
      expect(files.length).toBeGreaterThanOrEqual(7);
      for (const file of [...files, `api/v1/${id}/index.json`]) {
        const [, limit, offset] = /limit-(\d+)\/offset-(\d+)/.exec(file) ?? [null, "500", "0"];
        const bytes = readFileSync(join(out, file));
        const path = `/api/v1/${id}?limit=${limit}&offset=${offset}`;
        const [served, made] = [await fetched(await prebuilt(path)), await fetched(await computed(path))];
        expect(served.bytes.equals(bytes), `${path} served`).toBe(true);
        expect(made.bytes.equals(bytes), `${path} computed`).toBe(true);
        expect(served.headers.get("etag")).toBe(etagOf(bytes));
        expect(made.headers.get("etag")).toBe(etagOf(bytes));
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(16);
  });

  it("never answers arbitrary query strings with anything but 200 or a well-formed 400 (property, 300 runs)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IDS), arbitraryQueryString, async (id, qs) => {
        expectPageOrBadRequest(await fetched(await computed(`/api/v1/${id}?${qs}`)), id);
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
