import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/**
 * The text of a record written by `writeChecksummedFile` (its first line the SHA-256 of the
 * rest), without that line; null when the file is missing, truncated or altered: a record the
 * export can't trust is one it does without.
 */
export async function readChecksummedFile(path: string): Promise<string | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null || text.indexOf('\n') !== 64 || sha256(text.slice(65)) !== text.slice(0, 64)) return null;
  return text.slice(65);
}

/** Writes `payload` under its SHA-256 line, under a temporary name first, so a racing reader sees one whole record or the other. */
export async function writeChecksummedFile(path: string, payload: string): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${sha256(payload)}\n${payload}`);
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true }).catch(() => {});
    throw err;
  }
}
