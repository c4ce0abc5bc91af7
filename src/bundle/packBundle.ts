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
 * works synchronously on buffers and would otherwise block the server's event loop.
 *
 * Memory: adm-zip keeps every entry's uncompressed bytes until the whole archive is built,
 * which for a 5,000-page site is a quarter of a gigabyte. So entries are added empty and each
 * entry's `getCompressedData` (which adm-zip calls once per entry, in order, right before
 * writing that entry's headers) is wrapped to read the file just then; the previous entry's
 * bytes are dropped at the same moment, its headers being written by then. Only the compressed
 * archive is ever held whole. The export tests read every file back from real zips and check
 * its size and SHA-256 against the manifest, so an adm-zip change that broke this would show.
 */
export async function packBundle(siteDir: string, zipPath: string, options: { now: Date; onProgress?: (done: number, total: number) => void }): Promise<PackedBundle> {
  const files = await listFiles(siteDir);
  const zip = new AdmZip();
  let previous: AdmZip.IZipEntry | undefined;
  let done = 0;
  for (const rel of files) {
    const entry = zip.addFile(rel, Buffer.alloc(0), '', 0o644);
    entry.header.time = options.now;
    const compress = entry.getCompressedData.bind(entry);
    entry.getCompressedData = () => {
      previous?.setData(Buffer.alloc(0));
      previous = entry;
      entry.setData(readFileSync(join(siteDir, rel)));
      if (STORED_EXTENSIONS.has(extname(rel).toLowerCase())) entry.header.method = STORED;
      options.onProgress?.(++done, files.length);
      // zlib hands back a view of a buffer as large as the input; copying lets that go.
      return Buffer.from(compress());
    };
  }
  const data = zip.toBuffer();
  await mkdir(dirname(zipPath), { recursive: true });
  await writeFileDurably(zipPath, data, 0o600);
  return { sizeBytes: data.length, sha256: await sha256OfFile(zipPath), entries: files.length };
}
