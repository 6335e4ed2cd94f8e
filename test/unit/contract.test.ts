/** The contract's single homes: the prebuilt key of a query, the config's faults, the route. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSiteConfig } from "../../src/build/site-config.js";
import { prebuiltKey, prebuiltPagePath } from "../../src/core/manifest.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/model.js";
import { ENDPOINT_ROUTE, outputFile } from "../../src/core/paths.js";
import { DataError, formatIssue } from "../../src/source/errors.js";

describe("prebuiltKey", () => {
  it("keys a query of limit and offset alone", () => {
    expect(prebuiltKey(DEFAULT_QUERY)).toBe("500/0");
    expect(prebuiltKey({ ...DEFAULT_QUERY, limit: 10, offset: 30 })).toBe("10/30");
  });

  it("is null whenever any other field is set, including fields added later", () => {
    fc.assert(
      fc.property(fc.constantFrom("from", "to", "series", "format"), fc.string({ minLength: 1 }), (field, value) => {
        const query: PageQuery = { ...DEFAULT_QUERY, [field]: value };
        expect(prebuiltKey(query)).toBeNull();
      }),
    );
  });

  it("names the prebuilt page's file", () => {
    expect(prebuiltPagePath("x", 10, 20)).toBe("/api/v1/x/limit-10/offset-20.json");
    expect(outputFile(prebuiltPagePath("x", 10, 20))).toBe("api/v1/x/limit-10/offset-20.json");
    expect(outputFile("/series/x/")).toBe("series/x/index.html");
  });
});

describe("the endpoint route", () => {
  it.each([
    ["/api/v1/domestic-worker-wages", "domestic-worker-wages"],
    ["/api/v1/x/", "x"],
    ["/api/v1/%20x", "%20x"],
    ["/api/v1", null],
    ["/api/v1/x/data.csv", null],
    ["/api/v2/x", null],
  ])("%s → %s", (path, id) => {
    expect(ENDPOINT_ROUTE.exec(path)?.[1] ?? null).toBe(id);
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

describe("strongEtag", () => {
  it("is the first 128 bits of SHA-256, base64url, quoted, on either side of the synchronous size (property)", async () => {
    const { strongEtag, SYNC_HASH_MAX_BYTES } = await import("../../src/core/etag.js");
    const { createHash } = await import("node:crypto");
    const sizes = fc.oneof(fc.integer({ min: 0, max: 64 }), fc.integer({ min: SYNC_HASH_MAX_BYTES - 8, max: SYNC_HASH_MAX_BYTES + 8 }), fc.integer({ min: 0, max: 40_000 }));
    await fc.assert(
      fc.asyncProperty(sizes, fc.integer(), async (size, seed) => {
        const bytes = new Uint8Array(size).map((_, i) => (i * 31 + seed) & 255);
        const expected = `"${createHash("sha256").update(bytes).digest().subarray(0, 16).toString("base64url")}"`;
        expect(await strongEtag(bytes)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
