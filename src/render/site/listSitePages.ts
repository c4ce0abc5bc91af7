import { loadSiteConfig } from '../config/loadSiteConfig.js';
import { resolveNavigation } from '../nav/resolveNavigation.js';
import { listOperations, loadOpenApiDocuments, type OpenApiOperationSummary } from '../openapi/index.js';
import type { ReportCollector } from '../types.js';
import type { SourceInventory } from '../source/classifySourceFiles.js';

/** A report that keeps nothing: listing pages is not an export, its warnings belong to the export. */
const quietReport: ReportCollector = {
  brokenLink() {},
  missingImage() {},
  unknownComponent() {},
  externalUrl() {},
  removedRemote() {},
  removedActive() {},
  warning() {},
};

/**
 * Every page path the site publishes: its page files plus the pages its navigation generates
 * from OpenAPI files. Loads the config and the OpenAPI files, but renders nothing.
 */
export async function listSitePages(sourceDir: string, files: string[], inventory: SourceInventory): Promise<Set<string>> {
  const config = await loadSiteConfig(sourceDir, () => {});
  const refs = [...new Set([...config.openapiRefs, ...inventory.openapiFiles])];
  const docs = refs.length ? await loadOpenApiDocuments(sourceDir, refs, quietReport, files) : new Map();
  const operations = new Map<string, OpenApiOperationSummary[]>();
  for (const [key, doc] of docs) operations.set(key, listOperations(doc));
  const nav = resolveNavigation(
    config,
    inventory.pages,
    { specs: () => [...operations.keys()], operations: (s) => operations.get(s) ?? [] },
    () => {},
  );
  return new Set(nav.pages.keys());
}
