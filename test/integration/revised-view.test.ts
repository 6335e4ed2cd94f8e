/**
 * The indicator pages' mark of a revised point (src/core/history/revised.ts, the view's
 * `revised`, src/site/client/series-view.ts), over the synthetic git history
 * (test/history-repo.ts) with one more step that revises the newest wage: the
 * revised points and their facts are those the changes endpoint lists, the view
 * files carry them compactly (only revised points), and the table, the chart's
 * point titles, the card and the date answer say them in Spanish and English.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildIndicator, type BuiltIndicator } from "../../src/builder/dataset.js";
import { gitHistorySource, nodeSourceFiles } from "../../src/builder/effects.js";
import { buildHistories, committedStates, type IndicatorHistory } from "../../src/builder/history.js";
import { revisionsOf, viewIndicator } from "../../src/builder/site-model.js";
import { renderViewGroup, viewGroups } from "../../src/builder/view-data.js";
import { shardChanges } from "../../src/core/history/changes.js";
import type { HistoryData } from "../../src/core/history/history.js";
import { revisedPoints } from "../../src/core/history/revised.js";
import { loadData } from "../../src/source/load.js";
import { renderView, valueOnDate, type ViewIndicator } from "../../src/site/client/series-view.js";
import { reviseNewestWage, syntheticHistory } from "../history-repo.js";
import { tableShards } from "../history-tables.js";

const QUIET = { info: () => undefined, warn: (line: string) => expect.unreachable(line) };
/** The version time of the working tree's data (as SOURCE_DATE_EPOCH would give it): after the last commit. */
const NOW = Date.UTC(2026, 10, 1) / 1000;

let built: BuiltIndicator[];
let tables: Map<string, IndicatorHistory>;

beforeAll(async () => {
  const repo = await syntheticHistory();
  reviseNewestWage(repo.dir);
  built = (await loadData(repo.data, nodeSourceFiles())).indicators.map((s) => buildIndicator(s, `<a>${s.meta.id}</a>`, `https://example.test/${s.meta.id}`));
  tables = buildHistories(built, new Map(built.map((b) => [b.source.meta.id, NOW])), await committedStates(repo.data, gitHistorySource(), new Map(), QUIET));
});

const indicator = (id: string) => built.find((b) => b.source.meta.id === id) as BuiltIndicator;
const viewOf = (id: string): ViewIndicator => viewIndicator(indicator(id), NOW, revisionsOf(tables.get(id)));
const input = (view: ViewIndicator, lang: "es" | "en") => ({ lang, indicator: view, selection: {}, baseUrl: "https://example.test" });

describe("revised points", () => {
  it("are the points the changes endpoint lists as revised, with the day of their last change and the value just before it", () => {
    const wages = tableShards(tables.get("wages") as IndicatorHistory);
    expect(Object.fromEntries(revisedPoints(wages))).toEqual({
      // 110, revised to 111.5 on 2026-03-10 and back to 110 on 2026-07-10: the service published another value in between.
      monthly: { "2025-07-01": ["2026-07-10", "111.5"], "2026-07-01": ["2026-10-14", "130"] },
    });
    // The same facts as /changes since the version before each change.
    const days = (wages[0] as HistoryData).versions.length;
    expect(shardChanges(wages, days - 2)).toContainEqual({ date: "2026-07-01", series: "monthly", change: "revised", value: "131.5", previous: "130", changed: "2026-10-14" });
    expect(shardChanges(wages, 2).find((c) => c.date === "2025-07-01")).toMatchObject({ previous: "111.5", changed: "2026-07-10" });
    // 101.2 and 101.25 the same day: only the day's last was published, then 101.3.
    expect(Object.fromEntries(revisedPoints(tableShards(tables.get("prices") as IndicatorHistory)))).toEqual({ general: { "2026-04-01": ["2026-07-10", "101.25"] } });
  });

  it("go in the view files of their sub-series only, and a view without revisions is as before", () => {
    const view = viewOf("wages");
    const groups = [...viewGroups(view)];
    expect(groups).toHaveLength(1);
    const [key, series] = groups[0] as [string, ViewIndicator["series"]];
    const file = new TextDecoder().decode(renderViewGroup(view, series));
    expect(file).toContain('"revised":{"2026-07-01":["2026-10-14","130"],"2025-07-01":["2026-07-10","111.5"]}');
    expect(file.match(/"revised"/g)).toHaveLength(1);
    // Without the history's revisions, the same file without the field: nothing else moves.
    const plain = viewIndicator(indicator("wages"), NOW);
    const before = new TextDecoder().decode(renderViewGroup(plain, viewGroups(plain).get(key) ?? []));
    expect(file.replace(',"revised":{"2026-07-01":["2026-10-14","130"],"2025-07-01":["2026-07-10","111.5"]}', "")).toBe(before);
    // No history: no revisions.
    expect(revisionsOf(undefined).size).toBe(0);
  });

  it("are marked in the table, in the chart's point titles and on the card, in Spanish", () => {
    const shown = renderView(input(viewOf("wages"), "es"));
    const table = shown.table.toString();
    expect(table).toContain('<data value="110">$\u00a0110</data><sup class="revised-mark" title="revisado el 10 jul. 2026; antes $\u00a0111,50">rev.</sup><span class="cell-revised">revisado el 10 jul. 2026; antes $\u00a0111,50</span>');
    expect(table.match(/class="revised-mark"/g)).toHaveLength(2);
    const charts = shown.charts.toString();
    // After the kind of source, when the page knows it (src/core/answer/provenance.ts).
    expect(charts).toContain('data-revised="revisado el 14 oct. 2026; antes $\u00a0130"><title>Mensual — 1 de julio de 2026: $\u00a0131,50 (fuente: publicación oficial; revisado el 14 oct. 2026; antes $\u00a0130)</title>');
    const card = shown.card.toString();
    expect(card).toContain('<span class="card-revised">revisado el 14 oct. 2026; antes $\u00a0130</span>');
    // The hourly wage's card: not revised, no mark.
    expect(card.match(/revised/g)).toHaveLength(2);
  });

  it("are said in English too, and in the answer to a date whose value was revised", () => {
    const view = viewOf("wages");
    const shown = renderView(input(view, "en"));
    expect(shown.table.toString()).toContain("revised on Jul 10, 2026; was $111.50");
    expect(shown.card.toString()).toContain('<span class="card-revised">revised on Oct 14, 2026; was $130</span>');
    expect(shown.charts.toString()).toContain("(source: official publication; revised on Oct 14, 2026; was $130)</title>");
    expect(valueOnDate(input(view, "es"), ["monthly"], "2025-08-01").toString()).toContain("(vigente desde el 1 de julio de 2025; fuente: publicación oficial; revisado el 10 jul. 2026; antes $\u00a0111,50)");
    expect(valueOnDate(input(view, "en"), ["monthly"], "2025-08-01").toString()).toContain("; revised on Jul 10, 2026; was $111.50)");
    // A value never revised: the answer as before.
    expect(valueOnDate(input(view, "en"), ["monthly"], "2026-02-01").toString()).not.toContain("revised");
  });
});
