/** JSON input files (`indicator.json`, `site.config.json`, an importer's mapping): a syntax error located by line. */
import { DataError, type DataIssue } from "./errors.js";

/** Either the parsed value or the located syntax fault. */
export function readJson(text: string, file: string): { ok: true; value: unknown } | { ok: false; issue: DataIssue } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    // JSON.parse names a character position; a maintainer wants the line.
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const line = position === undefined ? undefined : text.slice(0, Number(position)).split("\n").length;
    const reason = `invalid JSON: ${message}`;
    return { ok: false, issue: line === undefined ? { file, reason } : { file, line, reason } };
  }
}

/**
 * Parses JSON text.
 * @throws DataError with the located syntax fault.
 */
export function parseJson(text: string, file: string): unknown {
  const result = readJson(text, file);
  if (!result.ok) throw new DataError([result.issue]);
  return result.value;
}
