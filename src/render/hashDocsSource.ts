import { createHash } from 'node:crypto';
import { listSourceFiles } from './source/listSourceFiles.js';
import { readFilesInOrder } from './source/readFilesInOrder.js';
import { sourceHashes } from './source/sourceHashes.js';

/**
 * SHA-256 (hex) over the sorted relative paths and each content's SHA-256 of every docs source
 * file (dotfiles and node_modules ignored): the hash an export's read gives (DocsSource.hash).
 * Equal hashes mean an export would be identical, so schedulers use it to skip unchanged sites,
 * and the default bundle version embeds its first hex digits. Reads bytes only: no text is
 * decoded or parsed here.
 */
export async function hashDocsSource(sourceDir: string): Promise<string> {
  const files = await listSourceFiles(sourceDir);
  const fileHashes = new Map<string, string>();
  await readFilesInOrder(sourceDir, files, (rel, data) => fileHashes.set(rel, createHash('sha256').update(data).digest('hex')));
  return sourceHashes(files, fileHashes).hash;
}
