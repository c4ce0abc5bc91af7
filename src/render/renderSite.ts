// size: the render's front door and its stages; being reorganised behind render/index.ts (issue 27)
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mergeFenceLanguages } from './code/scanFenceLanguages.js';
import { featureAssets } from './components/featureAssets.js';
import { checkAnchors } from './links/checkAnchors.js';
import { resolveLink } from './links/resolveLink.js';
import { pageFile } from './links/SiteIndex.js';
import { buildLlmsTxt, type LlmsPage } from './output/buildLlmsTxt.js';
import { buildRedirectPage } from './output/buildRedirectPage.js';
import { InOrderParts } from './output/InOrderParts.js';
import { buildSitemap, canonicalUrl } from './output/buildSitemap.js';
import type { BundleSink } from '../bundle/BundleSink.js';
import type { TextPiece } from '../bundle/BundleSink.js';
import { createPageRenderer } from './parallel/createPageRenderer.js';
import { type CodeTokenizerThread, worthATokenizerThread } from './code/CodeTokenizerThread.js';
import type { PageFeature, PageResult } from './parallel/PageResult.js';
import { renderPagesInParallel, workerCountFor } from './parallel/renderPagesInParallel.js';
import type { BuildReport } from './report/BuildReport.js';
import { type BuildReportCollector, createReportCollector } from './report/createReportCollector.js';
import { type IncrementalOutcome, IncrementalRender, type IncrementalSettings } from './incremental/IncrementalRender.js';
import { createPageAssembler } from './incremental/assemblePage.js';
import type { PageBody } from './incremental/PageBody.js';
import type { PageOutput } from './incremental/PageOutputs.js';
import { type PageShare, type PageShareMeta, pageShare } from './incremental/PageShare.js';
import { replayReportEvents } from './incremental/recordReportEvents.js';
import { AGENT_SEARCH_FILE, agentSearchJson } from './search/agentSearchChannel.js';
import { SEARCH_INDEX_FILE, searchIndexScript } from './search/searchIndexScript.js';
import { SECTION_CHUNKS_FILE } from './search/sectionChunks.js';
import { isRemoteUrl } from './offline/isRemoteUrl.js';
import { reportRemoteConfigAssets } from './offline/reportRemoteConfigAssets.js';
import { takeRemoteOutOfCustomFiles } from './offline/takeRemoteOutOfCustomFiles.js';
import { createShellParts } from './site/createShellParts.js';
import { buildUtilityCss, UTILITIES_FILE } from './style/buildUtilityCss.js';
import { checkRequestedFonts } from './theme/checkRequestedFonts.js';
import { loadSite } from './site/loadSite.js';
import { AssetAccess } from './access/AssetAccess.js';
import { AudienceOutputs } from './access/AudienceOutputs.js';
import { writeAccessMap } from './access/writeAccessMap.js';
import { SIGN_IN_SHELL_PATH } from '../platform/access/signInShell.js';
import { renderSignInShell } from './theme/renderSignInShell.js';
import { collectPageAccess } from './access/collectPageAccess.js';
import { restrictToAudience } from './access/restrictToAudience.js';
import { summarizeAccess } from './access/summarizeAccess.js';
import type { ReaderAudience } from '../platform/access/mayAudienceSee.js';
import { readDocsSource } from './source/readDocsSource.js';
import { sourceRecordOptions } from './source/sourceRecordOptions.js';
import { copyFeatureFiles, prepareThemeAssets } from './theme/prepareThemeAssets.js';

export type { BuildReport } from './report/BuildReport.js';

/** Options for one export of a docs source into a static bundle. */
export interface RenderSiteOptions {
  sourceDir: string;
  out: BundleSink; // where the bundle's files go (openFolderSink, createZipSink)
  domain: string;
  jobId: string;
  version?: string; // version default: `YYYY-MM-DD.<first 6 hex of hashDocsSource>`
  paths?: string[]; // optional subset of page paths to render
  strict?: boolean; // true: first failing page rejects
  now: Date;
  generatorVersion: string;
  cacheDir?: string; // persistent cache (highlighting etc.)
  onProgress?: (rendered: number, total: number) => void;
  signal?: AbortSignal;
  /** Extra page-rendering threads (default 0); small sites ignore it, workers cost more than they save there. */
  threads?: number;
  /**
   * Keep what loads from other origins (remote images, frames, custom scripts that fetch
   * third-party code, remote font imports in custom CSS). Default false: they are removed or
   * replaced by local copies and listed in the report's `removedRemote`, so the bundle makes no
   * request to another origin wherever it is opened.
   */
  keepRemoteAssets?: boolean;
  /**
   * Keep scripts written in pages: `<script>` elements, `on…` attributes and `javascript:` URLs
   * (the site's `authorScripts`). Default false: they are taken out and listed in the report's
   * `removedActive`. Custom `.js` files (Mintlify's custom JS) are kept either way, except on
   * pages with a "Try it" form.
   */
  allowAuthorScripts?: boolean;
  /**
   * Render a page whose content had to be dropped (an `{expression}` that does not parse) with a
   * warning. Default false: such a page is a failed page, so the loss is listed and deploy refuses it.
   */
  shipWarnings?: boolean;
  /**
   * Gives a thread to tokenize the pages' code blocks while they render (an export worker starts
   * it ahead of the job, see CodeTokenizerThread); asked only for a site with few fence languages.
   * Without one, code is tokenized on this thread.
   */
  codeThread?: () => CodeTokenizerThread | undefined;
  /**
   * Keep each page's body in this folder and reuse those whose inputs are unchanged (see
   * render/incremental/). Ignored for an export of some `paths` only, or for one audience.
   */
  incremental?: IncrementalSettings;
  /**
   * The source's stats, one line per file, taken before this export (the export worker's
   * takeSourceStats): with `incremental`, files whose stat is recorded unchanged are not read
   * (see readDocsSource).
   */
  sourceStats?: readonly string[];
  /**
   * Export only what one audience may open under reader sign-in (`null`: the public, not signed
   * in; `{ groups }`: a signed-in reader with those groups). Default: every page.
   */
  audience?: ReaderAudience;
}

/** The plain-data part of RenderSiteOptions: what a job record or an IPC message can carry. */
export type RenderSettings = Pick<
  RenderSiteOptions,
  | 'domain'
  | 'jobId'
  | 'version'
  | 'paths'
  | 'strict'
  | 'keepRemoteAssets'
  | 'allowAuthorScripts'
  | 'shipWarnings'
  | 'generatorVersion'
  | 'cacheDir'
  | 'threads'
  | 'incremental'
  | 'audience'
>;

/** Outcome of an export; details are in `report` (also written to `_enclave/report.json`). */
export interface RenderSiteResult {
  version: string;
  pageCount: number;
  failed: number;
  warnings: number;
  report: BuildReport;
  /** Pages the navigation declares (plus published pages outside it); see BuildReport.pages. */
  expected: number;
  /** Nav entries that could not become pages for want of an input (`report.missingInputs`). */
  missingPages: number;
  /** Pages where something fell back (unknown component, unevaluable expression, missing import). */
  fallbackPages?: string[];
  /** Pages rendered by extra threads (0 unless `threads` was set). */
  pagesByWorkers?: number;
  /** Languages named on the site's code fences (what the highlighter had to load). */
  languages: string[];
  /** The hash of the source as this export read it (see hashDocsSource). */
  sourceHash: string;
  /** The SHA-256 of each source file as this export read it, by relative path (see DocsSource.fileHashes). */
  sourceFileHashes: Map<string, string>;
  /** Pages whose bodies came from the incremental cache, and pages rendered afresh. */
  reusedPages: number;
  renderedPages: number;
  /** Of the reused pages, those whose files were taken from the previous bundle without assembling them (see PageOutputs). */
  copiedPages: number;
  /** What became of the incremental cache (absent when the export used none). */
  cache?: Omit<IncrementalOutcome, 'reusedPages' | 'renderedPages'>;
}

/**
 * Renders a Mintlify-format docs source into a self-contained static bundle (pages,
 * assets, search index, sitemap, llms.txt, Markdown copies, report and manifest). Knows nothing
 * of HTTP or jobs. Each page goes to the sink as soon as it is rendered; only what the site-wide
 * outputs need (titles, search text, Markdown copies) is kept until the end.
 */
// size: the render's stages in order (config, navigation, pages, site-wide outputs, report); each stage is a call
export async function renderSite(opts: RenderSiteOptions): Promise<RenderSiteResult> {
  const { sourceDir, out, domain } = opts;
  await assertSourceDir(sourceDir);
  const report = createReportCollector();
  const source = await readDocsSource(sourceDir, sourceRecordOptions(opts));
  const sourceHash = source.hash;
  const version = opts.version ?? `${opts.now.toISOString().slice(0, 10)}.${sourceHash.slice(0, 6)}`;
  const loaded = await loadSite(sourceDir, source, report, opts.paths);
  const fullAccess = collectPageAccess(loaded);
  const site = opts.audience === undefined ? loaded : restrictToAudience(loaded, fullAccess, opts.audience);
  // An audience's export has one audience: its own files are the site-wide ones.
  const access = opts.audience === undefined ? fullAccess : null;
  const { config, nav, selected, index } = site;
  // Counted from what the navigation declares: pages lost to a missing input keep rendered < expected.
  // A subset export (`paths`) expects only what it asked for.
  if (!opts.paths) for (const m of nav.missing) report.missingInput(m.input, m.reason, m.pages);
  const expected = selected.length + (opts.paths ? 0 : nav.missing.reduce((n, m) => n + m.pages.length, 0));
  report.setExpected(expected);

  const keepRemote = opts.keepRemoteAssets ?? false;
  const shipWarnings = opts.shipWarnings ?? false;
  const offline = keepRemote
    ? { rewritten: new Map<string, string>(), droppedScripts: [] }
    : await takeRemoteOutOfCustomFiles(sourceDir, site.inventory, report);
  for (const rel of site.inventory.staticFiles) {
    const rewritten = offline.rewritten.get(rel);
    if (rewritten !== undefined) await out.write(rel, rewritten);
    else if (!offline.droppedScripts.includes(rel)) await out.copy(join(sourceDir, rel), rel);
  }
  // A remote font in docs.json is left out (pages fall back to the bundled Inter) unless kept.
  const fontUrl = (src: string) => (isRemoteUrl(src) ? (keepRemote ? src : null) : src.replace(/^\/+/, '../'));
  if (!keepRemote) reportRemoteConfigAssets(config, report);
  const fonts = await checkRequestedFonts(sourceDir, site.inventory.customCss, offline.rewritten, config, fontUrl, report);
  const theme = await prepareThemeAssets(out, config, fontUrl, fonts);
  // Every page links the search index and the utility stylesheet, whose contents follow every
  // page: named by their content, one page's edit would change the <head> of all the others, and
  // an incremental export would rewrite, zip and deploy the whole site again. They keep one name
  // instead and are served for revalidation (ETag), not as immutable (docs/performance.md).
  const searchIndexPath = SEARCH_INDEX_FILE;
  const utilitiesPath = UTILITIES_FILE;
  theme.styles.push(utilitiesPath);
  const { droppedScripts } = offline;
  const shell = createShellParts(site, theme, searchIndexPath, { ...opts, droppedScripts, keepRemote });
  const languages = mergeFenceLanguages(source.files.map((rel) => source.facts.get(rel)?.fences ?? []));
  const bodySettings = { domain, keepRemote, allowAuthorScripts: opts.allowAuthorScripts ?? false, shipWarnings };
  const incremental =
    opts.incremental && !opts.paths && opts.audience === undefined
      ? await IncrementalRender.open(
          opts.incremental,
          site,
          source,
          { ...bodySettings, rendererVersion: opts.generatorVersion },
          shell.shellKey,
        )
      : undefined;
  const assemble = createPageAssembler(site, shell);

  const features = new Set<PageFeature>();
  /** What each page adds to the site-wide outputs built at the end, kept by position so they stay in nav order. */
  const results: (Kept | undefined)[] = new Array(selected.length);
  /** Page files on their way into the sink; a failed write fails the export once rendering stops. */
  const writes: Promise<void>[] = [];
  let writeFailure: unknown = null;
  let done = 0;
  let rendered = 0;
  let failed = 0;
  let pagesByWorkers = 0;
  let copiedPages = 0;

  // llms-full.txt (every page's Markdown copy in nav order) is written while pages render: the
  // copies stream into it as pages finish. Assembled at the end, reading the copies back from the
  // bundle, it delayed the end of the export; kept in memory until then, the copies raised a
  // large site's peak memory.
  // The streamed files copy the runs of the last zip that recur instead of deflating them again.
  if (incremental) out.reuseRuns?.(incremental.lastRuns);
  const llmsFull = new InOrderParts<TextPiece>(selected.length);
  const llmsFullWritten = out.writeParts('llms-full.txt', llmsFull);
  // The search index likewise: built at the end, it was one large string at the export's peak.
  const searchEntries = new InOrderParts<TextPiece>(selected.length);
  const searchIndexWritten = out.writeParts(searchIndexPath, searchIndexScript(searchEntries));
  // The assistant's section chunks likewise, a line per section (retrieval reads them at serve time).
  const chunkLines = new InOrderParts<TextPiece>(selected.length);
  const chunksWritten = out.writeParts(SECTION_CHUNKS_FILE, chunkLines);
  // All are awaited below; if the export fails first, nobody will be.
  for (const written of [llmsFullWritten, searchIndexWritten, chunksWritten]) written.catch(() => {});
  const audiences = AudienceOutputs.open(access, selected.length, out);
  // Which pages use which of the source's files, so an image only restricted pages show is restricted too.
  const assetAccess = opts.audience === undefined ? new AssetAccess(new Set(site.inventory.staticFiles)) : null;

  /** Hands a page's share to the site-wide files, and keeps what the end of the export needs of it. */
  const contribute = (position: number, share: PageShare, refs: string[], outputKey: string | undefined) => {
    const { meta } = share;
    const fullPart = share.full === null ? [] : [share.full, LLMS_FULL_SEPARATOR];
    llmsFull.put(position, fullPart);
    searchEntries.put(position, share.search === null ? [] : [share.search]);
    chunkLines.put(position, share.chunks.length === 0 ? [] : [share.chunks]);
    audiences?.put({ position, path: meta.manifest.path, searchEntry: share.search, llmsFull: fullPart });
    if (meta.failedReason !== undefined) failed++;
    else {
      for (const f of meta.features) features.add(f);
      rendered++;
    }
    // Kept by position and told to the report in page order once every page is done: the
    // order pages finish in (threads, reused pages first) must not show in the output.
    results[position] = { ...meta, refs, outputKey };
    opts.onProgress?.(++done, selected.length);
  };

  const onResult = (result: PageResult, reused = false) => {
    const { path } = result.manifest;
    for (const [rel, data] of result.files) writes.push(out.write(rel, data).catch((err: unknown) => void (writeFailure ??= err)));
    const pageAccess = access?.pages[path] ?? 'signed-in';
    let refs = result.copied?.refs ?? [];
    if (result.copied) assetAccess?.addReferences(refs, pageAccess);
    for (const [rel, data] of result.files) if (rel === result.manifest.file) refs = assetAccess?.addPage(rel, data, pageAccess) ?? [];
    if (result.failedReason !== undefined && opts.strict) throw new Error(`page /${path} failed to render: ${result.failedReason}`);
    if (!reused) incremental?.keep(result.position, result.body);
    const share = pageShare(result);
    const outputKey =
      result.failedReason === undefined ? (result.copied?.key ?? incremental?.outputKey(result.position, result.body)) : undefined;
    if (outputKey !== undefined) incremental?.recordShare(result.position, outputKey, result.body.modules, share);
    contribute(result.position, share, refs, outputKey);
  };

  try {
    const reusable = (output: PageOutput) => !!out.reuse && output.files.every((f) => out.reuse?.(f));
    const positions = await reuseKeptPages(selected.length, incremental, {
      // Nothing the page depends on changed: its files come from the previous bundle and its share
      // of the site-wide files from the record, and its body is not even read.
      whole(position, { recorded, output }) {
        if (!reusable(output)) return false;
        copiedPages++;
        incremental?.reuseRecorded(position, recorded);
        assetAccess?.addReferences(output.refs, access?.pages[selected[position].path] ?? 'signed-in');
        contribute(position, recorded.share, output.refs, recorded.entry[0]);
        return true;
      },
      body(position, body) {
        // A page whose output key is unchanged keeps its files from the previous bundle, unassembled and unhashed.
        const prior = incremental?.priorOutput(position, body);
        const copied = prior && reusable(prior) ? prior : undefined;
        if (copied) copiedPages++;
        onResult(assemble(position, body, copied), true);
      },
    });
    // Nothing left to render: the highlighter and threads are not even started.
    if (positions.length > 0) {
      // Threads load the site anew and would see every page: an audience's export renders on this one.
      const workers = opts.audience === undefined ? workerCountFor(positions.length, opts.threads ?? 0) : 0;
      // Alone, this thread renders every page: its code is best tokenized in one run up front.
      const renderLocal = await createPageRenderer({
        site,
        shell,
        sourceDir,
        cacheDir: opts.cacheDir,
        languages,
        keepRemote,
        allowAuthorScripts: bodySettings.allowAuthorScripts,
        shipWarnings,
        prepareCode: workers === 0,
        positions,
        codeThread: positions.length > 0 && worthATokenizerThread(languages) ? opts.codeThread?.() : undefined,
      });
      const parallel = await renderPagesInParallel({
        positions,
        workers,
        workerData: {
          sourceDir,
          source,
          paths: opts.paths,
          domain,
          generatorVersion: opts.generatorVersion,
          cacheDir: opts.cacheDir,
          theme,
          searchIndexPath,
          languages,
          keepRemote,
          allowAuthorScripts: opts.allowAuthorScripts ?? false,
          shipWarnings,
          droppedScripts,
        },
        renderLocal,
        onResult,
        onWorkerFailure: (message) =>
          report.warning(`a page-rendering thread stopped (${message}); its pages were rendered on the main thread`),
        signal: opts.signal,
      });
      for (const part of parallel.reports) report.absorb(part);
      pagesByWorkers = parallel.pagesByWorkers;
    }
    tellReport(results, report);
    llmsFull.end();
    searchEntries.end();
    chunkLines.end();
    audiences?.end();
  } catch (err) {
    void incremental?.abandon();
    llmsFull.fail(err);
    searchEntries.fail(err);
    chunkLines.fail(err);
    audiences?.fail(err);
    throw err;
  } finally {
    await Promise.all(writes);
  }
  if (writeFailure !== null) throw writeFailure;
  // Pages render from the one read of the source, but snippets, images and OpenAPI files are
  // still read as pages need them: a source folder that disappeared meanwhile fails the export
  // rather than leaving those holes in it.
  await assertSourceDir(sourceDir);
  for (const feature of features) await copyFeatureFiles(out, featureAssets(feature));
  const finished = results.filter((r): r is Kept => r !== undefined);
  const classes = new Set(finished.flatMap((r) => r.classes));
  await out.write(utilitiesPath, (await buildUtilityCss(classes, config.colors)).css || '/* no utility classes on these pages */\n');
  const ids = new Map(finished.flatMap((r) => (r.ids ? [[r.manifest.path, new Set(r.ids)] as const] : [])));
  const anchorChecks = finished.flatMap((r) => r.anchorChecks);
  const manifestPages = finished.map((r) => r.manifest);
  const llmsPages: LlmsPage[] = finished.flatMap((r) => (r.llms ? [r.llms] : []));
  const sitemapPaths = finished.flatMap((r) => (r.llms ? [r.manifest.path] : []));
  const fallbackPages = finished.flatMap((r) => (r.fellBack ? [r.manifest.path] : []));

  const rewritten = await checkAnchors(out, anchorChecks, ids, report);
  const outputsSaved = incremental?.saveOutputs(
    out.files(),
    finished.map((r) => ({ path: r.manifest.path, file: r.manifest.file, key: r.outputKey, refs: r.refs })),
    rewritten,
  );
  const sharesSaved = incremental?.saveShares();
  for (const [source, destination] of site.redirects) {
    const target = resolveLink(destination, source, index);
    if (target.kind === 'broken') report.warning(`redirect ${source} points to ${destination}, which is not in this export`);
    await out.write(
      pageFile(source),
      buildRedirectPage(
        target.href,
        target.kind === 'external' ? undefined : canonicalUrl(domain, destination.replace(/^\/+/, '') || 'index'),
      ),
    );
  }
  if (selected.length === 0 && !site.redirects.has('index')) await out.write('index.html', shell.emptySite());
  await out.write('404.html', shell.notFoundPage());
  const signInShell = renderSignInShell(shell.site);
  await out.write(SIGN_IN_SHELL_PATH, signInShell);
  // The sign-in page is for everyone: the logo and favicon it shows stay public.
  assetAccess?.addPage('index.html', signInShell, 'public');
  await searchIndexWritten;
  await chunksWritten;
  await out.write('sitemap.xml', buildSitemap(domain, sitemapPaths));
  await out.write('llms.txt', buildLlmsTxt(config.name, config.description, llmsPages));
  await out.write(AGENT_SEARCH_FILE, agentSearchJson(finished.flatMap((r) => (r.agents ? [r.agents] : []))));
  await llmsFullWritten;
  await outputsSaved;
  await sharesSaved;
  const cache = await incremental?.finish(selected.map((p) => p.path));
  await audiences?.finish(config.name, config.description, llmsPages);
  await incremental?.saveRuns(out.streamedRuns?.() ?? []);
  if (assetAccess) await writeAccessMap(out, access, assetAccess.restricted());
  const final = { ...report.toJSON(), ...(fullAccess ? { access: summarizeAccess(fullAccess, access !== null) } : {}) };
  await out.write('_enclave/report.json', `${JSON.stringify(final, null, 2)}\n`);
  await out.writeManifest({
    domain,
    version,
    jobId: opts.jobId,
    createdAt: opts.now.toISOString(),
    generator: { name: 'enclave', version: opts.generatorVersion },
    pages: manifestPages,
  });
  return {
    version,
    pageCount: rendered,
    expected,
    missingPages: final.pages.missing,
    failed,
    warnings: final.warnings.length,
    report: final,
    fallbackPages,
    pagesByWorkers,
    languages,
    sourceHash,
    sourceFileHashes: source.fileHashes,
    reusedPages: cache?.reusedPages ?? 0,
    renderedPages: cache?.renderedPages ?? rendered + failed,
    copiedPages,
    ...(cache ? { cache: { discarded: cache.discarded, cacheBytes: cache.cacheBytes, reachedBound: cache.reachedBound } } : {}),
  };
}

/** The part of a page's result needed once every page is done. */
interface Kept extends PageShareMeta {
  /** The source files the page's HTML references (recorded with its output key). */
  refs: string[];
  /** See IncrementalRender.outputKey (absent without a cache, and for a failed page). */
  outputKey?: string;
}

/** Tells the report what each page reported, and which pages failed, in page order. */
function tellReport(results: readonly (Kept | undefined)[], report: BuildReportCollector): void {
  for (const r of results) {
    if (!r) continue;
    replayReportEvents(r.events, report);
    if (r.failedReason === undefined) report.pageRendered();
    else report.pageFailed(r.manifest.path, r.failedReason);
  }
}

/** Pages assembled between turns of the event loop while reusing kept bodies, so written files flow out. */
const REUSE_BATCH = 64;

/**
 * Hands every page the incremental cache can serve to `reuse`: whole (`whole`, from the record of
 * the last export, when it takes it) or else from its kept body (`body`). Returns the positions
 * left to render (all of them without a cache).
 */
async function reuseKeptPages(
  count: number,
  incremental: IncrementalRender | undefined,
  reuse: {
    whole: (position: number, recorded: NonNullable<ReturnType<IncrementalRender['recorded']>>) => boolean;
    body: (position: number, body: PageBody) => void;
  },
): Promise<number[]> {
  const all = Array.from({ length: count }, (_, i) => i);
  if (!incremental) return all;
  const left: number[] = [];
  for (const position of all) {
    const recorded = incremental.recorded(position);
    if (!recorded || !reuse.whole(position, recorded)) {
      const body = incremental.take(position);
      if (body) reuse.body(position, body);
      else left.push(position);
    }
    if (position % REUSE_BATCH === REUSE_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return left;
}

/** Follows each page's Markdown copy in llms-full.txt. */
const LLMS_FULL_SEPARATOR = '\n---\n\n';

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
