import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceInventory } from '../source/classifySourceFiles.js';
import type { ReportCollector } from '../types.js';
import { remoteUrlsInScript } from './remoteUrlsInScript.js';
import { stripRemoteCss } from './stripRemoteCss.js';

/** The site's custom CSS and JS made offline: stylesheets to write rewritten, scripts to leave out. */
export interface OfflineCustomFiles {
  /** Custom stylesheets whose remote loads were removed: bundle path → new text. */
  rewritten: Map<string, string>;
  /** Custom scripts that load code or data from another origin: not copied, not linked. */
  droppedScripts: string[];
}

/**
 * Reads the site's custom CSS and JS (the hosted product adds every one to every page) and takes
 * out what would reach another origin: remote `@import`s and `url()`s in stylesheets, whole
 * scripts that name a remote URL (analytics, chat widgets, CDN loaders). Each is reported.
 */
export async function takeRemoteOutOfCustomFiles(
  sourceDir: string,
  inventory: SourceInventory,
  report: ReportCollector,
): Promise<OfflineCustomFiles> {
  const result: OfflineCustomFiles = { rewritten: new Map(), droppedScripts: [] };
  for (const rel of inventory.customCss) {
    const stripped = stripRemoteCss(await readFile(join(sourceDir, rel), 'utf8'));
    if (stripped.removed.length === 0) continue;
    result.rewritten.set(rel, stripped.css);
    for (const r of stripped.removed) report.removedRemote({ page: rel, kind: r.kind, url: r.url, action: 'removed' });
  }
  for (const rel of inventory.customJs) {
    const urls = remoteUrlsInScript(await readFile(join(sourceDir, rel), 'utf8'));
    if (urls.length === 0) continue;
    result.droppedScripts.push(rel);
    for (const url of urls) report.removedRemote({ page: rel, kind: 'script', url, action: 'removed' });
  }
  return result;
}
