import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Replaces `path` so that a crash at any moment leaves either the old or the new content:
 * write a temp file beside it, fsync it, rename over the target, fsync the directory.
 * Resolves only once the new content is durable.
 */
export async function writeFileDurably(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  await writeFileDurablyWith(path, mode, (handle) => handle.writeFile(data));
}

/** `writeFileDurably` for content produced piece by piece: `write` fills the open temp file. */
export async function writeFileDurablyWith<T>(path: string, mode: number, write: (handle: FileHandle) => Promise<T>): Promise<T> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(tmp, 'w', mode);
  let result: T;
  try {
    result = await write(handle);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await fsyncDirectory(dirname(path));
  return result;
}

/** Makes a rename or file creation in `dir` durable. */
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
