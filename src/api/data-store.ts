/**
 * What the function reads of the output folder, through `env.ASSETS`: the
 * manifest, the datasets and prebuilt pages, cached per isolate by data version.
 * A deployment's files never change, so nothing kept can go stale.
 */
import { decodeAnswers, type AnswerData } from "../core/answers.js";
import { decodeHistory, type HistoryData } from "../core/history.js";
import { MANIFEST_PATH, type Manifest } from "../core/manifest.js";
import { searchShardPath } from "../core/paths.js";
import { shardEntries, type RankedEntry, type SearchTop, type ShardEntry } from "../core/search.js";

/** What the function needs of `env.ASSETS`: fetching a static file of the output folder. */
export interface Assets {
  fetch(url: string): Promise<Response>;
}

export class DataStore {
  private manifestPromise: Promise<Manifest> | undefined;
  private readonly datasets = new Map<string, Promise<AnswerData>>();
  /** Recently served prebuilt pages (path → bytes), least recently used first. */
  private readonly pages = new Map<string, Uint8Array<ArrayBuffer>>();
  private pageBytes = 0;

  /** Bytes of prebuilt pages kept in memory, and the largest page kept. */
  static readonly PAGE_CACHE_BYTES = 16 * 2 ** 20;
  static readonly PAGE_CACHE_MAX_PAGE = 2 * 2 ** 20;

  private async fetchAsset(assets: Assets, url: URL): Promise<Response> {
    const response = await assets.fetch(url.toString());
    if (!response.ok) throw new Error(`${url.pathname}: static asset answered ${response.status}`);
    return response;
  }

  /** The build's manifest. A failure is not cached: the next request retries. */
  manifest(assets: Assets, origin: URL): Promise<Manifest> {
    this.manifestPromise ??= this.fetchAsset(assets, new URL(MANIFEST_PATH, origin))
      .then((response) => response.json() as Promise<Manifest>)
      .catch((error: unknown) => {
        this.manifestPromise = undefined;
        throw error;
      });
    return this.manifestPromise;
  }

  /**
   * The bytes of a prebuilt page. Pages up to 2 MiB stay in the isolate's memory
   * (16 MiB in all, least recently used evicted), so a hot page costs no asset
   * subrequest; larger ones are streamed from the asset each time.
   */
  async prebuilt(assets: Assets, url: URL, size: number): Promise<BodyInit> {
    const key = url.pathname;
    const kept = this.pages.get(key);
    if (kept !== undefined) {
      this.pages.delete(key);
      this.pages.set(key, kept);
      return kept;
    }
    const response = await this.fetchAsset(assets, url);
    if (size > DataStore.PAGE_CACHE_MAX_PAGE || response.body === null) return response.body ?? "";
    const bytes = new Uint8Array(await response.arrayBuffer());
    this.pages.set(key, bytes);
    this.pageBytes += bytes.length;
    for (const [oldKey, old] of this.pages) {
      if (this.pageBytes <= DataStore.PAGE_CACHE_BYTES) break;
      this.pages.delete(oldKey);
      this.pageBytes -= old.length;
    }
    return bytes;
  }

  /** The search index's top file and its shards kept (number → entries, least recently used first), of one data tag. */
  private search: { readonly tag: string; readonly top: Promise<SearchTop>; readonly shards: Map<number, { readonly entries: Promise<readonly RankedEntry[]>; readonly bytes: number }>; bytes: number } | undefined;

  /** Bytes of search shards kept in memory (by their file sizes), beside the top file. */
  static readonly SEARCH_CACHE_BYTES = 4 * 2 ** 20;

  /** @param searchCacheBytes the bytes of search shards kept (tests ask for less). */
  constructor(private readonly searchCacheBytes = DataStore.SEARCH_CACHE_BYTES) {}

  private searchOf(tag: string): NonNullable<DataStore["search"]> | undefined {
    return this.search?.tag === tag ? this.search : undefined;
  }

  /** The search index's top file (src/core/search.ts `SearchTop`) of the manifest's data tag. A failure is not cached. */
  searchTop(assets: Assets, origin: URL, path: string, tag: string): Promise<SearchTop> {
    const kept = this.searchOf(tag);
    if (kept !== undefined) return kept.top;
    const top = this.fetchAsset(assets, new URL(path, origin))
      .then((response) => response.json() as Promise<SearchTop>)
      .catch((error: unknown) => {
        if (this.search?.top === top) this.search = undefined;
        throw error;
      });
    this.search = { tag, top, shards: new Map(), bytes: 0 };
    return top;
  }

  /**
   * A shard of the search index, of the top file's data tag (`searchTop` first).
   * Shards stay in the isolate's memory up to `SEARCH_CACHE_BYTES`, least recently
   * used evicted. A failure is not cached.
   */
  searchShard(assets: Assets, origin: URL, n: number, bytes: number, tag: string): Promise<readonly RankedEntry[]> {
    const search = this.searchOf(tag);
    if (search === undefined) throw new Error(`search shard ${n}: the top file of ${tag} is not loaded`);
    const kept = search.shards.get(n);
    if (kept !== undefined) {
      search.shards.delete(n);
      search.shards.set(n, kept);
      return kept.entries;
    }
    const entries = Promise.all([search.top, this.fetchAsset(assets, new URL(searchShardPath(n), origin)).then((response) => response.json() as Promise<readonly ShardEntry[]>)])
      .then(([top, shard]) => shardEntries(top, shard))
      .catch((error: unknown) => {
        if (search.shards.get(n)?.entries === entries) {
          search.shards.delete(n);
          search.bytes -= bytes;
        }
        throw error;
      });
    search.shards.set(n, { entries, bytes });
    search.bytes += bytes;
    for (const [oldN, old] of search.shards) {
      // The shard just asked for stays, even alone over the budget: its query needs it.
      if (search.bytes <= this.searchCacheBytes || oldN === n) break;
      search.shards.delete(oldN);
      search.bytes -= old.bytes;
    }
    return entries;
  }

  /** The answer file of an indicator at the manifest's data version. A failure is not cached. */
  answers(assets: Assets, origin: URL, path: string, version: string): Promise<AnswerData> {
    return this.decoded(this.datasets, assets, new URL(path, origin), `${path}@${version}`, decodeAnswers);
  }

  private readonly histories = new Map<string, Promise<HistoryData>>();

  /** The history table of an indicator (src/core/history.ts) of the manifest's data tag. A failure is not cached. */
  history(assets: Assets, origin: URL, path: string, tag: string): Promise<HistoryData> {
    return this.decoded(this.histories, assets, new URL(path, origin), `${path}@${tag}`, decodeHistory);
  }

  /** The file at `url` decoded, once per `key` in `cache`; a failure is dropped from the cache, so the next request tries again. */
  private decoded<T>(cache: Map<string, Promise<T>>, assets: Assets, url: URL, key: string, decode: (bytes: ArrayBuffer) => T): Promise<T> {
    let promise = cache.get(key);
    if (promise === undefined) {
      promise = this.fetchAsset(assets, url)
        .then(async (response) => decode(await response.arrayBuffer()))
        .catch((error: unknown) => {
          cache.delete(key);
          throw error;
        });
      cache.set(key, promise);
    }
    return promise;
  }
}
