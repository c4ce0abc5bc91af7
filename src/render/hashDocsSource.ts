import { readDocsSource } from './source/readDocsSource.js';

/**
 * SHA-256 (hex) over the sorted relative paths and contents of every docs source file (dotfiles
 * and node_modules ignored). Equal hashes mean an export would be identical, so schedulers use it
 * to skip unchanged sites, and the default bundle version embeds its first hex digits.
 */
export async function hashDocsSource(sourceDir: string): Promise<string> {
  return (await readDocsSource(sourceDir)).hash;
}
