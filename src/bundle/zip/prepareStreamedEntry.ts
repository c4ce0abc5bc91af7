import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createDeflateRaw, crc32 } from 'node:zlib';
import type { TextPiece } from '../BundleSink.js';
import { encodeTextInChunks, TEXT_CHUNK_BYTES } from '../encodeTextInChunks.js';
import { DEFLATE_LEVEL, DEFLATED, type ZipEntryData } from './prepareZipEntry.js';

/**
 * The zip entry for a text file that arrives in pieces: encoded a megabyte at a time (see
 * encodeTextInChunks), checksummed, hashed and deflated chunk by chunk (the deflating on libuv's
 * thread pool), so only the compressed result is ever held. Always deflated: streamed files
 * are text assembled from pages (llms-full.txt, the search index).
 */
export async function prepareStreamedEntry(rel: string, parts: AsyncIterable<TextPiece>): Promise<ZipEntryData> {
  const hash = createHash('sha256');
  // An output buffer as large as the chunks that go in: zlib hands back one buffer per round trip
  // to the thread pool, and each round trip waits for a turn of the event loop, which a render
  // gives once per batch of pages. With zlib's 16 KB default, a megabyte took 16 turns, and on a
  // large site many pages' copies were still waiting near the end of its export.
  const deflate = createDeflateRaw({ level: DEFLATE_LEVEL, chunkSize: TEXT_CHUNK_BYTES + 64 * 1024 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = once(deflate, 'end');
  let crc = 0;
  let size: number;
  try {
    size = await encodeTextInChunks(parts, (bytes) => {
      hash.update(bytes);
      crc = crc32(bytes, crc);
      // The chunk's buffer is reused once the deflater has taken in every byte of it.
      return new Promise((resolve, reject) => deflate.write(bytes, (err) => (err ? reject(err) : resolve())));
    });
    deflate.end();
    await ended;
  } catch (err) {
    deflate.destroy();
    throw err;
  }
  // Its own buffer, exactly sized, like every other entry's data.
  const data = new Uint8Array(Buffer.concat(compressed));
  return { file: { path: rel, size, sha256: hash.digest('hex') }, crc, method: DEFLATED, data };
}
