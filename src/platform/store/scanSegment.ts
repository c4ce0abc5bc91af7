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
 * newline-terminated line (length includes the newline). Reads in large chunks, the next one
 * while the current one is parsed, so a million lines load in a second or two; memory stays
 * at two chunks plus a line. `from` starts at that byte (a line boundary: the end of what a
 * checkpoint already counted); offsets stay those of the file.
 */
export async function scanSegment(
  path: string,
  onLine: (text: string, offset: number, length: number) => void,
  options: { from?: number } = {},
): Promise<SegmentScan> {
  const handle = await open(path, 'r');
  let reading: Promise<{ bytesRead: number }> | null = null;
  try {
    const size = (await handle.stat()).size;
    const buffers = [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
    const readAt = (position: number, buffer: Buffer) => handle.read(buffer, 0, Math.min(CHUNK_BYTES, size - position), position);
    let carry: Buffer | null = null; // the unfinished line at the end of the previous chunk
    let carryOffset = 0;
    let position = Math.min(options.from ?? 0, size);
    let turn = 0;
    if (size > position) reading = readAt(position, buffers[0]);
    // Bounded by the file size read at the start; appends after that are not ours to scan.
    while (reading) {
      const { bytesRead } = await reading;
      reading = null;
      if (bytesRead <= 0) break;
      const chunk = buffers[turn].subarray(0, bytesRead);
      const chunkOffset = position;
      position += bytesRead;
      turn = 1 - turn;
      if (position < size) reading = readAt(position, buffers[turn]);
      let start = 0;
      if (carry) {
        // Only the straddling line is joined: joining the carry to the whole chunk copied every
        // chunk once more.
        const nl = chunk.indexOf(NEWLINE);
        if (nl === -1) {
          carry = Buffer.concat([carry, chunk]);
          continue;
        }
        const line = Buffer.concat([carry, chunk.subarray(0, nl)]);
        onLine(line.toString('utf8'), carryOffset, line.length + 1);
        carry = null;
        start = nl + 1;
      }
      start = emitLines(chunk, start, chunkOffset, onLine);
      if (start < chunk.length) {
        carry = Buffer.from(chunk.subarray(start)); // copy: this buffer takes the read after next
        carryOffset = chunkOffset + start;
      }
    }
    const tornBytes = carry ? carry.length : 0;
    return { completeBytes: position - tornBytes, tornBytes };
  } finally {
    // A bad line stops the scan with a read in flight; let it settle before closing.
    await (reading as Promise<unknown> | null)?.catch(() => undefined);
    await handle.close();
  }
}

/**
 * Calls `onLine` for each whole line of `chunk` from byte `from` on (the chunk starting at file
 * offset `chunkOffset`); returns where the unfinished rest begins.
 */
function emitLines(
  chunk: Buffer,
  from: number,
  chunkOffset: number,
  onLine: (text: string, offset: number, length: number) => void,
): number {
  let start = from;
  for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
    onLine(chunk.toString('utf8', start, nl), chunkOffset + start, nl + 1 - start);
    start = nl + 1;
  }
  return start;
}
