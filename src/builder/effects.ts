/**
 * Everything the build touches outside memory, passed in as one object (after
 * Observable Framework's `build(options, effects)`): reading `data/` and `public/`,
 * the data version from git, bundling the browser's scripts, writing the output and
 * logging. The CLI passes `nodeBuildEffects`; tests pass stand-ins.
 */
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { bundleClient, type ClientScripts } from "./bundle-client.js";
import { nodeFileEffects, type FileEffects } from "./output.js";
import { dataCommits, folderTimeAt, folderTrees, gitSourceFiles, type BlobCache } from "../source/git-files.js";
import type { HistorySource } from "./history.js";
import type { SourceFiles } from "../source/load.js";
import { folderVersion } from "../source/version.js";
import { putLocalR2 } from "./local-r2.js";

/** Where the build reports: warnings and the summary. */
export interface Log {
  info(line: string): void;
  warn(line: string): void;
}

export interface BuildEffects {
  /** Reading the data folder. */
  readonly source: SourceFiles;
  /** The text of a configuration file (`site.config.json`). */
  readConfig(file: string): Promise<string>;
  /** The files of `public/`, copied into the output as they are: relative path → bytes. */
  publicFiles(): Promise<Map<string, Uint8Array>>;
  /** The browser's scripts, bundled (src/builder/bundle-client.ts). */
  bundleClient(): Promise<ClientScripts>;
  /** The data version time of an indicator folder when `SOURCE_DATE_EPOCH` is not set. */
  /** The version time of an indicator's folder, or of its files matching `files` (src/source/version.ts). */
  folderVersion(folder: string, files?: string): Promise<number>;
  /** The data folder as published at a git revision, or `null` when there is no such revision. */
  publishedSource(dataDir: string, rev: string): Promise<SourceFiles | null>;
  /** The data's git history, for the history tables (src/builder/history.ts). */
  readonly history: HistorySource;
  /** Appends to a file (the CI job summary). */
  appendSummary(file: string, text: string): Promise<void>;
  /** Writing the output folder. */
  readonly output: FileEffects;
  /** Puts the files moved to R2 (`folder`, each named by its key) into wrangler's local R2 state `state` (src/builder/local-r2.ts). */
  localR2?(folder: string, keys: readonly string[], state: string): Promise<void>;
  readonly log: Log;
  /** Milliseconds, for the summary's timing only. */
  now(): number;
}

/** The real file system. */
export function nodeSourceFiles(): SourceFiles {
  return {
    folders: (dir) => fg("*", { cwd: dir, onlyDirectories: true }),
    // Every entry named *.csv, files or not: a folder or a broken link by that name
    // is reported ("cannot read"), never silently skipped.
    csvNames: (dir) => fg("*.csv", { cwd: dir, onlyFiles: false }),
    read: (file) => readFile(file),
  };
}

/** The data's git history, read with git; files shared between commits are read once. */
export function gitHistorySource(): HistorySource {
  const blobs: BlobCache = new Map();
  return {
    commits: dataCommits,
    trees: folderTrees,
    async files(dataDir, commit) {
      const files = await gitSourceFiles(dataDir, commit, blobs);
      if (files === null) throw new Error(`${commit} is not a commit of ${dataDir}`);
      return files;
    },
    folderTime: folderTimeAt,
  };
}

/** The effects of a real build from the project folder `root` (where `public/` and src/ are). */
export async function nodeBuildEffects(root: string, log: Log = { info: console.log, warn: console.warn }): Promise<BuildEffects> {
  return {
    source: nodeSourceFiles(),
    readConfig: (file) => readFile(file, "utf8"),
    async publicFiles() {
      const dir = join(root, "public");
      const paths = (await fg("**/*", { cwd: dir, dot: true, onlyFiles: true })).sort();
      const files = new Map<string, Uint8Array>();
      for (const path of paths) files.set(path, await readFile(join(dir, path)));
      return files;
    },
    bundleClient: () => bundleClient(root),
    folderVersion,
    publishedSource: gitSourceFiles,
    history: gitHistorySource(),
    appendSummary: (file, text) => appendFile(file, text),
    output: await nodeFileEffects(),
    async localR2(folder, keys, state) {
      const put = await putLocalR2(root, folder, keys, state);
      log.info(`local R2 (${state}): ${put} objects put, ${keys.length - put} already there`);
    },
    log,
    now: () => performance.now(),
  };
}
