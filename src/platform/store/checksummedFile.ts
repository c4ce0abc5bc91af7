import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * The payload of a record written by `writeChecksummedFile` (its first line the SHA-256 of the
 * rest), without that line; null when the file is missing, truncated or altered: a record the
 * caller can't trust is one it does without (the caches' records, the last export's record).
 */
export async function readChecksummedBytes(path: string): Promise<Buffer | null> {
  const data = await readFile(path).catch(() => null);
  if (!data || data.length < 65 || data[64] !== 0x0a) return null;
  const payload = data.subarray(65);
  return sha256(payload) === data.toString('latin1', 0, 64) ? payload : null;
}

/** readChecksummedBytes for a text payload. */
export async function readChecksummedFile(path: string): Promise<string | null> {
  return (await readChecksummedBytes(path))?.toString('utf8') ?? null;
}

/** Writes `payload` under its SHA-256 line, under a temporary name first, so a racing reader sees one whole record or the other. */
export async function writeChecksummedFile(path: string, payload: string | Uint8Array): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(
      temporary,
      typeof payload === 'string' ? `${sha256(payload)}\n${payload}` : Buffer.concat([Buffer.from(`${sha256(payload)}\n`), payload]),
    );
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true }).catch(() => {});
    throw err;
  }
}
