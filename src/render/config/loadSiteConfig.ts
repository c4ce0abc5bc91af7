import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { SiteConfig } from './SiteConfig.js';
import { readJsonWithRefs } from './readJsonWithRefs.js';
import { parseDocsJson } from './parseDocsJson.js';
import { parseMintJson } from './parseMintJson.js';

/**
 * Loads `docs.json` (preferred, with `$ref` includes) or the legacy `mint.json` from the docs
 * root. A site with neither still renders: every page on disk, default theme.
 */
export async function loadSiteConfig(sourceDir: string, warn: (message: string) => void): Promise<SiteConfig> {
  for (const name of ['docs.json', 'mint.json'] as const) {
    const file = join(sourceDir, name);
    try {
      await access(file);
    } catch {
      continue;
    }
    const raw = await readJsonWithRefs(file, sourceDir);
    return name === 'docs.json' ? parseDocsJson(raw, warn) : parseMintJson(raw, warn);
  }
  warn('no docs.json or mint.json found; rendering every page with default settings');
  return parseDocsJson({}, warn);
}
