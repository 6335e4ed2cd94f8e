/**
 * Real analysis clients: Debian's pandas reads one health insurance sub-series as
 * CSV straight from the API served by workerd, in one `pd.read_csv(url)` call; the
 * indicator page's snippets (pandas, R, fetch) run as offered.
 *
 * Python and R run as asynchronous child processes (`runProcess`), not `spawnSync`:
 * while the event loop was blocked, this file's idle keep-alive socket outlived
 * workerd's 5 s idle timeout, and the next page fetch failed with "other side closed".
 */
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { refs } from "../api-checks.js";
import { ROOT, runProcess } from "../helpers.js";
import type { RefIndicator } from "../reference.js";

const url = `${inject("system").urls.main}/api/v1/health-insurance-prices?series=casmu.consult-general-medicine.fonasa&format=csv`;

beforeAll(async () => {
  const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-python.sh")]);
  expect(ensured.code, ensured.stderr).toBe(0);
}, 300_000);

describe("pandas", () => {
  it("reads a sub-series with pd.read_csv(url): its 17 rows with the published values", async () => {
    // Debian's packages are installed for Debian's Python, not for another python3 first on PATH.
    const program = [
      "import json, sys, pandas as pd",
      "df = pd.read_csv(sys.argv[1])",
      "print(json.dumps({'columns': list(df.columns), 'rows': [[r.date, r.series, float(r.value)] for r in df.itertuples()]}))",
    ].join("\n");
    const run = await runProcess("/usr/bin/python3", ["-c", program, url]);
    expect(run.code, run.stderr).toBe(0);
    const read = JSON.parse(run.stdout) as { columns: string[]; rows: [string, string, number][] };
    expect(read.columns).toEqual(["date", "series", "value", "source", "note"]);
    const expected = (refs.get("health-insurance-prices") as RefIndicator).points
      .filter((p) => p.series === "casmu.consult-general-medicine.fonasa")
      .sort((a, b) => (a.date < b.date ? 1 : -1))
      .map((p) => [p.date, p.series, Number(p.raw)]);
    // One price per published list: 17, the newest from 2026-07-01.
    expect(read.rows).toHaveLength(17);
    expect(read.rows).toEqual(expected);
  });
});

describe("status.json", () => {
  it("reads every indicator's freshness with pd.json_normalize over the served document", async () => {
    const program = [
      "import json, sys, urllib.request, pandas as pd",
      "doc = json.load(urllib.request.urlopen(sys.argv[1]))",
      "df = pd.json_normalize(doc['indicators']).set_index('id')",
      "df['next_due'] = pd.to_datetime(df['next_due'])",
      "df['data_changed'] = pd.to_datetime(df['data_changed'])",
      "print(json.dumps({'rows': len(df), 'overdue': sorted(df.index[df['overdue']]), 'next': {k: str(v.date()) for k, v in df['next_due'].dropna().items()}, 'unchecked': bool(df['checked'].isna().all()), 'changed': {k: str(v.date()) for k, v in df['data_changed'].items()}}))",
    ].join("\n");
    const run = await runProcess("/usr/bin/python3", ["-c", program, `${inject("system").urls.main}/api/v1/status.json`]);
    expect(run.code, run.stderr).toBe(0);
    const read = JSON.parse(run.stdout) as { rows: number; overdue: string[]; next: Record<string, string>; unchecked: boolean; changed: Record<string, string> };
    expect(read.rows).toBe(6);
    // No check is recorded for any indicator (checked null); data_changed, the day its points last changed, is a day no later than the data version (2026-11-20).
    expect(read.unchecked).toBe(true);
    expect(Object.keys(read.changed)).toHaveLength(6);
    for (const [id, day] of Object.entries(read.changed)) expect(day <= "2026-11-20", `${id}: ${day}`).toBe(true);
    // The domestic wages' July 2026 values are in the data: their next is January 2027's, not yet due.
    expect(read.overdue).toEqual(["consumer-price-index", "unidad-indexada"]);
    expect(read.next).toEqual({
      bpc: "2027-01-01",
      "consumer-price-index": "2026-09-05",
      "domestic-worker-wages": "2027-01-01",
      "national-minimum-wage": "2027-01-01",
      "unidad-indexada": "2026-09-06",
    });
  });
});

/** The code of a snippet the indicator page offers, its addresses pointed at the local server (as the page script does, src/site/client/origin.ts). */
async function snippet(key: string): Promise<string> {
  const server = inject("system").urls.main;
  const page = await (await fetch(`${server}/series/health-insurance-prices/`)).text();
  const code = new RegExp(`<code id="snippet-${key}"[^>]*>([^<]*)</code>`).exec(page)?.[1] ?? "";
  const text = code.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return text.replaceAll("https://open-series-uy.pages.dev", server);
}

describe("the code snippets of the indicator page, run as offered", () => {
  const expected = () =>
    (refs.get("health-insurance-prices") as RefIndicator).points.filter((p) => p.series === "casmu.consult-general-medicine.fonasa").map((p) => Number(p.raw));

  it("Python (pandas): the default selection's 17 prices, dates parsed", async () => {
    const code = await snippet("python");
    expect(code).toContain("pd.read_csv(");
    const program = `${code}\nimport json\nprint(json.dumps({'n': len(df), 'dtype': str(df['date'].dtype), 'values': sorted(float(v) for v in df['value'])}))`;
    const run = await runProcess("/usr/bin/python3", ["-c", program]);
    expect(run.code, run.stderr).toBe(0);
    const read = JSON.parse(run.stdout) as { n: number; dtype: string; values: number[] };
    expect(read.n).toBe(17);
    expect(read.dtype).toMatch(/^datetime64/);
    expect(read.values).toEqual(expected().sort((a, b) => a - b));
  });

  it("R (read.csv): the same 17 prices, dates as Date", async () => {
    const ensured = await runProcess("bash", [join(ROOT, "scripts/ensure-r.sh")]);
    expect(ensured.code, ensured.stderr).toBe(0);
    const code = await snippet("r");
    expect(code).toContain("read.csv(");
    const program = `${code}\ncat(nrow(df), class(df$date), sprintf("%.15g", sort(df$value)), sep = "\\n")`;
    const run = await runProcess("Rscript", ["-e", program]);
    expect(run.code, run.stderr).toBe(0);
    const [rows, type, ...values] = run.stdout.trim().split("\n");
    expect([rows, type]).toEqual(["17", "Date"]);
    expect(values.map(Number)).toEqual(expected().sort((a, b) => a - b));
  }, 300_000);

  it("JavaScript (fetch): data and meta of the same selection", async () => {
    const code = await snippet("js");
    expect(code).toContain("await fetch(");
    // The snippet is top-level-await code, as in a module or a browser console.
    type Answer = { data: { value: number }[]; meta: { total: number } };
    const AsyncFunction = (Object.getPrototypeOf(async () => {
      await Promise.resolve();
    }) as { constructor: new (body: string) => () => Promise<Answer> }).constructor;
    const { data, meta } = await new AsyncFunction(`${code}\nreturn { data, meta };`)();
    expect(meta.total).toBe(17);
    expect(data.map((p) => p.value).sort((a, b) => a - b)).toEqual(expected().sort((a, b) => a - b));
  });
});
