import { normalizePagePath } from '../config/parseNavEntry.js';
import { classifySourceFiles } from './classifySourceFiles.js';
import { listSourceFiles } from './listSourceFiles.js';

/**
 * Which of `paths` are no page of the docs source in `sourceDir`, as written by the caller.
 * A path with a page file answers from the file list alone; only when some path has none are
 * the config and OpenAPI files read (loaded on demand, so a server that never meets such a
 * path never loads that code), since the navigation may generate it from an operation.
 */
export async function findUnknownPages(sourceDir: string, paths: readonly string[]): Promise<string[]> {
  const files = await listSourceFiles(sourceDir);
  const inventory = classifySourceFiles(files);
  const missing = paths.filter((p) => !inventory.pages.has(normalizePagePath(p)));
  if (missing.length === 0) return [];
  const { listSitePages } = await import('../site/listSitePages.js');
  const pages = await listSitePages(sourceDir, files, inventory);
  return missing.filter((p) => !pages.has(normalizePagePath(p)));
}
