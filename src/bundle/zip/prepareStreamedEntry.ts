import { createHash } from 'node:crypto';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { DeflateRun, RunLayout, TextPiece } from '../BundleSink.js';
import { DEFLATE_LEVEL, DEFLATED, type ZipEntryData } from './prepareZipEntry.js';
import type { PreviousRuns } from './PreviousRuns.js';
import { FINAL_BLOCK } from './deflateRunMarkers.js';

/** A streamed entry and how it was deflated (kept for the next export: see RunLayout). */
export interface StreamedEntryData extends ZipEntryData {
  layout: RunLayout;
}

/** A run ends after a piece of at least this many bytes whose length is a multiple of it (see `endsRun`). */
const RUN_END_MODULUS = 32;
/** A run is cut here whatever its pieces: it bounds the memory a run takes. */
const RUN_MAX_BYTES = 1 << 20;

/**
 * The zip entry for a text file that arrives in pieces (llms-full.txt, the search index, the
 * section chunks: one or a few pieces per page, in page order), deflated in *runs*: the pieces
 * are gathered until one ends a run, and each run is deflated alone with a full flush, so its
 * compressed bytes follow from its own bytes only. A run the previous zip holds (`previous`, by
 * the SHA-256 of its bytes) is copied from there instead: on a one-page edit every run but the
 * changed page's is. A full export makes the very same runs, so both give the same archive.
 * Where runs end depends on the pieces alone (a piece whose byte length is a multiple of 32
 * ends one), never on what came before them, so an edit moves no run boundary but its own.
 * The CRC-32 and SHA-256 are taken over every byte as before; the runs are deflated on this
 * thread, a run (tens of kilobytes) at a time, which keeps pace with the pages as they arrive.
 */
export async function prepareStreamedEntry(
  rel: string,
  parts: AsyncIterable<TextPiece>,
  previous: PreviousRuns | null = null,
): Promise<StreamedEntryData> {
  const hash = createHash('sha256');
  const compressed: Buffer[] = [];
  const runs: DeflateRun[] = [];
  const run = new RunBuffer();
  let crc = 0;
  let size = 0;
  const endRun = () => {
    if (run.length === 0) return;
    const bytes = run.bytes();
    hash.update(bytes);
    crc = crc32(bytes, crc);
    size += bytes.length;
    const sha256 = createHash('sha256').update(bytes).digest('base64');
    const deflated =
      previous?.take(sha256, bytes.length) ?? deflateRawSync(bytes, { level: DEFLATE_LEVEL, finishFlush: constants.Z_FULL_FLUSH });
    compressed.push(deflated);
    runs.push([sha256, bytes.length, deflated.length]);
    run.clear();
  };
  for await (const piece of parts) {
    const length = run.add(piece);
    if (endsRun(length) || run.length >= RUN_MAX_BYTES) endRun();
  }
  endRun();
  compressed.push(FINAL_BLOCK);
  // Its own buffer, exactly sized, like every other entry's data.
  const data = new Uint8Array(Buffer.concat(compressed));
  const file = { path: rel, size, sha256: hash.digest('hex') };
  return { file, crc, method: DEFLATED, data, layout: { path: rel, size, sha256: file.sha256, crc, compressedSize: data.length, runs } };
}

/** Whether a piece of `length` bytes ends its run: about one piece in 32, the separators never. */
function endsRun(length: number): boolean {
  return length >= RUN_END_MODULUS && length % RUN_END_MODULUS === 0;
}

/**
 * The bytes of the run being gathered, in one buffer reused from run to run: a buffer per piece
 * would leave megabytes of dead buffers outside the heap until the next collection.
 */
class RunBuffer {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  length = 0;

  /** Appends a piece (text as UTF-8); returns its length in bytes. */
  add(piece: TextPiece): number {
    const length = typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
    if (this.length + length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + length));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    if (typeof piece === 'string') this.buffer.write(piece, this.length);
    else this.buffer.set(piece, this.length);
    this.length += length;
    return length;
  }

  /** The run's bytes (valid until the next `clear`). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}
