/**
 * Editions of a publication kept as folders of a GitHub repository
 * (`publication.editions` in indicator.json: `{github, folder, name, file}`),
 * read through GitHub's REST API (its base overridable: GitHub Enterprise, or a
 * local stand-in in tests). An edition newer than any the indicator's points
 * cite is found, pinned to the commit that last changed its file, and proposed
 * to a person: its importer needs what the file does not say (the month it
 * applies from), so nothing of it is imported here.
 *
 * Three requests per new edition, one when there is none:
 * - `GET {api}/repos/{github}/contents/{folder}`: the folder's entries (`name`,
 *   `path`, `type`, `html_url`); the sub-folders whose name matches `name` are
 *   the editions, ordered by the numbers its groups capture (src/source/links.ts);
 * - `GET {api}/repos/{github}/commits?path={folder}/{edition}/{file}&per_page=1`:
 *   the newest commit of the edition's file, so the address the points will cite
 *   (`https://github.com/{github}/blob/{commit}/…`) keeps naming these bytes;
 * - `GET {api}/repos/{github}/contents/{folder}/{edition}?ref={commit}`: the
 *   file's entry, with its `download_url` at that commit.
 *
 * Which edition a point cites is read from its source, the address of a line of
 * the file at a commit (`…/blob/<commit>/<folder>/<edition>/<file>#L<line>`).
 */
import { NO_SEPARATORS, withQuery } from "../core/text/url.js";
import { z } from "zod";
import { captureKey, compareKeys } from "./links.js";

/** What indicator.json declares. */
export interface EditionsDeclaration {
  readonly github: string;
  readonly folder: string;
  readonly name: string;
  readonly file: string;
}

/** An edition not in the data yet, with the addresses a person needs to import it. */
export interface Edition {
  /** The folder's name, e.g. `2026-3`. */
  readonly name: string;
  /** The folder's page on GitHub (`html_url`). */
  readonly page: string;
  /** The commit that last changed its file. */
  readonly commit: string;
  /** The address its points will cite (without `#L<line>`): the file at that commit. */
  readonly source: string;
  /** Where to download the file at that commit (`download_url`). */
  readonly download: string;
}

/** What a look at the editions found: the listing's address (the check's `read`), the newest cited, and the newer ones, oldest first. */
export interface EditionsFound {
  readonly listing: string;
  readonly newestCited: string | null;
  readonly newer: readonly Edition[];
}

/** Reads JSON from GitHub's API; rejects with a reason (`HTTP 404 Not Found`, …) the caller words as a fault. */
export type GetJson = (url: string) => Promise<unknown>;

/** The web address of a file of a repository at a commit, as the points cite it. */
export function blobAddress(github: string, commit: string, path: string): string {
  return `https://github.com/${github}/blob/${commit}/${path}`;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The editions the sources cite: the folder names in `…/blob/<commit>/<folder>/<edition>/<file>`. */
export function citedEditions(declaration: EditionsDeclaration, sources: Iterable<string>): Set<string> {
  const { github, folder, file } = declaration;
  const cited = new RegExp(`^https://github\\.com/${escape(github)}/blob/[^/]+/${escape(folder)}/([^/]+)/${escape(file)}(?:#.*)?$`);
  const names = new Set<string>();
  for (const source of sources) {
    const name = cited.exec(source)?.[1];
    if (name !== undefined) names.add(name);
  }
  return names;
}

const entries = z.array(z.looseObject({ name: z.string(), path: z.string(), type: z.string(), html_url: z.string().nullable().optional(), download_url: z.string().nullable().optional() }));
const commits = z.array(z.looseObject({ sha: z.string().regex(/^[0-9a-f]{40}$/) }));

/** Parses an answer of the API or throws an Error saying what was expected. */
function read<T>(schema: z.ZodType<T>, answer: unknown, url: string, what: string): T {
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new Error(`${url} did not answer ${what}`);
  return parsed.data;
}

/**
 * Looks at the repository's folder for editions newer than the newest the data cites.
 * When the data cites none, the newest listed is the one proposed.
 * @throws Error with the reason when an answer is not what the API gives, or an
 *   edition has no such file (the caller words it as a fault of indicator.json).
 */
export async function findEditions(declaration: EditionsDeclaration, sources: Iterable<string>, api: string, getJson: GetJson): Promise<EditionsFound> {
  const { github, folder, file } = declaration;
  const base = api.replace(/\/+$/, "");
  const listing = `${base}/repos/${github}/contents/${folder}`;
  const pattern = new RegExp(declaration.name);
  const listed = read(entries, await getJson(listing), listing, "a JSON list of the folder's entries (name, path, type)")
    .filter((e) => e.type === "dir")
    .flatMap((e) => {
      const key = captureKey(pattern, e.name);
      return key === null ? [] : [{ entry: e, key }];
    })
    .sort((a, b) => compareKeys(a.key, b.key));
  const cited = [...citedEditions(declaration, sources)].flatMap((name) => {
    const key = captureKey(pattern, name);
    return key === null ? [] : [{ name, key }];
  });
  const newestCited = cited.sort((a, b) => compareKeys(a.key, b.key)).at(-1) ?? null;
  const newerEntries = newestCited === null ? listed.slice(-1) : listed.filter((l) => compareKeys(l.key, newestCited.key) > 0);
  const newer: Edition[] = [];
  for (const { entry } of newerEntries) {
    const path = `${entry.path}/${file}`;
    const commitsUrl = withQuery(`${base}/repos/${github}/commits`, [["path", path], ["per_page", "1"]], NO_SEPARATORS);
    const [last] = read(commits, await getJson(commitsUrl), commitsUrl, "a JSON list of commits");
    if (last === undefined) throw new Error(`${entry.path} has no ${file}: no commit changed ${path} (${commitsUrl})`);
    const folderUrl = withQuery(`${base}/repos/${github}/contents/${entry.path}`, [["ref", last.sha]]);
    const found = read(entries, await getJson(folderUrl), folderUrl, "a JSON list of the folder's entries").find((e) => e.name === file && e.type === "file");
    if (found?.download_url === undefined || found.download_url === null) throw new Error(`${entry.path} has no ${file} at ${last.sha} (${folderUrl})`);
    newer.push({
      name: entry.name,
      page: entry.html_url ?? `https://github.com/${github}/tree/${last.sha}/${entry.path}`,
      commit: last.sha,
      source: blobAddress(github, last.sha, path),
      download: found.download_url,
    });
  }
  return { listing, newestCited: newestCited?.name ?? null, newer };
}
