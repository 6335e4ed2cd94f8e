/**
 * Rewriting a zip archive deterministically. Every zip entry carries a
 * last-modified DOS date and time (APPNOTE.TXT §4.4.6), which zip writers take
 * from the clock, so the same content comes out with different bytes at every
 * run; and a writer that streams may add its entries in the order they finish.
 * This rewrites the archive with JSZip: its files in the order of their names,
 * each dated `date` and compressed with DEFLATE by JSZip's compressor (pako,
 * JavaScript: the same bytes on every machine, where a native zlib may differ
 * by version or CPU).
 */
import JSZip from "jszip";
import { byCodeUnits } from "../../core/order.js";

/** The earliest time a DOS date can hold (1980-01-01T00:00:00Z); an earlier date is raised to it. */
const DOS_EPOCH_MS = Date.UTC(1980, 0, 1);

/** The files of the archive `zip` in a canonical archive: sorted by name, every one dated `date` (JSZip writes its UTC fields). */
export async function withFixedDates(zip: Uint8Array, date: Date): Promise<Uint8Array> {
  const fixed = new Date(Math.max(date.getTime(), DOS_EPOCH_MS));
  const source = await JSZip.loadAsync(zip);
  const target = new JSZip();
  const names = Object.keys(source.files)
    .filter((name) => !(source.files[name]?.dir ?? true))
    .sort(byCodeUnits);
  for (const name of names) {
    const entry = source.file(name);
    if (entry === null) continue;
    // Only files: a folder entry says nothing an OPC reader needs (ECMA-376 Part 2), and none is added.
    target.file(name, await entry.async("uint8array"), { date: fixed, createFolders: false, binary: true });
  }
  return target.generateAsync({ type: "uint8array", compression: "DEFLATE", platform: "DOS" });
}
