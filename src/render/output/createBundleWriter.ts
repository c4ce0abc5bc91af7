import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Writes files into a bundle folder. */
export interface BundleWriter {
  write(rel: string, data: string): Promise<void>;
  copy(from: string, rel: string): Promise<void>;
}

/** File writing for one export; remembers folders it created so 5,000 pages don't cost 5,000 mkdirs. */
export function createBundleWriter(outDir: string): BundleWriter {
  const made = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
  return {
    async write(rel, data) {
      const file = join(outDir, rel);
      await ensureDir(dirname(file));
      await writeFile(file, data);
    },
    async copy(from, rel) {
      const to = join(outDir, rel);
      await ensureDir(dirname(to));
      await copyFile(from, to);
    },
  };
}
