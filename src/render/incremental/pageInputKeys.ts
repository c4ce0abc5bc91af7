import { createHash } from 'node:crypto';
import { moduleCandidates } from '../mdx/ModuleLoader.js';
import { pageLanguageTag } from '../nav/pageLanguageTag.js';
import type { LoadedSite } from '../site/loadSite.js';
import type { DocsSource } from '../source/readDocsSource.js';
import { TEXT_FILE } from '../source/SourceTexts.js';

/** The export settings that change what a page body holds. */
export interface BodySettings {
  domain: string;
  keepRemote: boolean;
  allowAuthorScripts: boolean;
  shipWarnings: boolean;
}

/** The incremental export's keys: what every page depends on, and what one page does. */
export interface PageInputKeys {
  /** Inputs the cache cannot tell apart page by page: when it changes, every body is rendered again. */
  siteKey: string;
  /** The key of the page at `position`: the site key, its path, source, text's SHA-256 and interface language. */
  pageKey(position: number): string;
  /** What the modules a page loaded (snippets, component files) hold now, as one hash. */
  modulesKey(modules: readonly string[]): string;
}

/** Hashes length-prefixed parts (exported for the output key, which builds on these keys). */
export function hashParts(...parts: string[]): string {
  return hashOf(...parts);
}

const hashOf = (...parts: string[]) => {
  const hash = createHash('sha256');
  // Length-prefixed, so no two different lists of parts hash alike.
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
  return hash.digest('hex');
};

/** A page or snippet file's SHA-256, or a mark that no such file is in the source. */
const textHash = (source: DocsSource, rel: string) => (TEXT_FILE.test(rel) ? source.fileHashes.get(rel) : undefined) ?? '\0absent';

/**
 * Derives the keys from the site as loaded. The site key covers the renderer's version, the
 * settings, the whole parsed config (theme, colours, navigation), the list of every file (a page
 * added, removed or renamed changes what links resolve to), and the content of every file that
 * is neither a page nor a snippet (OpenAPI specs, images, custom CSS and JS): each of these may
 * reach any page's body. Pages and snippets are tracked one by one.
 */
export function pageInputKeys(
  site: LoadedSite,
  source: DocsSource,
  settings: BodySettings & { rendererVersion: string; format: number },
): PageInputKeys {
  const siteKey = hashOf(
    String(settings.format),
    settings.rendererVersion,
    JSON.stringify([settings.domain, settings.keepRemote, settings.allowAuthorScripts, settings.shipWarnings]),
    JSON.stringify(site.config),
    source.files.join('\n'),
    source.otherHash,
  );
  return {
    siteKey,
    pageKey(position) {
      const page = site.selected[position];
      // The file's SHA-256 stands for its text: an unchanged file is then not read at all.
      const text = page.source.kind === 'operation' ? '' : (source.fileHashes.get(page.source.file) ?? '');
      return hashOf(siteKey, page.path, JSON.stringify(page.source), text, pageLanguageTag(site.nav, page.path) ?? '');
    },
    modulesKey(modules) {
      const parts: string[] = [];
      for (const file of [...modules].sort())
        for (const candidate of moduleCandidates(file)) parts.push(candidate, textHash(source, candidate));
      return hashOf(...parts);
    },
  };
}
