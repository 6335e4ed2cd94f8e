/**
 * The guard of ETags without a body hash (src/core/answer/etag.ts): answers of the golden
 * fixture, plain and derived, pinned with the SHA-256 of their bytes and their
 * ETag. When the code changes an answer's bytes for the same data and query, its
 * ETag must change too, which only raising `ANSWER_CODE_VERSION`
 * (src/core/answer/contract.ts) does: a body that changed under an unchanged ETag fails
 * here. After an intended change, raise the version and regenerate the pins with
 * `UPDATE_GOLDEN=1 npx vitest run test/integration/etag-pins.test.ts`; review the diff.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT, runCli, tempDir } from "../helpers.js";

const PINS = join(ROOT, "test/fixtures/golden/answer-pins.json");
const QUERIES = [
  "",
  "?limit=2&offset=2",
  "?series=monthly&format=csv",
  "?at=2024-03-15",
  "?series=monthly&frequency=quarter",
  "?frequency=year&aggregation=end&format=csv",
  "?units=percent_change",
  "?series=monthly&units=index&base=2023-07",
  "?series=monthly&per=tiny-wages:hourly&frequency=semester",
  "?units=change_a_year_ago&at=2024-08-01",
];

let answers: Record<string, { body: string; etag: string }>;

beforeAll(async () => {
  const out = join(await tempDir(), "dist");
  const r = await runCli(["build", "--data", "test/fixtures/golden/data", "--out", out, "--limits", "2"], { SOURCE_DATE_EPOCH: "1700000000" });
  expect(r.code, r.stderr).toBe(0);
  const api = new Api();
  answers = {};
  for (const query of QUERIES) {
    const response = await api.fetch(new Request(`http://api.test/api/v1/tiny-wages${query}`), { ASSETS: folderAssets(out), RATE_LIMIT_REQUESTS: "1000" });
    expect(response.status, query).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    answers[query] = { body: createHash("sha256").update(bytes).digest("hex"), etag: response.headers.get("etag") as string };
  }
});

describe("ETags of answers", () => {
  it("change whenever an answer's bytes change (pinned answers of the golden fixture)", () => {
    const pins = JSON.parse(readFileSync(PINS, "utf8")) as Record<string, { body: string; etag: string }>;
    const stale = QUERIES.filter((q) => pins[q] !== undefined && pins[q].body !== answers[q]?.body && pins[q].etag === answers[q]?.etag);
    expect(stale, "these answers' bytes changed but not their ETags: raise ANSWER_CODE_VERSION in src/core/answer/contract.ts").toEqual([]);
    if (process.env.UPDATE_GOLDEN === "1" && process.env.CI === undefined) writeFileSync(PINS, `${JSON.stringify(answers, null, 2)}\n`);
    else expect(answers, "the pinned answers changed: review, then regenerate with UPDATE_GOLDEN=1").toEqual(pins);
  });

  it("differ between different answers", () => {
    const etags = Object.values(answers).map((a) => a.etag);
    expect(new Set(etags).size).toBe(etags.length);
  });
});
