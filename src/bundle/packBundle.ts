import AdmZip from 'adm-zip';
import { readFileSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { sha256OfFile } from '../domain/exports/sha256OfFile.js';
import { writeFileDurably } from '../store/writeFileDurably.js';

/** What packing produced. */
export interface PackedBundle {
  sizeBytes: number;
  sha256: string;
  entries: number;
}

/** Formats that are already compressed: deflating them again costs time and saves nothing. */
const STORED_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.woff', '.woff2', '.zip', '.gz', '.br', '.mp4', '.webm', '.mp3', '.ogg']);

const STORED = 0;

/** Every regular file under `root`, as sorted `/`-separated relative paths (symlinks skipped). */
async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    const entries = await readdir(join(root, rel), { withFileTypes: true });
    for (const entry of entries) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) pending.push(child);
      else if (entry.isFile()) out.push(child);
    }
  }
  return out.sort();
}

/**
 * Zips the rendered site in `siteDir` into `zipPath` (written beside it, fsynced and renamed into
 * place, so a crash never leaves a half zip under the final name). Entry times are the job's
 * `now`, so the zip depends only on the content. Runs in the export worker process: adm-zip
 * works on buffers and would otherwise block the server's event loop.
 *
 * Memory: adm-zip keeps every entry's uncompressed bytes until the whole archive is built,
 * which for a 5,000-page site is a quarter of a gigabyte. Entries are therefore added empty
 * and each file is read just before adm-zip compresses it (its per-item start hook); the
 * previous entry's bytes are dropped at the same moment, once its headers have been written.
 * Only the compressed archive is ever held whole. The manifest check in the export tests
 * reads every file back from the zip, so a change in adm-zip that broke this would show.
 */
export async function packBundle(siteDir: string, zipPath: string, options: { now: Date; onProgress?: (done: number, total: number) => void }): Promise<PackedBundle> {
  const files = await listFiles(siteDir);
  const zip = new AdmZip();
  const entries = new Map<string, AdmZip.IZipEntry>();
  for (const rel of files) {
    const entry = zip.addFile(rel, Buffer.alloc(0), '', 0o644);
    entry.header.time = options.now;
    entries.set(entry.entryName, entry);
  }
  let previous: AdmZip.IZipEntry | undefined;
  let done = 0;
  const data = await new Promise<Buffer>((resolve, reject) => {
    zip.toBuffer(
      resolve,
      reject,
      (name) => {
        previous?.setData(Buffer.alloc(0));
        const entry = entries.get(name);
        if (!entry) throw new Error(`zip entry ${name} vanished while packing`);
        entry.setData(readFileSync(join(siteDir, name)));
        if (STORED_EXTENSIONS.has(extname(name).toLowerCase())) entry.header.method = STORED;
        previous = entry;
      },
      () => options.onProgress?.(++done, files.length),
    );
  });
  await mkdir(dirname(zipPath), { recursive: true });
  await writeFileDurably(zipPath, data, 0o600);
  return { sizeBytes: data.length, sha256: await sha256OfFile(zipPath), entries: files.length };
}
