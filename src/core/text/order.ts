/**
 * The one string order of the project: by UTF-16 code units, never by locale. Ids
 * and `YYYY-MM-DD` dates sort the same on every machine and in every runtime.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
