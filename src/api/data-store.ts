/**
 * What the function reads of the output folder, through `env.ASSETS`: the
 * manifest, the datasets and prebuilt pages, cached per isolate by data version.
 * A deployment's files never change, so nothing kept can go stale.
 *
 * Only what is loaded is shared between requests, never a load in progress: a
 * request that finds another's load of the same file still running makes its
 * own. Workers cancel a request's I/O when its client disconnects, so another
 * request's fetch may never end, and awaiting it would hang this request and,
 * kept, every later one (test/integration/api.test.ts). Concurrent first requests for a
 * file each read it once; the first loaded is kept and given to the others.
 */
import { POINT_COLUMN_BYTES, decodeAnswers, type AnswerData } from "../core/file/answers.js";
import { decodeAnswerIndex, fileView, shardView, shardsOf, type AnswerIndex, type AnswerView } from "../core/file/answer-index.js";
import { MAX_READ_BYTES, SHARD_CACHE_BYTES } from "../core/answer/contract.js";
import { decodeHistory, decodeHistoryIndex, historyShardsOf, versionView, type HistoryData, type HistoryIndex } from "../core/history/history.js";
import type { FileIndex } from "../core/file/hosted.js";
import { MANIFEST_PATH, type Manifest } from "../core/file/manifest.js";
import { answerShardPath, answerTilePath, historyShardPath, searchShardPath } from "../core/file/paths.js";
import { shardEntries, type RankedEntry, type SearchTop, type ShardEntry } from "../core/answer/search.js";

/** What the function needs of `env.ASSETS`: fetching a static file of the output folder. */
export interface Assets {
  fetch(url: string): Promise<Response>;
}

/** The store's bounds on memory (tests set smaller ones). */
export interface StoreLimits {
  /** Bytes of read shards kept for later requests (default `SHARD_CACHE_BYTES`). */
  readonly shardCacheBytes?: number;
  /** Bytes of search shards kept (default `DataStore.SEARCH_CACHE_BYTES`). */
  readonly searchCacheBytes?: number;
  /** Bytes of answer shards one request may read (default `MAX_READ_BYTES`). */
  readonly readBytes?: number;
}

/**
 * Values kept by key within a bound on their bytes, the least recently used
 * dropped first; the value just kept stays even alone over the bound (its
 * request needs it). `dropped` is told of each value dropped.
 */
class ByteLru<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly bytes: number }>();
  private total = 0;

  constructor(
    private readonly bound: number,
    private readonly dropped?: () => void,
  ) {}

  /** Bytes of the values kept. */
  get bytes(): number {
    return this.total;
  }

  /** The value of `key`, now the most recently used, or `undefined`. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (`bytes` in memory) as the most recently used, then drops the least recently used others while over the bound. */
  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    for (const old of this.entries.keys()) {
      if (this.total <= this.bound || old === key) break;
      this.delete(old);
    }
  }

  /** Drops `key`, when kept. */
  private delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
    this.dropped?.();
  }
}

/**
 * `kept()`'s value, or else `load()`'s once it has loaded, given to `keep`; when
 * another request kept one meanwhile, that one. The one place where what is
 * shared between requests is decided: only what has loaded (above).
 */
async function keptOrLoaded<T>(kept: () => T | undefined, load: () => Promise<T>, keep: (value: T) => void): Promise<T> {
  const before = kept();
  if (before !== undefined) return before;
  const value = await load();
  const now = kept();
  if (now !== undefined) return now;
  keep(value);
  return value;
}

export class DataStore {
  private readonly searchCacheBytes: number;
  /** Bytes of answer shards one request may read: a question over more is refused (src/api/endpoint.ts). */
  readonly readBytes: number;

  constructor(limits: StoreLimits = {}) {
    // A view holds its shards: a shard dropped drops the views, so that its memory is freed once no request holds it.
    this.shards = new ByteLru(limits.shardCacheBytes ?? SHARD_CACHE_BYTES, () => this.views.clear());
    this.searchCacheBytes = limits.searchCacheBytes ?? DataStore.SEARCH_CACHE_BYTES;
    this.readBytes = limits.readBytes ?? MAX_READ_BYTES;
  }

  private manifestKept: Manifest | undefined;
  private readonly indexes = new Map<string, AnswerIndex>();
  /** Read shards of answers and history tables (key → the decoded file, kept by what it takes in memory; a key names its file). */
  private readonly shards: ByteLru<string, unknown>;
  /** Views made of read shards (src/core/file/answer-index.ts), dropped whenever a shard is. */
  private readonly views = new Map<string, AnswerView>();

  /** Bytes of prebuilt pages kept in memory, and the largest page kept. */
  static readonly PAGE_CACHE_BYTES = 16 * 2 ** 20;
  static readonly PAGE_CACHE_MAX_PAGE = 2 * 2 ** 20;
  /** Views of read shards kept (each a list of its sub-series: at most one per sub-series of its indicator). */
  static readonly VIEWS_KEPT = 32;
  /** Recently served prebuilt pages (path → bytes). */
  private readonly pages = new ByteLru<string, Uint8Array<ArrayBuffer>>(DataStore.PAGE_CACHE_BYTES);

  private async fetchAsset(assets: Assets, url: URL): Promise<Response> {
    const response = await assets.fetch(url.toString());
    if (!response.ok) throw new Error(`${url.pathname}: static asset answered ${response.status}`);
    return response;
  }

  /** The JSON file at `url`, parsed. */
  private async fetchJson<T>(assets: Assets, url: URL): Promise<T> {
    return (await (await this.fetchAsset(assets, url)).json()) as T;
  }

  /** The binary file at `url`, decoded. */
  private async fetchDecoded<T>(assets: Assets, url: URL, decode: (bytes: ArrayBuffer) => T): Promise<T> {
    return decode(await (await this.fetchAsset(assets, url)).arrayBuffer());
  }

  /** The build's manifest. A failure is not kept: the next request retries. */
  manifest(assets: Assets, origin: URL): Promise<Manifest> {
    return keptOrLoaded(
      () => this.manifestKept,
      () => this.fetchJson<Manifest>(assets, new URL(MANIFEST_PATH, origin)),
      (manifest) => (this.manifestKept = manifest),
    );
  }

  /**
   * The bytes of a prebuilt page. Pages up to 2 MiB stay in the isolate's memory
   * (16 MiB in all, least recently used evicted), so a hot page costs no asset
   * subrequest; larger ones are streamed from the asset each time.
   */
  async prebuilt(assets: Assets, url: URL, size: number): Promise<BodyInit> {
    const kept = this.pages.get(url.pathname);
    if (kept !== undefined) return kept;
    const response = await this.fetchAsset(assets, url);
    if (size > DataStore.PAGE_CACHE_MAX_PAGE || response.body === null) return response.body ?? "";
    const bytes = new Uint8Array(await response.arrayBuffer());
    this.pages.set(url.pathname, bytes, bytes.length);
    return bytes;
  }

  /** Bytes of tail indicators' file indexes kept (by their file sizes): a thousand of some 5 KB each fit. */
  static readonly FILE_INDEX_CACHE_BYTES = 8 * 2 ** 20;
  /** Tail indicators' file indexes (path@version → index, src/core/file/hosted.ts). */
  private readonly fileIndexes = new ByteLru<string, FileIndex>(DataStore.FILE_INDEX_CACHE_BYTES);

  /** The index of a tail indicator's files at `path`, of data version `version`, kept once read (as `keptOrLoaded` keeps). A failure is not kept. */
  async fileIndex(assets: Assets, origin: URL, path: string, version: string): Promise<FileIndex> {
    const key = `${path}@${version}`;
    const before = this.fileIndexes.get(key);
    if (before !== undefined) return before;
    const text = await (await this.fetchAsset(assets, new URL(path, origin))).text();
    const now = this.fileIndexes.get(key);
    if (now !== undefined) return now;
    const index = JSON.parse(text) as FileIndex;
    this.fileIndexes.set(key, index, text.length);
    return index;
  }

  /** The search index's top file and its shards kept (number → entries, least recently used first), of one data tag. */
  private search: { readonly tag: string; readonly top: SearchTop; readonly shards: ByteLru<number, readonly RankedEntry[]> } | undefined;

  /** Bytes of search shards kept in memory (by their file sizes), beside the top file. */
  static readonly SEARCH_CACHE_BYTES = 4 * 2 ** 20;

  private searchOf(tag: string): NonNullable<DataStore["search"]> | undefined {
    return this.search?.tag === tag ? this.search : undefined;
  }

  /** The search index's top file (src/core/answer/search.ts `SearchTop`) of the manifest's data tag. A failure is not kept. */
  searchTop(assets: Assets, origin: URL, path: string, tag: string): Promise<SearchTop> {
    return keptOrLoaded(
      () => this.searchOf(tag)?.top,
      () => this.fetchJson<SearchTop>(assets, new URL(path, origin)),
      (top) => (this.search = { tag, top, shards: new ByteLru(this.searchCacheBytes) }),
    );
  }

  /**
   * A shard of the search index, of the top file's data tag (`searchTop` first).
   * Shards stay in the isolate's memory up to `SEARCH_CACHE_BYTES`, least recently
   * used evicted. A failure is not cached.
   */
  async searchShard(assets: Assets, origin: URL, n: number, bytes: number, tag: string): Promise<readonly RankedEntry[]> {
    const search = this.searchOf(tag);
    if (search === undefined) throw new Error(`search shard ${n}: the top file of ${tag} is not loaded`);
    return keptOrLoaded(
      () => search.shards.get(n),
      async () => shardEntries(search.top, await this.fetchJson<readonly ShardEntry[]>(assets, new URL(searchShardPath(n), origin))),
      (entries) => search.shards.set(n, entries, bytes),
    );
  }

  /** The answer index of an indicator at the manifest's data version (src/core/file/answer-index.ts). A failure is not cached. */
  answerIndex(assets: Assets, origin: URL, path: string, version: string): Promise<AnswerIndex> {
    return this.decoded(this.indexes, assets, new URL(path, origin), `${path}@${version}`, decodeAnswerIndex);
  }

  /**
   * The view of `indicator`'s answers (its index at `path` and `version`) with
   * the shards of the sub-series at `chosen` read (`null`: every shard). Read
   * shards stay in the isolate's memory up to `SHARD_CACHE_BYTES` in all, least
   * recently used dropped first; the caller bounds what one request reads
   * (`MAX_READ_BYTES`). A failure is not cached.
   */
  async view(assets: Assets, origin: URL, indicator: string, path: string, version: string, chosen: readonly number[] | null): Promise<AnswerView> {
    const index = await this.answerIndex(assets, origin, path, version);
    const wanted = shardsOf(index, chosen);
    return this.keptView(`${path}@${version}:${wanted.join(",")}`, () =>
      Promise.all(wanted.map((k) => this.shard(assets, origin, indicator, version, k, index))).then((read) =>
        shardView(index, new Map(wanted.map((k, i) => [k, read[i] as AnswerData]))),
      ),
    );
  }

  /**
   * The view of `indicator`'s answers (its index at `path` and `version`) from
   * time tile `t` (src/core/file/time-tiles.ts): every sub-series, with the points the
   * tile holds; read and kept as shards are. The caller bounds what one request reads.
   */
  async tileView(assets: Assets, origin: URL, indicator: string, path: string, version: string, t: number): Promise<AnswerView> {
    const index = await this.answerIndex(assets, origin, path, version);
    return this.keptView(`${path}@${version}:at${t}`, async () => {
      // What the decoded file takes: its bytes, and its values copied out as numbers (8 bytes a point, at most one per point's columns).
      const bytes = index.tiles[t]?.bytes ?? 0;
      const data = await this.kept(assets, new URL(answerTilePath(indicator, t), origin), version, bytes + 8 * Math.ceil(bytes / POINT_COLUMN_BYTES), decodeAnswers);
      return fileView(index, data);
    });
  }

  /** The view kept for `key`, or `make()`'s, kept once made (the oldest dropped beyond `VIEWS_KEPT`); a failure is not kept. */
  private keptView(key: string, make: () => Promise<AnswerView>): Promise<AnswerView> {
    return keptOrLoaded(
      () => this.views.get(key),
      make,
      (view) => {
        this.views.set(key, view);
        for (const oldKey of this.views.keys()) {
          if (this.views.size <= DataStore.VIEWS_KEPT) break;
          this.views.delete(oldKey);
        }
      },
    );
  }

  /** Shard `k` of an indicator's answers, read once and kept while the cache's bound allows. */
  private shard(assets: Assets, origin: URL, indicator: string, version: string, k: number, index: AnswerIndex): Promise<AnswerData> {
    const shard = index.shards[k];
    // What the decoded file takes: its bytes, and its values copied out as numbers (8 bytes a point).
    let points = 0;
    if (shard !== undefined) for (let s = shard.first; s < shard.first + shard.count; s++) points += index.counts[s] as number;
    return this.kept(assets, new URL(answerShardPath(indicator, k), origin), version, (shard?.bytes ?? 0) + 8 * points, decodeAnswers);
  }

  /** The file at `url` of data version `version` decoded, kept in the shards' cache as taking `bytes` once read; a failure is not kept. */
  private kept<T>(assets: Assets, url: URL, version: string, bytes: number, decode: (bytes: ArrayBuffer) => T): Promise<T> {
    const key = `${url.pathname}@${version}`;
    return keptOrLoaded(
      () => this.shards.get(key) as T | undefined,
      () => this.fetchDecoded(assets, url, decode),
      (data) => this.shards.set(key, data, bytes),
    );
  }

  /** Bytes of read shards the isolate keeps (at most its bound, beyond a single shard larger than it). */
  get keptShardBytes(): number {
    return this.shards.bytes;
  }

  private readonly histories = new Map<string, HistoryIndex>();

  /** The index of an indicator's history table (src/core/history/history.ts) of the manifest's data tag. A failure is not cached. */
  historyIndex(assets: Assets, origin: URL, path: string, tag: string): Promise<HistoryIndex> {
    return this.decoded(this.histories, assets, new URL(path, origin), `${path}@${tag}`, decodeHistoryIndex);
  }

  /**
   * Shards `wanted` of an indicator's history table (its decoded `index`, of data
   * tag `tag`), read once and kept in the shards' cache, in the order asked.
   */
  historyShards(assets: Assets, origin: URL, indicator: string, index: HistoryIndex, tag: string, wanted: readonly number[]): Promise<HistoryData[]> {
    // What a decoded shard takes: its bytes, its values copied out, and what is made and kept with it (src/core/history/history.ts
    // `VERSIONS_KEPT` versions' answers and change lists, about 50 bytes a point each against some 470 of file): under three times its size.
    return Promise.all(wanted.map((k) => this.kept(assets, new URL(historyShardPath(indicator, k), origin), tag, (index.shards[k]?.bytes ?? 0) * 3, decodeHistory)));
  }

  /**
   * Version `v` of an indicator's answers from its history table, with the
   * shards of its sub-series at `chosen` read (`null`: every shard); kept as
   * today's views are. The caller bounds what one request reads.
   */
  async historyView(assets: Assets, origin: URL, indicator: string, path: string, tag: string, v: number, chosen: readonly number[] | null): Promise<AnswerView> {
    const index = await this.historyIndex(assets, origin, path, tag);
    const wanted = historyShardsOf(index, v, chosen);
    return this.keptView(`${path}@${tag}#${v}:${wanted.join(",")}`, () =>
      this.historyShards(assets, origin, indicator, index, tag, wanted).then((read) => versionView(index, v, new Map(wanted.map((k, i) => [k, read[i] as HistoryData])))),
    );
  }

  /** The file at `url` decoded, kept per `key` in `cache` once read; a failure is not kept, so the next request tries again. */
  private decoded<T>(cache: Map<string, T>, assets: Assets, url: URL, key: string, decode: (bytes: ArrayBuffer) => T): Promise<T> {
    return keptOrLoaded(
      () => cache.get(key),
      () => this.fetchDecoded(assets, url, decode),
      (value) => cache.set(key, value),
    );
  }
}
