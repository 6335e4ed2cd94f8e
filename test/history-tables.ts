/** A built history table (src/builder/history.ts) read as the function reads it: its index, the shards a question needs, a version's view, the changes. */
import type { IndicatorHistory } from "../src/builder/history.js";
import type { AnswerView } from "../src/core/file/answer-index.js";
import { shardChanges, type PointChange } from "../src/core/history/changes.js";
import { decodeHistory, decodeHistoryIndex, historyShardsOf, versionView, type HistoryData } from "../src/core/history/history.js";

/** Every shard of a built table, decoded, in order (none without a table). */
export function tableShards(history: IndicatorHistory): HistoryData[] {
  return history.table === null ? [] : history.table.shards.map((bytes) => decodeHistory(bytes));
}

/** Version `v`'s view with only the shards of its sub-series at `chosen` read (`null`: all), as the endpoint makes it. */
export function pastView(history: IndicatorHistory, v: number, chosen: readonly number[] | null): AnswerView {
  if (history.table === null) throw new Error("one version: no table");
  const index = decodeHistoryIndex(history.table.index);
  const shards = history.table.shards;
  const wanted = historyShardsOf(index, v, chosen);
  return versionView(index, v, new Map(wanted.map((k) => [k, decodeHistory(shards[k] as Uint8Array)])));
}

/** The changes since version `since` of a built table, as /changes lists them (none without a table). */
export function changesOfTable(history: IndicatorHistory, since: number): readonly PointChange[] {
  return shardChanges(tableShards(history), since);
}
