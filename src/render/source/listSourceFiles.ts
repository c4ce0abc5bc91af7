import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Bounds so a runaway tree (or a loop we failed to see) can't hang an export. */
const MAX_FILES = 200_000;
const MAX_DEPTH = 64;

/**
 * Every regular file under `sourceDir` as sorted POSIX relative paths, skipping dotfiles,
 * dot-folders and node_modules. Symlinks are not followed: a docs repository must not be able
 * to pull files from elsewhere on the host into a bundle.
 */
export async function listSourceFiles(sourceDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(join(dir, e.name), childRel, depth + 1);
      else if (e.isFile()) {
        out.push(childRel);
        if (out.length > MAX_FILES) throw new Error(`docs source has more than ${MAX_FILES} files`);
      }
    }
  };
  try {
    await walk(sourceDir, '', 0);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new Error(`docs source folder ${sourceDir} does not exist or vanished while reading`);
    throw err;
  }
  return out.sort();
}
