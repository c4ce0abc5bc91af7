import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listSourceFiles } from './source/listSourceFiles.js';

/**
 * SHA-256 (hex) over the sorted relative paths and contents of every docs source file (dotfiles
 * and node_modules ignored). Equal hashes mean an export would be identical, so schedulers use it
 * to skip unchanged sites, and the default bundle version embeds its first hex digits.
 */
export async function hashDocsSource(sourceDir: string): Promise<string> {
  const files = await listSourceFiles(sourceDir);
  const hash = createHash('sha256');
  for (const rel of files) {
    let data: Buffer;
    try {
      data = await readFile(join(sourceDir, rel));
    } catch (err) {
      throw new Error(`docs source changed while hashing (${rel}): ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    // Length-prefix both parts so "a"+"bc" and "ab"+"c" can never collide.
    hash.update(`${Buffer.byteLength(rel)}:${rel}\0${data.length}:`);
    hash.update(data);
  }
  return hash.digest('hex');
}
