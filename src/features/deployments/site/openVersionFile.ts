import { constants } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { AppError } from '../../../platform/AppError.js';

/** The activation wrote every file itself, so a symlink here means tampering: never follow one. */
const READ_NO_SYMLINK = constants.O_RDONLY | constants.O_NOFOLLOW;
/** Open errors that mean "this path is not a plain file of the version" rather than a fault. */
const NOT_A_VERSION_FILE = new Set(['ELOOP', 'ENOENT', 'ENOTDIR']);

/**
 * Opens a file of an activated version whose `absPath` has no symlink in it (see
 * loadSiteVersion), refusing with 404 a file reached through a symlink at any component: the
 * last one by O_NOFOLLOW, the directories above it by comparing the path the kernel opened with
 * the expected one. That costs one readlink on an open descriptor, not an lstat per component.
 */
export async function openVersionFile(absPath: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(absPath, READ_NO_SYMLINK);
  } catch (err) {
    if (NOT_A_VERSION_FILE.has((err as NodeJS.ErrnoException).code ?? '')) throw AppError.notFound();
    throw err;
  }
  try {
    if ((await openedPath(handle, absPath)) !== absPath) throw AppError.notFound();
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

async function openedPath(handle: FileHandle, absPath: string): Promise<string> {
  try {
    // The kernel's record of the file behind the descriptor: no second walk of the path, no race.
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    // No /proc (not Linux): resolve the path again; a swap between open and here is not caught.
    return realpath(absPath);
  }
}
