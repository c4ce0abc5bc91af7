/** Bytes encoded before each hand-over to `consume`. */
export const TEXT_CHUNK_BYTES = 1 << 20;

import type { TextPiece } from './BundleSink.js';

/**
 * Encodes text pieces as UTF-8 into one reused buffer (a piece already in bytes is copied as it is) and hands each full buffer to `consume`,
 * waiting for it before filling the buffer again. Streamed files (llms-full.txt, the search
 * index) arrive a page at a time; a buffer per piece would leave megabytes of dead buffers
 * outside the heap until the next collection, where V8 doesn't see them as pressure. A piece
 * larger than the buffer is handed over in a buffer of its own. Resolves with the bytes encoded.
 */
export async function encodeTextInChunks(parts: AsyncIterable<TextPiece>, consume: (bytes: Buffer) => Promise<void>): Promise<number> {
  const buffer = Buffer.allocUnsafe(TEXT_CHUNK_BYTES);
  let used = 0;
  let total = 0;
  const handOver = async (bytes: Buffer) => {
    total += bytes.length;
    await consume(bytes);
  };
  for await (const part of parts) {
    const length = typeof part === 'string' ? Buffer.byteLength(part) : part.length;
    if (used + length > TEXT_CHUNK_BYTES && used > 0) {
      await handOver(buffer.subarray(0, used));
      used = 0;
    }
    if (length > TEXT_CHUNK_BYTES)
      await handOver(typeof part === 'string' ? Buffer.from(part) : Buffer.from(part.buffer, part.byteOffset, length));
    else if (typeof part === 'string') used += buffer.write(part, used);
    else {
      buffer.set(part, used);
      used += length;
    }
  }
  if (used > 0) await handOver(buffer.subarray(0, used));
  return total;
}
