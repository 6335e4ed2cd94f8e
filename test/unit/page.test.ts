import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvEsLine, csvLine } from "../../src/builder/dataset.js";
import { decodeAnswers, encodeAnswers } from "../../src/core/file/answers.js";
import { DEFAULT_QUERY, type PageQuery } from "../../src/core/indicator/model.js";
import { selectPage } from "../../src/core/answer/page.js";
import { wholeView } from "../../src/core/file/answer-index.js";
import { renderAnswer } from "../../src/core/answer/render.js";
import { resolveSelection } from "../../src/core/answer/selection.js";
import { expectedCsv, expectedResponse, type RefIndicator } from "../reference.js";

const SITE = "https://example.test";
const PHRASE = "Data: Example";

// a: five semiannual points; b: two points of different dates; c: declared, no points;
// d: one point, only in 2021. Values in several written forms.
const points = [
  ["a", "2024-01-01", "15"],
  ["a", "2023-07-01", "14.50"],
  ["a", "2023-01-01", "14"],
  ["a", "2022-07-01", "13.25"],
  ["a", "2022-01-01", "13"],
  ["b", "2024-01-01", "200"],
  ["b", "2022-03-15", "-0.5"],
  ["d", "2021-12-31", "1e3"],
] as const;

const fields = {
  indicator: "tiny",
  unit: "UYU",
  license: "CC-BY-4.0",
  lastUpdated: "2024-01-01",
  attribution: `<a href="${SITE}/series/tiny/?utm_source=api&amp;utm_medium=attribution&amp;utm_campaign=backlinks">${PHRASE}</a>`,
};
// Sources and notes, one with a comma and one with a quote, for the CSV answers.
const rows = points.map(([series, date, value], i) => ({
  series,
  date,
  value,
  source: `https://example.test/${date}`,
  note: i === 1 ? 'revised, "provisional"' : i === 6 ? "según la fuente" : "",
}));
// The answer file, as the build and the function use it.
const answers = decodeAnswers(encodeAnswers({ ...fields, attributionUrl: `${SITE}/series/tiny/`, rhythm: "monthly", stepwise: false }, ["a", "b", "c", "d"], rows, csvLine, csvEsLine));
const reference: RefIndicator = {
  id: "tiny",
  unit: "UYU",
  points: rows.map(({ series, date, value, source, note }) => ({ series, date, raw: value, source, note })),
};

const q = (over: Partial<PageQuery>): PageQuery => ({ ...DEFAULT_QUERY, ...over });
const render = (query: PageQuery, scan: boolean) => {
  const chosen = query.series === null ? null : resolveSelection(answers.ids, query.series).indices;
  return new TextDecoder().decode(renderAnswer(wholeView(answers), selectPage(answers.series, query, chosen, scan ? answers.global : null)));
};
/** The answer, checked to be the same whether windows are found per sub-series or by a scan of positions. */
const text = (query: PageQuery) => {
  const bySeries = render(query, false);
  expect(render(query, true)).toBe(bySeries);
  return bySeries;
};
const page = (query: PageQuery) => JSON.parse(text(query)) as ReturnType<typeof expectedResponse>;
const ids = (body: ReturnType<typeof expectedResponse>) => body.data.map((p) => `${p.series}@${p.date}`);

describe("pager", () => {
  it.each([
    ["default: everything, newest first, series ascending on equal dates", q({}), ["a@2024-01-01", "b@2024-01-01", "a@2023-07-01", "a@2023-01-01", "a@2022-07-01", "b@2022-03-15", "a@2022-01-01", "d@2021-12-31"], 8, false],
    ["limit 1: the newest point of each sub-series", q({ limit: 1 }), ["a@2024-01-01", "b@2024-01-01", "d@2021-12-31"], 8, true],
    ["limit 1, offset 1: the second newest of each", q({ limit: 1, offset: 1 }), ["a@2023-07-01", "b@2022-03-15"], 8, true],
    ["sub-series of different lengths: b runs out first", q({ limit: 2, offset: 2 }), ["a@2023-01-01", "a@2022-07-01"], 8, true],
    ["last page: no more", q({ limit: 2, offset: 4 }), ["a@2022-01-01"], 8, false],
    ["a page that ends exactly with the longest sub-series: no more", q({ limit: 2, offset: 3 }), ["a@2022-07-01", "a@2022-01-01"], 8, false],
    ["limit equal to the longest sub-series: no more", q({ limit: 5 }), ["a@2024-01-01", "b@2024-01-01", "a@2023-07-01", "a@2023-01-01", "a@2022-07-01", "b@2022-03-15", "a@2022-01-01", "d@2021-12-31"], 8, false],
    ["offset past the end: empty page, total still counts the window", q({ offset: 5 }), [], 8, false],
    ["limit 5000", q({ limit: 5000 }), ["a@2024-01-01", "b@2024-01-01", "a@2023-07-01", "a@2023-01-01", "a@2022-07-01", "b@2022-03-15", "a@2022-01-01", "d@2021-12-31"], 8, false],
    ["from and to on data dates: both inclusive", q({ from: "2022-07-01", to: "2023-07-01" }), ["a@2023-07-01", "a@2023-01-01", "a@2022-07-01"], 3, false],
    ["from and to between data dates", q({ from: "2022-03-16", to: "2023-12-31" }), ["a@2023-07-01", "a@2023-01-01", "a@2022-07-01"], 3, false],
    ["from only", q({ from: "2023-01-01" }), ["a@2024-01-01", "b@2024-01-01", "a@2023-07-01", "a@2023-01-01"], 4, false],
    ["to only, before most data", q({ to: "2022-03-15" }), ["b@2022-03-15", "a@2022-01-01", "d@2021-12-31"], 3, false],
    ["a window with one day", q({ from: "2022-03-15", to: "2022-03-15" }), ["b@2022-03-15"], 1, false],
    ["empty window between points", q({ from: "2023-08-01", to: "2023-12-31" }), [], 0, false],
    ["empty window after all data", q({ from: "2030-01-01" }), [], 0, false],
    ["window with limit and offset", q({ from: "2022-01-01", to: "2023-12-31", limit: 1, offset: 1 }), ["a@2023-01-01"], 5, true],
    ["resolved reduced precision: from=2023 to=2023-07 means 2023-01-01…2023-07-31", q({ from: "2023-01-01", to: "2023-07-31" }), ["a@2023-07-01", "a@2023-01-01"], 2, false],
    ["one sub-series by id", q({ series: ["b"] }), ["b@2024-01-01", "b@2022-03-15"], 2, false],
    ["a list, with limit: limit still per sub-series", q({ series: ["b", "d"], limit: 1 }), ["b@2024-01-01", "d@2021-12-31"], 3, true],
    ["a pattern", q({ series: ["*"], from: "2024-01-01" }), ["a@2024-01-01", "b@2024-01-01"], 2, false],
    ["a declared sub-series without points: empty", q({ series: ["c"] }), [], 0, false],
    ["a selection with a window and an offset", q({ series: ["a", "d"], to: "2023-12-31", limit: 2, offset: 1 }), ["a@2023-01-01", "a@2022-07-01"], 5, true],
  ])("%s", (_name, query, expectedIds, total, hasMore) => {
    const body = page(query);
    expect(ids(body)).toEqual(expectedIds);
    expect(body.meta.total).toBe(total);
    expect(body.meta.has_more).toBe(hasMore);
    expect(body).toEqual(expectedResponse(reference, query, SITE, PHRASE));
  });

  it("links the next page with the same window, offset + limit", () => {
    expect(page(q({ limit: 2 })).meta.next).toBe("/api/v1/tiny?limit=2&offset=2");
    expect(page(q({ from: "2022-01-01", to: "2023-12-31", limit: 1, offset: 1 })).meta.next).toBe(
      "/api/v1/tiny?from=2022-01-01&to=2023-12-31&limit=1&offset=2",
    );
    expect(page(q({ limit: 2, offset: 4 })).meta.next).toBeNull();
  });

  it("links the next page of a selection, the selection echoed sorted, and of a CSV answer", () => {
    expect(page(q({ series: ["b", "a"], limit: 1 })).meta.next).toBe("/api/v1/tiny?series=b,a&limit=1&offset=1");
    expect(page(q({ series: ["a", "b"], limit: 1 })).meta.series).toEqual(["a", "b"]);
  });

  it.each([q({}), q({ limit: 1 }), q({ series: ["a"], from: "2022-07-01" }), q({ series: ["b", "d"], limit: 1, offset: 1 }), q({ offset: 9 })])(
    "answers %j as RFC 4180 CSV with the JSON answer's points, sources and notes",
    (query) => {
      const csv = text({ ...query, format: "csv" });
      expect(csv.startsWith("date,series,value,source,note\n")).toBe(true);
      const parsed = parse<Record<string, string>>(csv, { columns: true });
      expect(parsed).toEqual(expectedCsv(reference, query).rows);
      expect(parsed.map((r) => `${r.series}@${r.date}`)).toEqual(ids(page(query)));
    },
  );

  it("keeps values as the source wrote them", () => {
    const body = text(q({}));
    expect(body).toContain('"series":"a","value":14.50}');
    expect(body).toContain('"series":"b","value":-0.5}');
    expect(body).toContain('"series":"d","value":1e3}');
  });

  it("reports last_updated of the whole indicator, not of the window", () => {
    expect(page(q({ to: "2022-12-31" })).meta.last_updated).toBe("2024-01-01");
  });

  it("renders compact JSON with the contract's key order", () => {
    expect(text(q({ limit: 1, from: "2024-01-01" }))).toBe(
      '{"data":[{"date":"2024-01-01","series":"a","value":15},{"date":"2024-01-01","series":"b","value":200}],' +
        '"meta":{"indicator":"tiny","unit":"UYU","value_unit":"UYU","total":2,"limit":1,"offset":0,"from":"2024-01-01","to":null,"at":null,"series":null,' +
        '"frequency":null,"aggregation":null,"per":null,"real":null,"units":null,"base":null,' +
        '"has_more":false,"next":null,"last_updated":"2024-01-01","license":"CC-BY-4.0","attribution":' +
        JSON.stringify(fields.attribution) +
        ',"metadata":"/api/v1/tiny/metadata.json"}}',
    );
    expect(text(q({ offset: 9 }))).toMatch(/^\{"data":\[\],"meta":/);
  });

  it("reads the answer file back: ids, lengths, and the points' global order", () => {
    expect(answers.ids).toEqual(["a", "b", "c", "d"]);
    expect(answers.series.map((s) => s.length)).toEqual([5, 2, 0, 1]);
    // a@2024-01-01 is first, b@2024-01-01 second, d@2021-12-31 last in the answer order.
    expect([answers.series[0]?.global(0), answers.series[1]?.global(0), answers.series[3]?.global(0)]).toEqual([0, 1, 7]);
  });
});

describe("day numbers", () => {
  it("agree with the platform's UTC calendar from year 0 to 9999", async () => {
    const { dayNumber, dateOfDay } = await import("../../src/core/time/dates.js");
    // Every 97th day from 0000-01-01, about 37,700 of them: the disagreements collected and
    // compared once (an expect per day cost a second). Date.UTC reads years 0–99 as 1900–1999:
    // the first day is set with setUTCFullYear.
    const first = new Date(0);
    first.setUTCFullYear(0, 0, 1);
    const disagreements: string[] = [];
    let days = 0;
    for (let t = first.getTime(); t <= Date.UTC(9999, 11, 31); t += 86_400_000 * 97) {
      const d = new Date(t);
      const iso = d.toISOString().slice(0, 10);
      const day = dayNumber(iso);
      if (day !== Math.round(t / 86_400_000) || dateOfDay(day) !== iso) disagreements.push(`${iso}: ${day} ${dateOfDay(day)}`);
      days++;
    }
    expect(disagreements).toEqual([]);
    expect(days).toBeGreaterThan(37_000);
    expect(dayNumber("1970-01-01")).toBe(0);
    expect(dayNumber("2000-03-01") - dayNumber("2000-02-28")).toBe(2);
    expect(dayNumber("1900-03-01") - dayNumber("1900-02-28")).toBe(1);
  });
});
