import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listSourceFiles } from '../source/listSourceFiles.js';
import { scanFenceLanguages } from './scanFenceLanguages.js';

/** Most pages read for the guess: it runs while a worker idles, and must stay cheap on a huge tree. */
const MAX_PAGES = 20_000;

/**
 * The fence languages the Markdown pages under these docs folders use, as `scanFenceLanguages`
 * finds them, for warming a worker's grammars before any export has said what a site needs.
 * Reads one page at a time and stops (with what it found so far) once `shouldStop` says so;
 * a folder that is missing or unreadable is skipped, as the export itself will report it.
 */
export async function scanSourceLanguages(dirs: readonly string[], shouldStop: () => boolean): Promise<string[]> {
  const found = new Set<string>();
  let read = 0;
  for (const dir of dirs) {
    const files = await listSourceFiles(dir).catch(() => [] as string[]);
    for (const file of files) {
      if (!/\.mdx?$/i.test(file)) continue;
      if (shouldStop() || read++ >= MAX_PAGES) return [...found];
      const text = await readFile(join(dir, file), 'utf8').catch(() => '');
      for (const lang of scanFenceLanguages([text])) found.add(lang);
    }
  }
  return [...found];
}
