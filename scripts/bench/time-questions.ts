/**
 * The questions about time (docs/time.md) that tables 2 and 3
 * time over the real data, beside the plain widest answer: fixed questions, one
 * expected to be refused over the CPU budget, and the widest admitted ones found
 * by narrowing a refused one (asking the handler under test for each candidate's
 * status, so they follow the budget constants of the code measured).
 */
import { MAX_DERIVED_POINTS } from "../../src/core/answer/contract.js";

export interface Catalog {
  indicators: { id: string; series: { id: string; first: string; last: string; points: number }[] }[];
}

export interface Question {
  readonly name: string;
  readonly path: string;
  /** The status the question is meant to get (a 400: refused over the budget). */
  readonly expect: number;
}

/** The status the code under test answers `path` with. */
export type StatusOf = (path: string) => Promise<number>;

/** The widest of `candidates` (narrowest first) the code admits, assuming a prefix of them is: a binary search. */
async function widestAdmitted(candidates: readonly string[], status: StatusOf): Promise<string | undefined> {
  let lo = 0;
  let hi = candidates.length - 1;
  let found: string | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const path = candidates[mid] as string;
    if ((await status(path)) === 200) {
      found = path;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** The questions about time over the real data's catalog (empty when it lacks the indicators they ask about). */
export async function timeQuestions(catalog: Catalog, status: StatusOf): Promise<Question[]> {
  const hip = catalog.indicators.find((i) => i.id === "health-insurance-prices");
  const cpi = catalog.indicators.find((i) => i.id === "consumer-price-index");
  if (hip === undefined || cpi === undefined) return [];
  const h = `/api/v1/${hip.id}`;
  const c = `/api/v1/${cpi.id}`;
  // The newest month of the deflator: what `real` compares every value with.
  const real = (cpi.series.find((s) => s.id === "general") ?? cpi.series[0])?.last.slice(0, 7) ?? "2026-07";
  const yoy = `real=${real}&units=percent_change_a_year_ago`;
  const questions: Question[] = [
    { name: "at a day (2026-01-15), every sub-series", path: `${h}?at=2026-01-15`, expect: 200 },
    { name: "monthly since 2015, real, year-ago %, every sub-series", path: `${h}?frequency=month&from=2015&${yoy}`, expect: 400 },
    { name: "yearly, real, year-ago %, limit 3", path: `${h}?frequency=year&${yoy}&limit=3`, expect: 200 },
  ];

  // Yearly over every sub-series: narrowed by `from` (the latest year first).
  const years: number[] = [];
  const first = Number(hip.series.reduce((m, s) => (s.first < m ? s.first : m), "9999").slice(0, 4));
  const last = Number(hip.series.reduce((m, s) => (s.last > m ? s.last : m), "0000").slice(0, 4));
  for (let y = last; y > first; y--) years.push(y);
  const yearly = await widestAdmitted([...years.map((y) => `${h}?frequency=year&from=${y}&${yoy}&limit=3`), `${h}?frequency=year&${yoy}&limit=3`], status);
  if (yearly !== undefined) questions.push({ name: `widest admitted yearly, real, year-ago %, limit 3: ${/from=(\d+)/.exec(yearly)?.[0] ?? "no from"}`, path: yearly, expect: 200 });

  // Without a limit it may hold more points than a derived answer may (a refusal after the whole computation).
  questions.push(
    { name: "casmu.* monthly since 2015, real, year-ago %", path: `${h}?series=casmu.*&frequency=month&from=2015&${yoy}`, expect: 200 },
    { name: "casmu.* monthly since 2015, real, year-ago %, limit 100", path: `${h}?series=casmu.*&frequency=month&from=2015&${yoy}&limit=100`, expect: 200 },
  );
  // Monthly since 2015 over more and more providers (alphabetical), with the largest limit the points cap allows.
  const providers = [...new Set(hip.series.map((s) => s.id.split(".")[0] as string))].sort();
  const monthly = providers.map((_, k) => {
    const chosen = providers.slice(0, k + 1);
    const count = hip.series.filter((s) => chosen.includes(s.id.split(".")[0] as string)).length;
    const limit = Math.min(5000, Math.max(1, Math.floor(MAX_DERIVED_POINTS / count)));
    return `${h}?series=${chosen.map((p) => `${p}.*`).join(",")}&frequency=month&from=2015&${yoy}&limit=${limit}`;
  });
  const widest = await widestAdmitted(monthly, status);
  if (widest !== undefined) {
    const k = monthly.indexOf(widest) + 1;
    questions.push({ name: `widest admitted monthly since 2015, real, year-ago %: ${k} providers, ${/limit=\d+/.exec(widest)?.[0] ?? ""}`, path: widest, expect: 200 });
  }

  questions.push(
    { name: "change, limit 3, every sub-series", path: `${h}?units=change&limit=3`, expect: 200 },
    { name: "CPI monthly since 1937, year-ago %", path: `${c}?frequency=month&units=percent_change_a_year_ago&limit=5000`, expect: 200 },
    { name: "CPI percent change, limit 5000", path: `${c}?units=percent_change&limit=5000`, expect: 200 },
    {
      name: "ratio: *.consult-general-medicine.fonasa per hourly wage, monthly since 2020",
      path: `${h}?series=*.consult-general-medicine.fonasa&per=domestic-worker-wages:hourly&frequency=month&from=2020`,
      expect: 200,
    },
    // The search (/api/v1/search): the widest query (one letter: every sub-series has a word starting with it) and a typical one.
    { name: "search: widest, q=a, limit 100", path: "/api/v1/search?q=a&limit=100", expect: 200 },
    { name: "search: casmu gineco", path: "/api/v1/search?q=casmu%20gineco", expect: 200 },
  );
  return questions;
}
