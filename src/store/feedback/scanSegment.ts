import { open } from 'node:fs/promises';

const CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/** What a scan found at the end of a segment. */
export interface SegmentScan {
  /** Bytes up to and including the last newline: the part made of whole records. */
  completeBytes: number;
  /** Bytes after the last newline (a record torn by a crash), 0 when the file ends cleanly. */
  tornBytes: number;
}

/**
 * Streams a JSON Lines segment and calls `onLine(text, offset, length)` for every
 * newline-terminated line (length includes the newline). Reads in large chunks so a million
 * lines load in a second or two; memory stays at one chunk plus a line.
 */
export async function scanSegment(path: string, onLine: (text: string, offset: number, length: number) => void): Promise<SegmentScan> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry: Buffer | null = null; // the unfinished line at the end of the previous chunk
    let carryOffset = 0;
    let position = 0;
    // Bounded by the file size read at the start; appends after that are not ours to scan.
    while (position < size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, size - position), position);
      if (bytesRead <= 0) break;
      let chunk = buffer.subarray(0, bytesRead);
      let chunkOffset = position;
      if (carry) {
        chunk = Buffer.concat([carry, chunk]);
        chunkOffset = carryOffset;
        carry = null;
      }
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        onLine(chunk.toString('utf8', start, nl), chunkOffset + start, nl + 1 - start);
        start = nl + 1;
      }
      if (start < chunk.length) {
        carry = Buffer.from(chunk.subarray(start)); // copy: `buffer` is reused by the next read
        carryOffset = chunkOffset + start;
      }
      position += bytesRead;
    }
    const tornBytes = carry ? carry.length : 0;
    return { completeBytes: position - tornBytes, tornBytes };
  } finally {
    await handle.close();
  }
}
