import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** SHA-256 (hex) of a file, streamed so large bundles never sit in memory for hashing. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
