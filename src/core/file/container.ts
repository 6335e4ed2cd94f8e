/**
 * The binary container of the internal data file (src/core/file/answers.ts, the
 * function's answer file): a 4-byte magic, a u32 header length, the header as UTF-8
 * JSON, zero padding to a multiple of 4, then sections one after the other, the
 * sizes of all but the last known from the header. Little-endian.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A new container: its bytes, a view on them, and the offset of each section (sizes in bytes). */
export function createContainer(magic: string, header: object, sizes: readonly number[]): { bytes: Uint8Array; view: DataView; offsets: number[] } {
  const headerBytes = encoder.encode(JSON.stringify(header));
  const offsets: number[] = [];
  let at = Math.ceil((8 + headerBytes.length) / 4) * 4;
  for (const size of sizes) {
    offsets.push(at);
    at += size;
  }
  const bytes = new Uint8Array(at);
  const view = new DataView(bytes.buffer);
  bytes.set(encoder.encode(magic), 0);
  view.setUint32(4, headerBytes.length, true);
  bytes.set(headerBytes, 8);
  return { bytes, view, offsets };
}

/**
 * Opens a container: checks the magic, parses the header and finds the sections,
 * whose sizes but the last (which runs to the end) `sizes` gives from the header.
 * The bytes are copied when not 4-byte aligned (a fetched ArrayBuffer always is),
 * so that typed arrays can view the sections.
 * @throws Error when the bytes are not such a container, or are cut short.
 */
export function openContainer<H>(
  input: ArrayBuffer | Uint8Array,
  magic: string,
  kind: string,
  sizes: (header: H) => readonly number[],
): { bytes: Uint8Array; header: H; offsets: number[] } {
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice();
  if (bytes.length < 8 || decoder.decode(bytes.subarray(0, 4)) !== magic) throw new Error(`not ${kind} (bad magic)`);
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
  const header = JSON.parse(decoder.decode(bytes.subarray(8, 8 + headerLength))) as H;
  const offsets: number[] = [];
  let at = Math.ceil((8 + headerLength) / 4) * 4;
  for (const size of sizes(header)) {
    offsets.push(at);
    at += size;
  }
  offsets.push(at);
  if (at > bytes.length) throw new Error(`not ${kind} (truncated)`);
  return { bytes, header, offsets };
}

/** Writes `values` as a column of 32-bit integers at `offset`, little-endian: unsigned, or `signed` (day numbers may be before 1970). */
export function writeColumn(view: DataView, offset: number, values: ArrayLike<number>, signed = false): void {
  for (let i = 0; i < values.length; i++) {
    if (signed) view.setInt32(offset + 4 * i, values[i] as number, true);
    else view.setUint32(offset + 4 * i, values[i] as number, true);
  }
}
