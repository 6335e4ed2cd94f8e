/**
 * What the function reads of the output folder, through `env.ASSETS`: the
 * manifest, the datasets and prebuilt pages, cached per isolate by data version.
 * A deployment's files never change, so nothing kept can go stale.
 */
import { decodeAnswers, type AnswerData } from "../core/answers.js";
import { decodeHistory, type HistoryData } from "../core/history.js";
import { MANIFEST_PATH, type Manifest } from "../core/manifest.js";
import type { SearchIndex } from "../core/search.js";

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

  private search: { readonly tag: string; readonly index: Promise<SearchIndex> } | undefined;

  /** The search index (src/core/search.ts) of the manifest's data tag. A failure is not cached. */
  searchIndex(assets: Assets, origin: URL, path: string, tag: string): Promise<SearchIndex> {
    if (this.search?.tag !== tag) {
      const index = this.fetchAsset(assets, new URL(path, origin))
        .then((response) => response.json() as Promise<SearchIndex>)
        .catch((error: unknown) => {
          this.search = undefined;
          throw error;
        });
      this.search = { tag, index };
    }
    return this.search.index;
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
