import { copyFile, mkdir, open, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { createCodeHighlighter } from './code/createCodeHighlighter.js';
import { scanFenceLanguages } from './code/scanFenceLanguages.js';
import { listSourceFiles } from './source/listSourceFiles.js';
import { createOrderedWriter } from './output/createOrderedWriter.js';
import { forEachWithConcurrency } from './output/forEachWithConcurrency.js';
import { builtInComponents } from './components/index.js';
import { featureAssets } from './components/featureAssets.js';
import { hashDocsSource } from './hashDocsSource.js';
import { checkAnchors } from './links/checkAnchors.js';
import { createPageContext, type AnchorCheck } from './links/createPageContext.js';
import { resolveLink } from './links/resolveLink.js';
import { pageFile } from './links/SiteIndex.js';
import { renderMath } from './math/renderMath.js';
import { ModuleLoader } from './mdx/ModuleLoader.js';
import { buildLlmsTxt, type LlmsPage } from './output/buildLlmsTxt.js';
import { buildRedirectPage } from './output/buildRedirectPage.js';
import { buildSitemap, canonicalUrl } from './output/buildSitemap.js';
import { contentHash } from './output/writeHashedAsset.js';
import { writeManifest } from './output/writeManifest.js';
import { renderPageContent, type RenderedContent } from './page/renderPageContent.js';
import type { BuildReport } from './report/BuildReport.js';
import { createReportCollector } from './report/createReportCollector.js';
import { buildSearchIndexScript, type SearchEntry } from './search/buildSearchIndexScript.js';
import { createOperationRenderer } from './site/createOperationRenderer.js';
import { createShellParts } from './site/createShellParts.js';
import { loadSite } from './site/loadSite.js';
import { renderPageShell } from './theme/renderPageShell.js';
import { copyFeatureFiles, prepareThemeAssets } from './theme/prepareThemeAssets.js';

export type { BuildReport } from './report/BuildReport.js';

/** Pages whose I/O may overlap; the CPU work is still one page at a time. */
const PAGES_IN_FLIGHT = 6;

/** What one page contributes to the site-wide files (manifest, search, sitemap, llms.txt). */
interface PageOutcome {
  manifest: { path: string; title: string; file: string };
  indexed?: { search: SearchEntry; llms: LlmsPage };
  fellBack?: boolean;
}

/** Options for one export of a docs source into a static bundle folder. */
export interface RenderSiteOptions {
  sourceDir: string; outDir: string;           // outDir is created; must be empty or absent
  domain: string; jobId: string; version?: string; // version default: `YYYY-MM-DD.<first 6 hex of hashDocsSource>`
  paths?: string[];                            // optional subset of page paths to render
  strict?: boolean;                            // true: first failing page rejects
  now: Date; generatorVersion: string;
  cacheDir?: string;                           // persistent cache (highlighting etc.)
  feedbackEndpoint?: string | null;            // passed to pages as <meta name="enclave-feedback-endpoint">
  onProgress?: (rendered: number, total: number) => void;
  signal?: AbortSignal;
}

/** Outcome of an export; details are in `report` (also written to `_enclave/report.json`). */
export interface RenderSiteResult {
  version: string; pageCount: number; expected: number; failed: number; warnings: number; report: BuildReport;
  /** Pages where something fell back (unknown component, unevaluable expression, missing import). */
  fallbackPages?: string[];
}

/**
 * Renders a Mintlify-format docs source into a self-contained static bundle folder (pages,
 * assets, search index, sitemap, llms.txt, Markdown copies, report and manifest). Knows nothing
 * of HTTP or jobs. Pages stream to disk one at a time so memory stays flat on large sites.
 */
export async function renderSite(opts: RenderSiteOptions): Promise<RenderSiteResult> {
  const { sourceDir, outDir, domain } = opts;
  await assertSourceDir(sourceDir);
  await prepareOutDir(outDir);
  const report = createReportCollector();
  const sourceHash = await hashDocsSource(sourceDir);
  const version = opts.version ?? `${opts.now.toISOString().slice(0, 10)}.${sourceHash.slice(0, 6)}`;
  const site = await loadSite(sourceDir, report, opts.paths);
  const { config, nav, selected, index } = site;
  report.setExpected(selected.length);

  const out = createBundleWriter(outDir);
  for (const rel of site.inventory.staticFiles) await out.copy(join(sourceDir, rel), rel);
  const fontUrl = (src: string) => (/^https?:/i.test(src) ? null : src.replace(/^\/+/, '../'));
  const theme = await prepareThemeAssets(outDir, config, fontUrl);
  const searchIndexPath = `_assets/search-index.${contentHash(`${sourceHash}\0${opts.generatorVersion}\0${JSON.stringify(opts.paths ?? null)}`)}.js`;
  const shell = createShellParts(site, theme, searchIndexPath, opts);

  const languages = await scanFenceLanguages(sourceDir, await listSourceFiles(sourceDir));
  const highlighter = await createCodeHighlighter({ cacheDir: opts.cacheDir, languages });
  const loader = new ModuleLoader(sourceDir);
  const deps = {
    components: builtInComponents,
    highlight: highlighter.highlight.bind(highlighter),
    renderMath,
    loader,
    openapi: createOperationRenderer(site),
  };

  const featureTargets = new Map<string, { css: string[]; js: string[] }>();
  const featureFor = async (feature: 'mermaid' | 'katex' | 'openapi') => {
    let entry = featureTargets.get(feature);
    if (!entry) {
      const files = featureAssets(feature);
      await copyFeatureFiles(outDir, files);
      entry = { css: files.filter((f) => f.target.endsWith('.css')).map((f) => f.target), js: files.filter((f) => f.target.endsWith('.js')).map((f) => f.target) };
      featureTargets.set(feature, entry);
    }
    return entry;
  };

  const ids = new Map<string, Set<string>>();
  const anchorChecks: AnchorCheck[] = [];
  const titles = new Map<string, string>();
  /** What each page adds to the site-wide outputs, kept by position so they stay in nav order. */
  const results: (PageOutcome | undefined)[] = new Array(selected.length);
  const full = await open(join(outDir, 'llms-full.txt'), 'w');
  const fullWriter = createOrderedWriter((text) => full.write(text).then(() => undefined));
  let done = 0;
  let rendered = 0;
  let failed = 0;

  const renderOne = async (page: (typeof selected)[number], position: number): Promise<void> => {
    if (opts.signal?.aborted) throw new Error('export aborted');
    const ctx = createPageContext({ pagePath: page.path, sourceDir, site: index, report, iconLibrary: config.iconLibrary });
    let content: RenderedContent;
    try {
      content = await renderPageContent(page, ctx, deps);
    } catch (err) {
      await assertSourceDir(sourceDir);
      const reason = (err as Error).message?.split('\n')[0] || String(err);
      if (opts.strict) throw new Error(`page /${page.path} failed to render: ${reason}`);
      report.pageFailed(page.path, reason);
      failed++;
      const title = shell.label(page.path);
      await out.write(pageFile(page.path), shell.errorPage(page, title, reason));
      results[position] = { manifest: { path: page.path, title, file: pageFile(page.path) } };
      fullWriter.skip(position);
      opts.onProgress?.(++done, selected.length);
      return;
    }
    const extra = { styles: [] as string[], scripts: [] as string[] };
    for (const feature of ctx.features) {
      const f = await featureFor(feature);
      extra.styles.push(...f.css);
      extra.scripts.push(...f.js);
    }
    const html = renderPageShell(shell.site, shell.page(page, content, toHtml(content.hast, { allowDangerousHtml: true }), extra), shell.rootPrefix(page.path));
    ids.set(page.path, content.summary.ids);
    anchorChecks.push(...ctx.anchorChecks);
    titles.set(page.path, content.title);
    const fm = content.frontmatter;
    const listed = nav.locations.has(page.path) && !fm.hidden;
    const indexed = !fm.noindex && (listed || config.seoIndexing === 'all');
    results[position] = {
      manifest: { path: page.path, title: content.title, file: pageFile(page.path) },
      indexed: indexed
        ? {
            search: [page.path, content.title, content.summary.headings, content.description ?? '', content.summary.text],
            llms: { path: page.path, title: content.title, description: content.description, section: nav.locations.get(page.path)?.groups[0] },
          }
        : undefined,
      fellBack: ctx.fellBack(),
    };
    await Promise.all([out.write(pageFile(page.path), html), out.write(`${page.path}.md`, content.markdown), fullWriter.put(position, `${content.markdown}\n---\n\n`)]);
    report.pageRendered();
    rendered++;
    opts.onProgress?.(++done, selected.length);
  };

  try {
    // Pages render one at a time on this thread, but several are in flight so that reading the
    // next sources and writing finished pages overlap with the CPU work.
    await forEachWithConcurrency(selected, PAGES_IN_FLIGHT, renderOne);
    await fullWriter.drained();
  } finally {
    await full.close();
  }
  const finished = results.filter((r): r is PageOutcome => r !== undefined);
  const manifestPages = finished.map((r) => r.manifest);
  const search: SearchEntry[] = finished.flatMap((r) => (r.indexed ? [r.indexed.search] : []));
  const llmsPages: LlmsPage[] = finished.flatMap((r) => (r.indexed ? [r.indexed.llms] : []));
  const sitemapPaths = finished.flatMap((r) => (r.indexed ? [r.manifest.path] : []));
  const fallbackPages = finished.flatMap((r) => (r.fellBack ? [r.manifest.path] : []));

  await checkAnchors(outDir, anchorChecks, ids, report);
  for (const [source, destination] of site.redirects) {
    const target = resolveLink(destination, source, index);
    if (target.kind === 'broken') report.warning(`redirect ${source} points to ${destination}, which is not in this export`);
    await out.write(pageFile(source), buildRedirectPage(target.href, target.kind === 'external' ? undefined : canonicalUrl(domain, destination.replace(/^\/+/, '') || 'index')));
  }
  if (selected.length === 0 && !site.redirects.has('index')) await out.write('index.html', shell.emptySite());
  await out.write('404.html', shell.notFoundPage());
  await out.write(searchIndexPath, buildSearchIndexScript(search));
  await out.write('sitemap.xml', buildSitemap(domain, sitemapPaths));
  await out.write('llms.txt', buildLlmsTxt(config.name, config.description, llmsPages));
  const final = report.toJSON();
  await out.write('_enclave/report.json', `${JSON.stringify(final, null, 2)}\n`);
  await writeManifest(outDir, {
    domain, version, jobId: opts.jobId, createdAt: opts.now.toISOString(),
    generator: { name: 'enclave', version: opts.generatorVersion }, pages: manifestPages,
  });
  return { version, pageCount: rendered, expected: selected.length, failed, warnings: final.warnings.length, report: final, fallbackPages };
}

/** Rejects with a clear message when the source folder is missing (or vanished mid-render). */
async function assertSourceDir(sourceDir: string): Promise<void> {
  let s;
  try {
    s = await stat(sourceDir);
  } catch {
    throw new Error(`docs source folder ${sourceDir} does not exist (or vanished during the export)`);
  }
  if (!s.isDirectory()) throw new Error(`docs source ${sourceDir} is not a folder`);
}

async function prepareOutDir(outDir: string): Promise<void> {
  try {
    const entries = await readdir(outDir);
    if (entries.length > 0) throw new Error(`output folder ${outDir} is not empty`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(outDir, { recursive: true });
  }
}

/** File writing for one export; remembers folders it created so 5,000 pages don't cost 5,000 mkdirs. */
function createBundleWriter(outDir: string) {
  const made = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
  return {
    async write(rel: string, data: string): Promise<void> {
      const file = join(outDir, rel);
      await ensureDir(dirname(file));
      await writeFile(file, data);
    },
    async copy(from: string, rel: string): Promise<void> {
      const to = join(outDir, rel);
      await ensureDir(dirname(to));
      await copyFile(from, to);
    },
  };
}
