/**
 * A real analysis client: Debian's pandas reads one health insurance sub-series as
 * CSV straight from the API served by workerd, in one `pd.read_csv(url)` call.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { refs } from "../api-checks.js";
import { ROOT } from "../helpers.js";
import type { RefIndicator } from "../reference.js";

const url = `${inject("system").urls.main}/api/v1/health-insurance-prices?series=casmu.consult-general-medicine.fonasa&format=csv`;

beforeAll(() => {
  const ensured = spawnSync("bash", [join(ROOT, "scripts/ensure-python.sh")], { encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
}, 300_000);

describe("pandas", () => {
  it("reads a sub-series with pd.read_csv(url): its 16 rows with the published values", () => {
    // Debian's packages are installed for Debian's Python, not for another python3 first on PATH.
    const program = [
      "import json, sys, pandas as pd",
      "df = pd.read_csv(sys.argv[1])",
      "print(json.dumps({'columns': list(df.columns), 'rows': [[r.date, r.series, float(r.value)] for r in df.itertuples()]}))",
    ].join("\n");
    const run = spawnSync("/usr/bin/python3", ["-c", program, url], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const read = JSON.parse(run.stdout) as { columns: string[]; rows: [string, string, number][] };
    expect(read.columns).toEqual(["date", "series", "value", "source", "note"]);
    const expected = (refs.get("health-insurance-prices") as RefIndicator).points
      .filter((p) => p.series === "casmu.consult-general-medicine.fonasa")
      .sort((a, b) => (a.date < b.date ? 1 : -1))
      .map((p) => [p.date, p.series, Number(p.raw)]);
    expect(read.rows).toHaveLength(16);
    expect(read.rows).toEqual(expected);
  });
});
