/**
 * Writing a zip archive deterministically. Every zip entry carries a
 * last-modified DOS date and time (APPNOTE.TXT §4.4.6), which zip writers take
 * from the clock, so the same content comes out with different bytes at every
 * run; and a writer that streams may add its entries in the order they finish.
 * This writes the archive with JSZip: its files in the order of their names,
 * each dated `date` and compressed with DEFLATE by JSZip's compressor (pako,
 * JavaScript: the same bytes on every machine, where a native zlib may differ
 * by version or CPU).
 */
import JSZip from "jszip";
import { byCodeUnits } from "../../core/text/order.js";

/** The earliest time a DOS date can hold (1980-01-01T00:00:00Z); an earlier date is raised to it. */
const DOS_EPOCH_MS = Date.UTC(1980, 0, 1);

/** `files` (name → bytes) as a canonical archive: sorted by name, every one dated `date`, no folder entries. */
export function zipFiles(files: ReadonlyMap<string, Uint8Array>, date: Date): Promise<Uint8Array> {
  const fixed = new Date(Math.max(date.getTime(), DOS_EPOCH_MS));
  const target = new JSZip();
  for (const name of [...files.keys()].sort(byCodeUnits)) {
    target.file(name, files.get(name) as Uint8Array, { date: fixed, createFolders: false, binary: true });
  }
  return target.generateAsync({ type: "uint8array", compression: "DEFLATE", platform: "DOS" });
}
