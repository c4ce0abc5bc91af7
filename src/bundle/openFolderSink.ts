import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describeBytes, sortedFiles, type BundleFile, type BundleSink } from './BundleSink.js';
import { encodeTextInChunks } from './encodeTextInChunks.js';
import { writeManifest } from './bundleManifest.js';

/**
 * A bundle written as a folder. `outDir` is created and must be empty or absent, so a render
 * never mixes with leftovers. Folders are remembered so 5,000 pages don't cost 5,000 mkdirs.
 */
export async function openFolderSink(outDir: string): Promise<BundleSink> {
  try {
    if ((await readdir(outDir)).length > 0) throw new Error(`output folder ${outDir} is not empty`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(outDir, { recursive: true });
  }
  const made = new Set<string>();
  const listed = new Map<string, BundleFile>();
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
  const put = async (rel: string, bytes: Uint8Array) => {
    const file = join(outDir, rel);
    await ensureDir(dirname(file));
    await writeFile(file, bytes);
    listed.set(rel, describeBytes(rel, bytes));
  };
  const sink: BundleSink = {
    write: (rel, data) => put(rel, typeof data === 'string' ? Buffer.from(data) : data),
    async writeParts(rel, parts) {
      const file = join(outDir, rel);
      await ensureDir(dirname(file));
      const hash = createHash('sha256');
      const handle = await open(file, 'w');
      let size: number;
      try {
        size = await encodeTextInChunks(parts, async (bytes) => {
          hash.update(bytes);
          await handle.writeFile(bytes);
        });
      } finally {
        await handle.close();
      }
      listed.set(rel, { path: rel, size, sha256: hash.digest('hex') });
    },
    copy: async (from, rel) => put(rel, await readFile(from)),
    read: (rel) => readFile(join(outDir, rel)),
    files: () => sortedFiles(listed.values()),
    writeManifest: (fields) => writeManifest(sink, fields),
  };
  return sink;
}
