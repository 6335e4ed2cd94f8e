/** The contract's single homes: the prebuilt key of a query, the config's faults (the routes: test/integration/routes.test.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSiteConfig } from "../../src/builder/site-config.js";
import { isPrebuiltQuery, prebuiltPage, prebuiltPagePath } from "../../src/core/file/manifest.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/indicator/model.js";
import { outputFile } from "../../src/core/file/paths.js";
import { DataError, formatIssue } from "../../src/source/errors.js";

describe("prebuiltPage", () => {
  // Limit 10 at offsets 0, 10, 20 (the page at 10 left to the function), limit 500 not prebuilt: index.json answers the default.
  const entry = { lastModified: "", answers: "", tag: "", pages: { "10": [1_000, 0, 900] }, index: 5_000, longest: 25, history: { path: null, tag: "", days: [] } };

  it("finds the page of a query of limit and offset alone, with its size and its next page while a sub-series goes on", () => {
    expect(prebuiltPage("x", entry, { ...DEFAULT_QUERY, limit: 10, offset: 0 })).toEqual({ path: "/api/v1/x/limit-10/offset-0.json", next: "/api/v1/x?limit=10&offset=10", bytes: 1_000 });
    expect(prebuiltPage("x", entry, { ...DEFAULT_QUERY, limit: 10, offset: 20 })).toEqual({ path: "/api/v1/x/limit-10/offset-20.json", next: null, bytes: 900 });
    expect(prebuiltPage("x", entry, DEFAULT_QUERY)).toEqual({ path: "/api/v1/x/index.json", next: null, bytes: 5_000 });
  });

  it("finds none for a page left to the function, an offset off the grid or past the end, a limit not prebuilt", () => {
    for (const [limit, offset] of [[10, 10], [10, 5], [10, 30], [20, 0], [500, 500]] as const) expect(prebuiltPage("x", entry, { ...DEFAULT_QUERY, limit, offset }), `${limit}/${offset}`).toBeUndefined();
    expect(prebuiltPage("x", { ...entry, index: 0 }, DEFAULT_QUERY)).toBeUndefined();
  });

  it("finds none whenever any other field is set, including fields added later", () => {
    fc.assert(
      fc.property(fc.constantFrom("from", "to", "series", "format", "some_later_field"), fc.string({ minLength: 1 }), (field, value) => {
        const query = { ...DEFAULT_QUERY, limit: 10, [field]: value } as PageQuery;
        expect(isPrebuiltQuery(query)).toBe(false);
        expect(prebuiltPage("x", entry, query)).toBeUndefined();
      }),
    );
  });

  it("names the prebuilt page's file", () => {
    expect(prebuiltPagePath("x", 10, 20)).toBe("/api/v1/x/limit-10/offset-20.json");
    expect(outputFile(prebuiltPagePath("x", 10, 20))).toBe("api/v1/x/limit-10/offset-20.json");
    expect(outputFile("/series/x/")).toBe("series/x/index.html");
  });
});

describe("site.config.json", () => {
  const faults = (text: string, baseUrl?: string): string[] => {
    try {
      parseSiteConfig(text, "site.config.json", baseUrl);
    } catch (error) {
      expect(error).toBeInstanceOf(DataError);
      return (error as DataError).issues.map(formatIssue);
    }
    throw new Error("expected a fault");
  };

  it("reports each faulty field as file: field: reason", () => {
    expect(faults(JSON.stringify({ name: "", baseUrl: "ftp://x", attributionText: 3 }))).toEqual([
      "site.config.json: name: must not be empty",
      "site.config.json: baseUrl: expected an http(s) URL",
      "site.config.json: attributionText: expected a string",
    ]);
    expect(faults(JSON.stringify({ name: "n", baseUrl: "https://x.test", attributionText: "a", extra: 1 }))[0]).toMatch(/^site\.config\.json: \(root\): /);
  });

  it("locates a JSON syntax error by line", () => {
    expect(faults('{\n  "name": "n",\n  oops\n}')[0]).toMatch(/^site\.config\.json:3: invalid JSON/);
  });

  it("takes --site-url over the file's base URL, without a final slash", () => {
    const config = parseSiteConfig(JSON.stringify({ name: "n", baseUrl: "https://a.test", attributionText: "a" }), "f", "https://b.test/");
    expect(config.baseUrl).toBe("https://b.test");
  });
});

describe("ETags", () => {
  it("answerEtag: the first 128 bits of SHA-256 of the tags and the canonical URL, base64url, quoted (property)", async () => {
    const { answerEtag } = await import("../../src/core/answer/etag.js");
    const { createHash } = await import("node:crypto");
    // Any text for the URL, non-ASCII included (fc.webPath builds tables costing a second at its first use).
    const url = fc.string({ unit: "grapheme", maxLength: 200 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.base64String({ minLength: 20, maxLength: 24 }), { minLength: 1, maxLength: 3 }), url, async (tags, url) => {
        const expected = `"${createHash("sha256").update(`${tags.join(" ")}\n${url}`).digest().subarray(0, 16).toString("base64url")}"`;
        expect(await answerEtag(tags, url)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("dataTag: SHA-256 of the answers' code version and the answer file; another version or byte changes it", async () => {
    const { dataTag } = await import("../../src/core/answer/etag.js");
    const { ANSWER_CODE_VERSION } = await import("../../src/core/answer/contract.js");
    const { createHash } = await import("node:crypto");
    const file = new Uint8Array([79, 83, 65, 50, 0, 1, 2]);
    const expected = createHash("sha256").update(Buffer.concat([Buffer.from(`${ANSWER_CODE_VERSION}\n`), file])).digest().subarray(0, 16).toString("base64url");
    expect(dataTag(file)).toBe(expected);
    expect(dataTag(new Uint8Array([79, 83, 65, 50, 0, 1, 3]))).not.toBe(expected);
  });

  it("dataTagger: the same tag over shards added one by one, hashed in JavaScript or by Node's native SHA-256 (as the build does)", async () => {
    const { dataTag, dataTagger } = await import("../../src/core/answer/etag.js");
    const { createHash } = await import("node:crypto");
    const shards = [new Uint8Array([79, 83, 65, 50]), new Uint8Array(70_000).map((_, i) => i % 251), new Uint8Array([2])];
    const whole = dataTag(shards);
    for (const tagger of [dataTagger(), dataTagger(createHash("sha256"))]) {
      shards.forEach((s) => tagger.add(s));
      expect(tagger.tag()).toBe(whole);
    }
    expect(dataTag(Buffer.concat(shards))).toBe(whole);
  });
});
