import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { DEFLATE_LEVEL, DEFLATED, type ZipEntryData } from './prepareZipEntry.js';

/** Bytes handed to the deflate stream at a time. */
const CHUNK_BYTES = 1 << 20;

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
  // Pieces are small (a page's Markdown, a separator) and each write to the stream is a round
  // trip to the thread pool: gathered into chunks, 2,000 pieces are a handful of writes.
  let gathered: Uint8Array[] = [];
  let gatheredBytes = 0;
  const writeGathered = async () => {
    const chunk = Buffer.concat(gathered);
    gathered = [];
    gatheredBytes = 0;
    if (!deflate.write(chunk)) await once(deflate, 'drain');
  };
  try {
    for await (const part of parts) {
      hash.update(part);
      crc = crc32(part, crc);
      size += part.length;
      gathered.push(part);
      gatheredBytes += part.length;
      if (gatheredBytes >= CHUNK_BYTES) await writeGathered();
    }
    if (gatheredBytes > 0) await writeGathered();
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
