import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { DEFLATE_LEVEL, DEFLATED, type ZipEntryData } from './prepareZipEntry.js';

/**
 * The zip entry for a file that arrives in pieces: checksummed, hashed and deflated piece by
 * piece (the deflating on libuv's thread pool), so only the compressed result is ever held.
 * Always deflated: a streamed file is text assembled from pages (llms-full.txt).
 */
export async function prepareStreamedEntry(rel: string, parts: AsyncIterable<Uint8Array>): Promise<ZipEntryData> {
  const hash = createHash('sha256');
  const deflate = createDeflateRaw({ level: DEFLATE_LEVEL });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = once(deflate, 'end');
  let crc = 0;
  let size = 0;
  try {
    for await (const part of parts) {
      hash.update(part);
      crc = crc32(part, crc);
      size += part.length;
      if (!deflate.write(part)) await once(deflate, 'drain');
    }
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
