/**
 * A person's check of a publisher (`npm run check -- <indicator> --source <url>
 * [--note "…"]`, docs/data.md "Checks"): the record, in the indicator's
 * `indicator.json`, that someone looked at the address given on that day. What
 * the look found is read from the data, not asserted: `new-data` when the
 * indicator's points differ from the committed ones (the person added the
 * values found), else `nothing-new`.
 *
 * The whole data folder is validated with the new `indicator.json` in place
 * before anything is written, and the file is replaced atomically: a fault
 * leaves it as it was. Every effect is passed in, as the update's are.
 */
import { join } from "node:path";
import type { Check } from "../core/time/schedule.js";
import { diffData } from "./changes.js";
import { UsageError } from "./errors.js";
import { loadData, type SourceFiles } from "./load.js";
import { overlaySource, utcDay, withCheck } from "./update.js";

export interface CheckOptions {
  /** The data folder. */
  readonly data: string;
  /** The indicator looked at. */
  readonly indicator: string;
  /** The address consulted. */
  readonly source: string;
  readonly note?: string | undefined;
  /** The git revision of the committed data the points are compared with (`HEAD`). */
  readonly base: string;
}

export interface CheckEffects {
  readonly now: () => Date;
  /** The data folder as it is. */
  readonly source: SourceFiles;
  /** The data folder as committed at `rev`, or `null` when there is no such revision. */
  publishedSource(dataDir: string, rev: string): Promise<SourceFiles | null>;
  /** Replaces the files (path → text) all at once, or none. */
  writeFiles(files: ReadonlyMap<string, string>): Promise<void>;
}

/** An address a check can name: http or https, absolute. */
function checkedAddress(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--source: expected the address consulted (https://…), got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UsageError(`--source: expected an http or https address, got ${JSON.stringify(text)}`);
  return text;
}

/**
 * Records a person's check of `options.indicator` and returns it with the file written.
 * @throws UsageError for an unknown indicator, a bad address or no git revision;
 *   DataError (src/source/load.ts) when the data folder does not validate with the check in place.
 */
export async function recordCheck(options: CheckOptions, effects: CheckEffects): Promise<{ readonly check: Check; readonly file: string }> {
  const read = checkedAddress(options.source);
  const current = await loadData(options.data, effects.source);
  const indicator = current.indicators.find((i) => i.meta.id === options.indicator);
  if (indicator === undefined) {
    throw new UsageError(`no indicator "${options.indicator}" in ${options.data} (there are: ${current.indicators.map((i) => i.meta.id).join(", ")})`);
  }
  const committed = await effects.publishedSource(options.data, options.base);
  if (committed === null) throw new UsageError(`${options.base} is not a git revision of ${options.data}: a check compares the points with the committed ones`);
  const published = (await committed.folders(options.data)).includes(options.indicator) ? (await loadData(options.data, committed, true)).indicators : [];
  const [changes] = diffData(
    published.filter((i) => i.meta.id === options.indicator),
    [indicator],
  );
  const found = changes !== undefined && (changes.added.length > 0 || changes.revised.length > 0);
  const note = options.note?.trim();
  const check: Check = {
    day: utcDay(effects.now()),
    by: "person",
    read,
    outcome: found ? "new-data" : "nothing-new",
    ...(note === undefined || note === "" ? {} : { note }),
  };
  const file = join(indicator.folder, "indicator.json");
  const text = withCheck(new TextDecoder().decode(await effects.source.read(file)), check);
  const planned = new Map([[file, text]]);
  // The whole folder with the check in place: a check dated before a point of its period is refused (src/source/load.ts).
  await loadData(options.data, overlaySource(effects.source, planned));
  await effects.writeFiles(planned);
  return { check, file };
}
