/**
 * The handler over a build of the synthetic history with one history shard per
 * sub-series against the default build (one shard): every `as_of` question
 * (points, `at`, CSV, provenance, derived: frequency, units, per, real) and every
 * `/changes` question (since each day, series lists and patterns, pages) has the
 * same status and body.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Assets } from "../../src/api/data-store.js";
import { Api } from "../../src/api/handler.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { runCli, tempDir } from "../helpers.js";
import { syntheticHistory } from "../history-repo.js";

function handler(assets: Assets) {
  const api = new Api();
  return (path: string) => api.fetch(new Request(`http://api.test${path}`), { ASSETS: assets, RATE_LIMIT_REQUESTS: "1000000", RATE_LIMIT_MAX_CLIENTS: "10" }, Date.parse("2030-01-01"));
}

let sharded: string;
let whole: string;

beforeAll(async () => {
  const repo = await syntheticHistory();
  [sharded, whole] = [join(await tempDir(), "dist"), join(await tempDir(), "dist")];
  for (const [dir, extra] of [[sharded, ["--shard-bytes", "1"]], [whole, []]] as const) {
    const r = await runCli(["build", "--data", repo.data, "--out", dir, "--no-base", ...extra], { SOURCE_DATE_EPOCH: String(Date.UTC(2026, 7, 1) / 1000) });
    expect(r.code, r.stderr).toBe(0);
  }
});

const DAYS = ["2026-01-10", "2026-02-10", "2026-03-10", "2026-04-10", "2026-05-10", "2026-06-10", "2026-07-10"];

describe("history shards through the handler", () => {
  it("answer as_of as the one table does", async () => {
    const a = handler(folderAssets(sharded));
    const b = handler(folderAssets(whole));
    const questions = [
      "",
      "limit=1&offset=1",
      "series=monthly",
      "series=hourly,monthly",
      "series=*ly",
      "series=h*&format=csv",
      "format=csv&dialect=es",
      "provenance=true",
      "at=2025-08-01",
      "at=2026-04-15&series=hourly",
      "at=2026-09-01",
      "from=2025-07-01&to=2026-01-01",
      "frequency=annual",
      "units=percent_change",
      "units=index&base=2025-07-01",
      "per=wages:hourly&series=monthly",
      "real=2026-01",
      "real=2026-01&series=monthly&frequency=annual",
    ];
    let ok = 0;
    for (const indicator of ["wages", "prices"]) {
      for (const day of DAYS) {
        for (const q of questions) {
          const path = `/api/v1/${indicator}?as_of=${day}${q === "" ? "" : `&${q}`}`;
          const [x, y] = await Promise.all([a(path), b(path)]);
          expect(x.status, path).toBe(y.status);
          expect(await x.text(), path).toBe(await y.text());
          if (x.status === 200) ok++;
        }
      }
    }
    expect(ok).toBeGreaterThan(100);
  });

  it("list /changes as the one table does, a selection being the list of every sub-series filtered", async () => {
    const a = handler(folderAssets(sharded));
    const b = handler(folderAssets(whole));
    for (const indicator of ["wages", "prices"]) {
      for (const day of DAYS) {
        for (const q of ["", "limit=1", "limit=2&offset=1", "format=csv", "series=hourly", "series=*", "series=monthly,hourly&limit=1&offset=1", "series=h*,m*&format=csv", "series=general"]) {
          const path = `/api/v1/${indicator}/changes?since=${day}${q === "" ? "" : `&${q}`}`;
          const [x, y] = await Promise.all([a(path), b(path)]);
          expect(x.status, path).toBe(y.status);
          expect(await x.text(), path).toBe(await y.text());
        }
      }
    }
  });
});
