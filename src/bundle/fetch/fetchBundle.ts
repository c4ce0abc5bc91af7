import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactUrl } from '../../platform/logging/redact.js';
import { sha256OfFile } from '../../platform/sha256OfFile.js';
import { BundleRefusedError } from '../BundleRefusedError.js';
import { downloadBundle } from './downloadBundle.js';

/** A bundle copied to local disk, ready for verification. */
export interface FetchedBundle {
  /** A private copy in the data directory; the caller deletes it when done. */
  path: string;
  sizeBytes: number;
  sha256: string;
}

/** Limits for fetching. */
export interface FetchOptions {
  /** Where the private copy is written (inside the data directory, so renames stay on one volume). */
  incomingDir: string;
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Brings a bundle from `http(s)://`, `file://` or a plain path onto local disk as a private
 * copy (so media removed or a file replaced mid-verification can't change what is checked)
 * and hashes it. Refusals name the source with any link signature redacted.
 */
export async function fetchBundle(source: string, options: FetchOptions): Promise<FetchedBundle> {
  await mkdir(options.incomingDir, { recursive: true, mode: 0o700 });
  const dest = join(options.incomingDir, `${randomBytes(8).toString('hex')}.zip`);
  try {
    if (/^https?:\/\//i.test(source)) {
      await downloadBundle(source, dest, { maxBytes: options.maxBytes, timeoutMs: options.timeoutMs });
    } else {
      await copyLocalBundle(localPathOf(source), dest, options.maxBytes);
    }
    const sizeBytes = (await stat(dest)).size;
    return { path: dest, sizeBytes, sha256: await sha256OfFile(dest) };
  } catch (err) {
    await rm(dest, { force: true });
    throw err;
  }
}

function localPathOf(source: string): string {
  if (/^file:/i.test(source)) {
    try {
      return fileURLToPath(source);
    } catch {
      throw new BundleRefusedError(`not a usable file URL: ${redactUrl(source)}`, 'fetch');
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source))
    throw new BundleRefusedError(`unsupported bundle URL scheme: ${redactUrl(source)} (use http(s)://, file:// or a path)`, 'fetch');
  return isAbsolute(source) ? source : resolve(source);
}

async function copyLocalBundle(path: string, dest: string, maxBytes: number): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch (err) {
    throw new BundleRefusedError(`cannot read bundle ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'fetch');
  }
  if (!info.isFile()) throw new BundleRefusedError(`bundle ${path} is not a regular file`, 'fetch');
  if (info.size > maxBytes) throw new BundleRefusedError(`bundle ${path} is ${info.size} bytes (limit ${maxBytes})`, 'fetch');
  await copyFile(path, dest);
  // The file may have grown between stat and copy (media still being written): check the copy.
  const copied = (await stat(dest)).size;
  if (copied > maxBytes) throw new BundleRefusedError(`bundle ${path} is ${copied} bytes (limit ${maxBytes})`, 'fetch');
}
