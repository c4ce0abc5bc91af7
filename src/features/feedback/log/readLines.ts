import type { FileHandle } from 'node:fs/promises';

/** Where one line is in a file. */
export interface LineRef {
  offset: number;
  length: number;
}

/** Neighbouring lines closer than this are fetched with one read. */
const MERGE_GAP_BYTES = 64 * 1024;
const MAX_READ_BYTES = 1024 * 1024;

/**
 * Reads the given lines of one file through an open handle (`path` names it in errors),
 * returning their text in the order asked. Lines close together (a page of recent entries
 * usually is) are fetched in one positional read.
 */
export async function readLines(handle: FileHandle, path: string, refs: LineRef[]): Promise<string[]> {
  const out = new Array<string>(refs.length);
  const order = refs.map((_, i) => i).sort((a, b) => refs[a].offset - refs[b].offset);
  let i = 0;
  while (i < order.length) {
    const start = refs[order[i]].offset;
    let end = start + refs[order[i]].length;
    let j = i + 1;
    for (; j < order.length; j++) {
      const next = refs[order[j]];
      if (next.offset - end > MERGE_GAP_BYTES || next.offset + next.length - start > MAX_READ_BYTES) break;
      end = Math.max(end, next.offset + next.length);
    }
    const buffer = Buffer.allocUnsafe(end - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    if (bytesRead < buffer.length) throw new Error(`feedback segment ${path} is shorter than its index`);
    for (let k = i; k < j; k++) {
      const ref = refs[order[k]];
      out[order[k]] = buffer.toString('utf8', ref.offset - start, ref.offset - start + ref.length);
    }
    i = j;
  }
  return out;
}
