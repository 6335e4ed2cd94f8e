/**
 * The questions about time on the real data, answered by the handler workerd runs
 * (`Api`) called in Node: seeded random questions against the independent
 * reference (test/time-reference.ts), and properties over random combinations of
 * the parameters (fast-check): never a 5xx, a 400 names its parameter, the same
 * bytes for the same question however its parameters are ordered, JSON and CSV
 * agree. test/e2e/time-oracle.test.ts checks the same through workerd with pandas.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "../../src/api/handler.js";
import { PARAMETERS } from "../../src/core/answer/parameters.js";
import { MAX_DERIVED_POINTS } from "../../src/core/answer/contract.js";
import { prng } from "../../scripts/bench/generate.js";
import { HIGH, IDS, fetched, refs, withoutTiles, type Fetched } from "../api-checks.js";
import type { Assets } from "../../src/api/data-store.js";
import { folderAssets } from "../../scripts/lib/folder-assets.js";
import { ROOT } from "../files.js";
import { refDerivedSeries, type TimeRefIndicator, type TimeRefQuery } from "../time-reference.js";

/** A data version after every point (2026-11-20), so the newest values cover months, as in production. */
const VERSION = "2026-11-20";

let get: (path: string, init?: RequestInit) => Promise<Fetched>;
let out: string;
const indicators = new Map<string, TimeRefIndicator>();

beforeAll(() => {
  out = inject("realDist");
  const api = new Api();
  const env = { ASSETS: folderAssets(out), ...HIGH };
  get = async (path, init) => fetched(await api.fetch(new Request(`http://api.test${path}`, init), env));
  for (const id of IDS) {
    const meta = JSON.parse(readFileSync(join(ROOT, "data", id, "indicator.json"), "utf8")) as { rhythm: string; stepwise?: boolean; schedule?: { dates: TimeRefIndicator["schedule"] } };
    const schedule = meta.schedule?.dates;
    indicators.set(id, { ...(refs.get(id) as TimeRefIndicator), rhythm: meta.rhythm, stepwise: meta.stepwise ?? false, version: VERSION, ...(schedule === undefined ? {} : { schedule }) });
  }
}, 120_000);

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const idsOf = (id: string) => [...new Set((refs.get(id) as TimeRefIndicator).points.map((p) => p.series))].sort();

/** A random valid question: parameters as the URL carries them, and as the reference takes them. */
function randomQuestion(random: () => number): { id: string; params: Record<string, string> } {
  const id = pick(random, IDS);
  const all = idsOf(id);
  const series = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, all)))];
  const params: Record<string, string> = { series: series.join(",") };
  const year = () => String(2000 + Math.floor(random() * 27));
  const month = () => `${year()}-${String(1 + Math.floor(random() * 12)).padStart(2, "0")}`;
  const stepwise = (indicators.get(id) as TimeRefIndicator).stepwise;
  if (random() < 0.25) params.at = `${month()}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`;
  else {
    if (random() < 0.5) params.frequency = pick(random, stepwise ? ["month", "quarter", "semester", "year"] : ["month", "quarter", "year"]);
    if (params.frequency !== undefined && random() < 0.6) params.aggregation = pick(random, ["mean", "end", "min", "max"]);
    if (random() < 0.4) params.from = random() < 0.5 ? year() : month();
    if (random() < 0.2) params.to = month();
    if (params.from !== undefined && params.to !== undefined && params.from > params.to) delete params.to;
  }
  const currency = (indicators.get(id) as TimeRefIndicator).unit === "UYU";
  const r = random();
  if (r < 0.25) params.per = pick(random, ["domestic-worker-wages:hourly", "domestic-worker-wages:monthly", "national-minimum-wage:monthly", "consumer-price-index:general"]);
  else if (r < 0.5 && currency) params.real = pick(random, ["2026-07", "2010-01", "2019-06", "2000-12"]);
  if (random() < 0.6) {
    params.units = pick(random, ["level", "change", "percent_change", "change_a_year_ago", "percent_change_a_year_ago", "index"]);
    if (params.units === "index") params.base = random() < 0.5 ? year() : month();
  }
  if (random() < 0.3) params.limit = String(1 + Math.floor(random() * 20));
  if (random() < 0.2) params.offset = String(Math.floor(random() * 5));
  return { id, params };
}

const url = (id: string, params: Record<string, string>) => `/api/v1/${id}?${new URLSearchParams(params).toString().replaceAll("%2C", ",").replaceAll("%3A", ":")}`;

/** Day resolution of a date parameter (the README: `from` and `at`, `base` to the first day, `to` to the last). */
function resolve(text: string, edge: "start" | "end"): string {
  if (text.length === 10) return text;
  if (text.length === 4) return edge === "start" ? `${text}-01-01` : `${text}-12-31`;
  if (edge === "start") return `${text}-01`;
  const [y, m] = text.split("-").map(Number) as [number, number];
  return `${text}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
}

/** The reference's answer: every selected sub-series' derived points, in the API's order, paged. */
function referenceAnswer(id: string, params: Record<string, string>) {
  const limit = Number(params.limit ?? 500);
  const offset = Number(params.offset ?? 0);
  let total = 0;
  let hasMore = false;
  let baseFound = false;
  const points: [string, string, number][] = [];
  for (const series of (params.series as string).split(",").sort()) {
    const [perId, perSeries] = params.per?.split(":") ?? [];
    const q: TimeRefQuery = {
      series,
      at: params.at === undefined ? undefined : resolve(params.at, "start"),
      from: params.from === undefined ? undefined : resolve(params.from, "start"),
      to: params.to === undefined ? undefined : resolve(params.to, "end"),
      frequency: params.frequency,
      aggregation: params.aggregation,
      per: perId === undefined ? undefined : { indicator: indicators.get(perId) as TimeRefIndicator, series: perSeries as string },
      real: params.real === undefined ? undefined : { cpi: indicators.get("consumer-price-index") as TimeRefIndicator, series: "general", month: params.real },
      units: params.units,
      base: params.base === undefined ? undefined : resolve(params.base, "start"),
    };
    const derived = refDerivedSeries(indicators.get(id) as TimeRefIndicator, q);
    if (derived === null) continue;
    baseFound = true;
    total += derived.length;
    if (derived.length > offset + limit) hasMore = true;
    for (const [date, value] of derived.slice(offset, offset + limit)) points.push([date, series, value]);
  }
  points.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? 1 : -1));
  return { points, total, hasMore, baseFound };
}

/** Equal to the documented rounding: 8 significant digits (one unit of the last digit of slack for the order of sums). */
const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(1e-7 * Math.abs(b), 1e-12);

describe("questions about time on the real data, against the independent reference", () => {
  it("200 seeded random questions: the same points, values to the documented rounding, total and has_more", async () => {
    const random = prng(20261123);
    let answered = 0;
    let points = 0;
    for (let n = 0; n < 200; n++) {
      const { id, params } = randomQuestion(random);
      const path = url(id, params);
      const r = await get(path);
      const expected = referenceAnswer(id, params);
      if (params.units === "index" && !expected.baseFound) {
        expect(r.status, `${path}: ${r.text}`).toBe(400);
        expect((JSON.parse(r.text) as { error: { detail: string } }).error.detail).toMatch(/^base: /);
        continue;
      }
      if (r.status === 400 && /^real: consumer-price-index has no value/.test(r.text)) continue;
      expect(r.status, `${path}: ${r.text}`).toBe(200);
      const body = JSON.parse(r.text) as { data: { date: string; series: string; value: number }[]; meta: { total: number; has_more: boolean } };
      const actual = body.data.map((p) => [p.date, p.series, p.value] as const);
      expect(actual.map(([d, s]) => `${s}@${d}`), path).toEqual(expected.points.map(([d, s]) => `${s}@${d}`));
      actual.forEach(([, , value], i) => expect(close(value, expected.points[i]?.[2] as number), `${path}: ${value} vs ${expected.points[i]?.[2]}`).toBe(true));
      expect(body.meta.total, path).toBe(expected.total);
      expect(body.meta.has_more, path).toBe(expected.hasMore);
      answered++;
      points += actual.length;
    }
    expect(answered).toBeGreaterThan(130);
    expect(points).toBeGreaterThan(1500);
  }, 240_000);
});

/** Random values for every parameter, valid and not. */
const anyParams = fc.record(
  {
    series: fc.constantFrom("monthly", "hourly,monthly", "general", "casmu.*", "nope", "*"),
    at: fc.constantFrom("2025-03-15", "2025", "1900-01-01", "2025-02-30", ""),
    from: fc.constantFrom("2019", "2024-06", "2030"),
    to: fc.constantFrom("2025-12-31", "2010"),
    frequency: fc.constantFrom("month", "quarter", "semester", "year", "week"),
    aggregation: fc.constantFrom("mean", "end", "min", "max", "sum"),
    per: fc.constantFrom("domestic-worker-wages:hourly", "consumer-price-index:general", "x:y", "nope", "national-minimum-wage:monthly"),
    real: fc.constantFrom("2026-07", "2030-01", "2020", "1937-07"),
    units: fc.constantFrom("level", "change", "percent_change", "change_a_year_ago", "percent_change_a_year_ago", "index", "log"),
    base: fc.constantFrom("2019-01-01", "2015", "1800"),
    limit: fc.constantFrom("1", "3", "500", "0"),
    offset: fc.constantFrom("0", "1", "7"),
  },
  { requiredKeys: [] },
);

describe("properties of questions about time (fast-check)", () => {
  it("never a 5xx; a 400 names a parameter; the same bytes and ETag in any parameter order; JSON and CSV agree", async () => {
    const named = new RegExp(`^(${PARAMETERS.join("|")}): `);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IDS), anyParams, fc.integer(), async (id, params, seed) => {
        const entries = Object.entries(params);
        const path = url(id, Object.fromEntries(entries));
        const r = await get(path);
        expect(r.status, `${path}: ${r.text}`).toBeLessThan(500);
        if (r.status !== 200) {
          expect(r.status, path).toBe(400);
          expect((JSON.parse(r.text) as { error: { detail: string } }).error.detail, path).toMatch(named);
          return;
        }
        // The same question with its parameters shuffled: the same bytes and ETag.
        const shuffled = [...entries].sort((a, b) => ((a[0].length * 31 + seed) % 7) - ((b[0].length * 31 + seed) % 7));
        const again = await get(url(id, Object.fromEntries(shuffled)));
        expect(again.bytes.equals(r.bytes), path).toBe(true);
        expect(again.headers.get("etag")).toBe(r.headers.get("etag"));
        // JSON and CSV: the same points, values as the same text.
        const csv = await get(`${path}&format=csv`);
        expect(csv.status, path).toBe(200);
        const rows = parse<Record<string, string>>(csv.text, { columns: true });
        const data = (JSON.parse(r.text) as { data: { date: string; series: string; value: number }[] }).data;
        const json = [...r.text.matchAll(/"value":([^}]+)\}/g)].map((m) => m[1]);
        expect(rows.map((row) => `${row.series}@${row.date}=${row.value}`), path).toEqual(data.map((p, i) => `${p.series}@${p.date}=${json[i]}`));
        expect(csv.headers.get("x-total-count")).toBe(String((JSON.parse(r.text) as { meta: { total: number } }).meta.total));
      }),
      { numRuns: 250, seed: 20261123 },
    );
  }, 240_000);
});

describe("the cap on a derived answer's points (docs/time.md)", () => {
  it("answers exactly MAX_DERIVED_POINTS points, and refuses one more with a 400 naming limit", async () => {
    // Four providers' 42 sub-series each, per the monthly CPI: at least 60 points a sub-series, so
    // with limit=L they write 168 × L while L ≤ 60: the edge is limit=⌊cap/168⌋ and one more.
    const series = "casmu.*,cudam.*,smi.*,universal.*";
    const path = (limit: number) => `/api/v1/health-insurance-prices?series=${series}&per=consumer-price-index:general&limit=${limit}`;
    const under = Math.floor(MAX_DERIVED_POINTS / 168);
    expect(under + 1).toBeLessThanOrEqual(60);
    const ok = await get(path(under));
    expect(ok.status).toBe(200);
    expect((JSON.parse(ok.text) as { data: unknown[] }).data).toHaveLength(168 * under);
    const over = await get(path(under + 1));
    expect(over.status).toBe(400);
    expect(over.text).toMatch(/"detail":"limit: this answer would hold [\d,]+ points, over the [\d,]+ a derived answer may hold/);
  });
});

describe("a derived answer's HTTP", () => {
  it("answers If-None-Match with 304, HEAD with the GET's headers and no body, and links the next page", async () => {
    const path = "/api/v1/consumer-price-index?frequency=quarter&units=percent_change_a_year_ago&limit=4";
    const r = await get(path);
    expect(r.status).toBe(200);
    const etag = r.headers.get("etag") as string;
    const next = "/api/v1/consumer-price-index?frequency=quarter&aggregation=mean&units=percent_change_a_year_ago&limit=4&offset=4";
    expect(r.headers.get("link")).toBe(`<${next}>; rel="next", </api/v1/consumer-price-index/metadata.json>; rel="describedby"`);
    expect((JSON.parse(r.text) as { meta: { next: string } }).meta.next).toBe(next);
    const notModified = await get(path, { headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect(notModified.headers.get("etag")).toBe(etag);
    const head = await get(path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get("etag")).toBe(etag);
    // With real, the deflator's data is read too: its version counts in Last-Modified.
    const real = await get("/api/v1/national-minimum-wage?real=2026-07&limit=1");
    expect(real.headers.get("last-modified")).toBe(r.headers.get("last-modified"));
  });
});

describe("/llms.txt", () => {
  it("says what the service is, lists every indicator and parameter, and each example URL answers 200", async () => {
    const text = readFileSync(join(out, "llms.txt"), "utf8");
    // llmstxt.org: an H1, a blockquote summary, then H2 sections.
    expect(text.split("\n")[0]).toBe("# Open Series UY");
    expect(text).toMatch(/^> .+CC-BY-4\.0/m);
    expect([...text.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual(["Indicators", "Parameters", "Adjusting an amount", "Search", "Credit", "Machine-readable descriptions", "Optional"]);
    const search = /Example: (\/api\/v1\/search\S+)/.exec(text)?.[1] as string;
    expect((JSON.parse((await get(search)).text) as { meta: { total: number } }).meta.total).toBeGreaterThan(0);
    for (const id of IDS) expect(text).toContain(`id \`${id}\``);
    for (const name of PARAMETERS) expect(text).toMatch(new RegExp(`^- \`${name}\`: `, "m"));
    // Paths on the site serving the file (a mirror's llms.txt leads to the mirror); the search's example is the one above.
    const examples = [...text.matchAll(/Example: (\/\S+)/g)].map((m) => m[1] as string).filter((path) => path !== search);
    expect(examples.length).toBe(PARAMETERS.length);
    for (const path of examples) expect((await get(path)).status, path).toBe(200);
  });
});

describe("/api/v1/search", () => {
  interface Found {
    data: { indicator: string; series: string; facets: { name: string; value: string }[]; url: string }[];
    meta: { total: number; has_more: boolean; facets: Record<string, Record<string, number>> };
  }
  const find = async (query: string) => {
    const r = await get(`/api/v1/search?${query}`);
    expect(r.status, r.text).toBe(200);
    return { r, body: JSON.parse(r.text) as Found };
  };
  const metadata = () =>
    JSON.parse(readFileSync(join(out, "api/v1/health-insurance-prices/metadata.json"), "utf8")) as {
      facets: { name: string; values: string[] }[];
      series: { id: string; facets: (number | null)[] }[];
    };

  it("finds CASMU's gynaecology consultation first for 'casmu gineco', and the same in English", async () => {
    const { body } = await find("q=casmu%20gineco&limit=100");
    expect(body.data[0]?.series).toBe("casmu.consult-gynaecology.fonasa");
    expect(body.data.every((d) => d.series.startsWith("casmu."))).toBe(true);
    const english = await find("q=casmu%20gynaecology&limit=100");
    expect(english.body.data.map((d) => d.series)).toEqual(expect.arrayContaining(["casmu.consult-gynaecology.fonasa", "casmu.consult-gynaecology.no-fonasa"]));
    expect(english.body.data[0]?.series).toBe("casmu.consult-gynaecology.fonasa");
    // Each result's URL answers its sub-series.
    expect((await get(body.data[0]?.url as string)).status).toBe(200);
  });

  it.each([
    ["casmu gynecology", "health-insurance-prices", "casmu.consult-gynaecology.fonasa"],
    ["casmu pediatrics", "health-insurance-prices", "casmu.consult-paediatrics.fonasa"],
    ["inflation", "consumer-price-index", "general"],
    ["inflación", "consumer-price-index", "general"],
    ["sueldo mínimo", "national-minimum-wage", "monthly"],
    // The words people use (issue 36): declared as data, in indicator.json's search.
    ["salario doméstica", "domestic-worker-wages", "hourly"],
    ["trabajadora doméstica", "domestic-worker-wages", "hourly"],
    ["empleada doméstica", "domestic-worker-wages", "hourly"],
    ["alquiler", "unidad-indexada", "ui"],
    ["reajuste de alquiler", "unidad-indexada", "ui"],
    ["rent", "unidad-indexada", "ui"],
  ])("finds by the words indicator.json declares for search: '%s' → %s %s first", async (q, indicator, series) => {
    const { body } = await find(`q=${encodeURIComponent(q)}&limit=100`);
    expect(body.data[0]).toMatchObject({ indicator, series });
    // An American spelling finds what the British one does, no more, no less.
    if (q.startsWith("casmu ")) {
      const british = await find(`q=${encodeURIComponent(q.replace("gynecology", "gynaecology").replace("pediatrics", "paediatrics"))}&limit=100`);
      expect(body.data.map((d) => d.series)).toEqual(british.body.data.map((d) => d.series));
    } else expect(body.data.every((d) => d.indicator === indicator)).toBe(true);
  });

  it("finds CASMU's emergency consultations for 'casmu emergencia', and Asociación Española's sub-series for 'la española'", async () => {
    const emergency = await find("q=casmu%20emergencia&limit=100");
    expect(emergency.body.data.map((d) => d.series).sort()).toEqual([
      "casmu.consult-central-emergency.fonasa",
      "casmu.consult-central-emergency.no-fonasa",
      "casmu.consult-urgent-home-visit.fonasa",
      "casmu.consult-urgent-home-visit.no-fonasa",
    ]);
    const spanish = await find(`q=${encodeURIComponent("la española")}&limit=100`);
    expect(spanish.body.meta.total).toBeGreaterThan(20);
    expect(spanish.body.data.every((d) => d.series.startsWith("asociacion-espanola."))).toBe(true);
    expect(spanish.body.data[0]?.facets).toContainEqual(expect.objectContaining({ name: "provider", value: "Asociación Española" }));
  });

  it("is accent- and case-blind: 'Médica Uruguaya' and 'medica uruguaya' are the same answer, bytes and ETag", async () => {
    const [a, b] = [await find("q=M%C3%A9dica%20Uruguaya"), await find("q=medica%20uruguaya")];
    expect(a.r.bytes.equals(b.r.bytes)).toBe(true);
    expect(a.r.headers.get("etag")).toBe(b.r.headers.get("etag"));
    expect(a.body.meta.total).toBeGreaterThan(0);
    expect(a.body.data.every((d) => d.series.startsWith("medica-uruguaya."))).toBe(true);
    const notModified = await get("/api/v1/search?q=medica%20uruguaya", { headers: { "If-None-Match": a.r.headers.get("etag") as string } });
    expect(notModified.status).toBe(304);
  });

  it("counts facets as a count over the metadata document does, and filters by facet and indicator", async () => {
    const { body } = await find("q=casmu&indicator=health-insurance-prices&limit=1");
    const doc = metadata();
    const provider = doc.facets.findIndex((f) => f.name === "provider");
    const casmu = doc.series.filter((s) => doc.facets[provider]?.values[s.facets[provider] as number] === "CASMU");
    expect(body.meta.total).toBe(casmu.length);
    expect(body.meta.facets.provider).toEqual({ CASMU: casmu.length });
    const item = doc.facets.findIndex((f) => f.name === "item");
    const byItem: Record<string, number> = {};
    for (const s of casmu) {
      const value = doc.facets[item]?.values[s.facets[item] as number] as string;
      byItem[value] = (byItem[value] ?? 0) + 1;
    }
    expect(body.meta.facets.item).toEqual(byItem);
    expect(body.meta.has_more).toBe(true);
    const fonasa = await find("q=casmu&facet=regime:fonasa&limit=100");
    expect(fonasa.body.data.every((d) => d.facets.some((f) => f.name === "regime" && f.value === "FONASA"))).toBe(true);
    expect(fonasa.body.meta.total).toBe(casmu.length / 2);
  });

  it.each([
    ["", "q: required: the words to find, e.g. q=casmu gineco"],
    ["q=%20%20", 'q: expected 1 to 200 characters with at least one letter or digit, got "  "'],
    ["q=x&provider=CASMU", "provider: unknown parameter; the accepted ones are q, indicator, facet, limit, offset"],
    // Every indicator of data/, in the catalog's order.
    ["q=x&indicator=gdp", `indicator: there is no indicator "gdp"; the ids are ${IDS.join(", ")}`],
    ["q=x&facet=provider", 'facet: expected name:value pairs separated by commas (facet=provider:CASMU), got "provider"'],
    ["q=x&limit=101", 'limit: expected an integer from 1 to 100, got "101"'],
  ])("%j → 400 %j", async (query, detail) => {
    const r = await get(`/api/v1/search?${query}`);
    expect(r.status).toBe(400);
    expect((JSON.parse(r.text) as { error: { detail: string } }).error.detail).toBe(detail);
  });
});

describe("a day after the last check (the data version, 2026-11-20), through the handler", () => {
  type Missing = { reason: string; last: string | null; due: string | null; series: string[] };
  type Answer = { data: { date: string; series: string; value: number }[]; meta: { checked?: string | null; data_changed?: string; missing?: Missing[] } };
  const ask = async (path: string) => {
    const r = await get(path);
    expect(r.status, path).toBe(200);
    return JSON.parse(r.text) as Answer;
  };
  const CASMU = "/api/v1/health-insurance-prices?series=casmu.consult-general-medicine.fonasa&at=";
  /**
   * The last look: no check is recorded in data/ (checked null), and the points' last change is bounded by the
   * version (data_changed: the build cannot know of a change after it), so it is the version's day.
   */
  const LOOK = { checked: null, data_changed: VERSION };
  /** The regional series that the publications since 2006 leave out have ended: nothing is awaited of them. */
  const ENDED = { reason: "ended", last: "2006-01-01", due: "2006-07-01", series: ["hourly-interior", "hourly-montevideo", "monthly-interior", "monthly-montevideo"] };
  /** The domestic wages' sub-series with a value of July 2026 (the general category and the two created in December 2025). */
  const JULY_2026 = ["hourly", "hourly-cocina", "hourly-cuidados", "monthly", "monthly-cocina", "monthly-cuidados"];

  it.each([["2026-11-21"], ["2026-12-30"], ["2027-06-08"]])("at=%s (version + 1, + 40, + 200 days): prices answer the list in force from 1 July 2026 (no successor is scheduled) with meta.checked null and meta.data_changed", async (day) => {
    const prices = await ask(`${CASMU}${day}`);
    expect(prices.data).toEqual([{ date: "2026-07-01", series: "casmu.consult-general-medicine.fonasa", value: 192 }]);
    expect(prices.meta).toMatchObject(LOOK);
    expect(prices.meta.missing).toBeUndefined();
  });

  it.each([["2026-11-21"], ["2026-12-30"]])("at=%s (before 1 January 2027, when their successor is due): domestic wages answer July 2026's values with meta.checked null and meta.data_changed", async (day) => {
    const wages = await ask(`/api/v1/domestic-worker-wages?series=hourly,monthly&at=${day}`);
    expect(wages.data).toEqual([
      { date: "2026-07-01", series: "hourly", value: 169 },
      { date: "2026-07-01", series: "monthly", value: 32051 },
    ]);
    expect(wages.meta).toMatchObject(LOOK);
    expect(wages.meta.missing).toBeUndefined();
    const all = await ask(`/api/v1/domestic-worker-wages?at=${day}`);
    expect(all.data.map((p) => [p.date, p.series])).toEqual(JULY_2026.map((series) => ["2026-07-01", series]));
    expect(all.meta).toMatchObject(LOOK);
    expect(all.meta.missing).toEqual([ENDED]);
  });

  it("at=2027-06-08 (version + 200 days): domestic wages are empty, their successor of 1 January 2027 pending (due after the last look: not overdue)", async () => {
    const wages = await ask("/api/v1/domestic-worker-wages?series=hourly,monthly&at=2027-06-08");
    expect(wages.data).toEqual([]);
    expect(wages.meta).toMatchObject(LOOK);
    expect(wages.meta.missing).toEqual([{ reason: "pending", last: "2026-07-01", due: "2027-01-01", series: ["hourly", "monthly"] }]);
    const all = await ask("/api/v1/domestic-worker-wages?at=2027-06-08");
    expect(all.data).toEqual([]);
    expect(all.meta.missing).toEqual([{ reason: "pending", last: "2026-07-01", due: "2027-01-01", series: JULY_2026 }, ENDED]);
  });

  it("answers the national minimum wage of July 2026 until 1 January 2027, when its successor is due (1 January and 1 July), then says it is pending", async () => {
    expect((await ask("/api/v1/national-minimum-wage?at=2026-12-31")).data).toEqual([{ date: "2026-07-01", series: "monthly", value: 25383 }]);
    const after = await ask("/api/v1/national-minimum-wage?at=2027-01-01");
    expect(after.data).toEqual([]);
    expect(after.meta.missing).toEqual([{ reason: "pending", last: "2026-07-01", due: "2027-01-01", series: ["monthly"] }]);
  });

  it("says a month of the CPI not yet in the data is missing and since when it was due (published by the 5th of the next month)", async () => {
    const august = await ask("/api/v1/consumer-price-index?at=2026-08-15");
    expect(august.data).toEqual([]);
    expect(august.meta.checked).toBeUndefined();
    expect(august.meta.missing).toEqual([{ reason: "overdue", last: "2026-07-01", due: "2026-09-05", series: ["general"] }]);
  });

  it("keeps an answer up to the check as it was: no checked, no data_changed, no missing when a point answers", async () => {
    const r = await get(`${CASMU}2026-11-20`);
    expect(r.text).not.toContain('"checked"');
    expect(r.text).not.toContain('"data_changed"');
    expect(r.text).not.toContain('"missing"');
  });
});

describe("at over many sub-series, from a time tile (src/core/file/time-tiles.ts)", () => {
  const ID = "health-insurance-prices";

  it("reads one tile, no shard, and answers every day as the shards do: each publication day, the day before it, before the first and long after the check, JSON, CSV and provenance", async () => {
    const files = folderAssets(out);
    const read: string[] = [];
    const shards = new Api();
    const env = (assets: Assets) => ({ ASSETS: assets, ...HIGH });
    const spy: Assets = { fetch: (u) => (read.push(new URL(u).pathname), files.fetch(u)) };
    const ask = async (api: Api, assets: Assets, path: string) => fetched(await api.fetch(new Request(`http://api.test${path}`), env(assets)));
    const days = [...new Set((refs.get(ID) as TimeRefIndicator).points.map((p) => p.date))].sort();
    const before = (day: string) => new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
    const asked = [...days.flatMap((day) => [day, before(day)]), "2000-01-01", "2026-11-21", "2027-06-08", "2030-01-01"];
    expect(asked.length).toBeGreaterThan(30);
    let answered = 0;
    for (const day of asked) {
      for (const query of [`at=${day}`, ...(day === days[3] || day === "2027-06-08" ? [`at=${day}&format=csv`, `at=${day}&format=csv&dialect=es`, `at=${day}&provenance=true`, `at=${day}&series=casmu.*,*.fonasa`] : [])]) {
        read.length = 0;
        const path = `/api/v1/${ID}?${query}`;
        // A fresh isolate for each question, so that what it reads is the question's alone.
        const [a, b] = [await ask(new Api(), spy, path), await ask(shards, withoutTiles(files), path)];
        expect(a.status, path).toBe(200);
        expect(a.text, path).toBe(b.text);
        expect(a.headers.get("ETag"), path).toBe(b.headers.get("ETag"));
        if (!query.includes("series=")) {
          expect(read.filter((p) => p.includes("/at/")), path).toHaveLength(1);
          expect(read.filter((p) => p.includes("/answers/")), path).toEqual([]);
        }
        answered += (JSON.parse(query.includes("format=csv") ? '{"data":[]}' : a.text) as { data: unknown[] }).data.length;
      }
    }
    // Most days answer most of the 1,554 sub-series.
    expect(answered).toBeGreaterThan(20_000);
  }, 120_000);
});
