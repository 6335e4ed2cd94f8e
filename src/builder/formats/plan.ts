/**
 * The open-data formats' files in the build's plan (docs/DESIGN.md §4: every
 * output file is planned before any is rendered, so the file budget counts
 * them): per indicator its Parquet, XLSX, Data Package and Atom feed; for the
 * service the DCAT catalog, the Atom feed, the sitemap, robots.txt and llms.txt.
 */
import {
  DCAT_CATALOG_PATH,
  LLMS_TXT_PATH,
  ROBOTS_PATH,
  SERVICE_FEED_PATH,
  SITEMAP_PATH,
  dataPackagePath,
  feedPath,
  outputFile,
  parquetPath,
  xlsxPath,
} from "../../core/file/paths.js";
import { partPath } from "../../core/indicator/distributions.js";
import { BuildError } from "../../source/errors.js";
import type { PlanInput, PlannedFile } from "../build.js";
import { renderIndicatorFeed, renderServiceFeed } from "./atom.js";
import { renderDataPackage } from "./datapackage.js";
import { renderDcatCatalog } from "./dcat.js";
import { versionOf } from "./facts.js";
import { renderParquet } from "./parquet.js";
import { renderRobots, renderSitemap } from "./sitemap.js";
import { renderLlmsTxt } from "./llms-txt.js";
import { dayOfTime } from "../../core/time/dates.js";
import { versionDay } from "../../core/history/history.js";
import { MAX_DATA_ROWS, renderXlsx } from "./xlsx.js";
import { adjustersOf, deflatorsOf } from "../dataset.js";

/** The day each indicator's current version was published (its history table's last), for the `as_of` example. */
function currentDay(input: PlanInput): (id: string) => string {
  return (id) => {
    const last = input.histories?.get(id)?.versions.at(-1);
    return last === undefined ? dayOfTime(versionOf(input.versions, id)) : versionDay(last);
  };
}

/**
 * The files of the open-data formats, indicator by indicator, then the
 * service-wide ones.
 * @throws BuildError when `public/` holds a `robots.txt`: the build writes it.
 */
export function planFormats(input: PlanInput): PlannedFile[] {
  const { config, indicators, versions } = input;
  const robots = outputFile(ROBOTS_PATH);
  if (input.publicFiles.has(robots)) {
    throw new BuildError(`public/${robots}: the build writes ${robots} itself (src/builder/formats/sitemap.ts); remove the file from public/`);
  }
  const plan: PlannedFile[] = [];
  for (const indicator of indicators) {
    const id = indicator.source.meta.id;
    const version = versionOf(versions, id);
    // The Parquet file and the workbook follow the CSV files' parts (src/builder/download-parts.ts).
    for (const part of indicator.parts ?? [undefined]) {
      const path = (whole: string) => outputFile(part === undefined ? whole : partPath(whole, part));
      plan.push(
        { path: path(parquetPath(id)), indicator: id, render: () => renderParquet(indicator, part) },
        { path: path(xlsxPath(id)), indicator: id, render: () => renderXlsx(config, indicator, version, MAX_DATA_ROWS, part) },
      );
    }
    plan.push(
      { path: outputFile(dataPackagePath(id)), indicator: id, render: () => renderDataPackage(config, indicator, version) },
      { path: outputFile(feedPath(id)), indicator: id, render: () => renderIndicatorFeed(config, indicator, version, input.histories?.get(id)?.revisions) },
    );
  }
  plan.push(
    { path: outputFile(DCAT_CATALOG_PATH), render: () => renderDcatCatalog(config, indicators, versions) },
    { path: outputFile(SERVICE_FEED_PATH), render: () => renderServiceFeed(config, indicators, versions, (id) => input.histories?.get(id)?.revisions ?? []) },
    { path: outputFile(SITEMAP_PATH), render: () => renderSitemap(config, indicators) },
    { path: robots, render: () => renderRobots(config) },
    { path: outputFile(LLMS_TXT_PATH), render: () => renderLlmsTxt(config, indicators, deflatorsOf(indicators), adjustersOf(indicators), versions, currentDay(input)) },
  );
  return plan;
}
