/** The plan of the downloads' parts (src/builder/download-parts.ts) on hand-made CSV lines. */
import { describe, expect, it } from "vitest";
import { downloadParts, type CsvLines } from "../../src/builder/download-parts.js";

/** Lines of `bytes` bytes each (a date, then padding), in the order given. */
function lines(dates: readonly string[], bytes: number, header = 10): CsvLines {
  const text = dates.map((d) => `${d},${"x".repeat(bytes - 12)}\n`).join("");
  return { header, bytes: new TextEncoder().encode(text), ends: Uint32Array.from(dates, (_, i) => (i + 1) * bytes) };
}
const names = (parts: ReturnType<typeof downloadParts>) => parts?.map((p) => `${p.name} ${p.from}-${p.to}`);

describe("downloadParts", () => {
  it("keeps files that fit whole: no parts", () => {
    expect(downloadParts("x", [lines(["2025-01-02", "2024-12-31"], 20)], 50)).toBeUndefined();
    // The largest rendering decides (data.es.csv is longer than data.csv).
    expect(downloadParts("x", [lines(["2025-01-02", "2024-12-31"], 20), lines(["2025-01-02", "2024-12-31"], 30)], 50)).toHaveLength(2);
  });

  it("gathers whole days from a year's oldest, and cuts a day too large alone between its lines", () => {
    const dates = ["2025-03-02", "2025-03-02", "2025-03-01", "2025-02-01", "2025-02-01", "2025-02-01", "2025-02-01", "2025-02-01", "2024-12-31"];
    // 20 bytes a line, 10 of header, 70 a file: three lines at most. The five lines of 2025-02-01 are cut
    // after three (part 1); their last two and 2025-03-01 make part 2; 2025-03-02 would not fit there: part 3.
    expect(names(downloadParts("x", [lines(dates, 20)], 70))).toEqual(["2025-part-3 0-2", "2025-part-2 2-5", "2025-part-1 5-8", "2024 8-9"]);
  });

  it("refuses a line that no file can hold, naming it", () => {
    expect(() => downloadParts("x", [lines(["2025-01-02", "2025-01-02", "2025-01-01"], 40)], 45)).toThrow(/x: the point on line \d of data\.csv is over the largest file/);
  });
});
