import { createIslandCompiler } from '../islands/createIslandCompiler.js';
import { interfaceText } from '../theme/interfaceText.js';
import { pageLanguageTag } from '../nav/pageLanguageTag.js';
import { toText } from 'hast-util-to-text';
import type { ElementContent } from 'hast';
import { createCodeHighlighter } from '../code/createCodeHighlighter.js';
import type { CodeTokenizerThread } from '../code/CodeTokenizerThread.js';
import { type FencedBlock, scanFencedBlocks } from '../code/scanFencedBlocks.js';
import { builtInComponents } from '../components/index.js';
import { createPageContext } from '../links/createPageContext.js';
import { renderMath } from '../math/renderMath.js';
import { ModuleLoader } from '../mdx/ModuleLoader.js';
import { hastToHtml } from '../page/hastToHtml.js';
import { renderPageContent, type RenderedContent } from '../page/renderPageContent.js';
import type { ReportCollector } from '../types.js';
import { createOperationRenderer } from '../site/createOperationRenderer.js';
import type { ShellParts } from '../site/createShellParts.js';
import type { LoadedSite } from '../site/loadSite.js';
import { createPageAssembler } from '../incremental/assemblePage.js';
import type { PageBody } from '../incremental/PageBody.js';
import { createReportRecorder, type ReportEvent } from '../incremental/recordReportEvents.js';
import type { PageResult } from './PageResult.js';

/** Renders one page of a prepared site: its files and what it contributes to the site-wide outputs. */
export type PageRenderer = (position: number) => PageResult;

/** A page's rendered content and the context it was rendered in (links, features, reports). */
export interface PageContent {
  page: LoadedSite['selected'][number];
  ctx: ReturnType<typeof createPageContext>;
  content: RenderedContent;
}

/**
 * Builds what renders a page's content (as hast) for each position of the site: the highlighter
 * (only the grammars the site uses), the module loader and the OpenAPI renderer. Throws what the
 * page's content throws.
 */
export async function createContentRenderer(options: {
  site: LoadedSite;
  report: ReportCollector;
  sourceDir: string;
  cacheDir?: string;
  languages: readonly string[];
  /** Leave remote media in pages (the export's `keepRemoteAssets`). */
  keepRemote?: boolean;
  /** Keep scripts written in pages (the site's `authorScripts`). */
  allowAuthorScripts?: boolean;
  /** Lost content is a warning, not a failed page (the export's `shipWarnings`). */
  shipWarnings?: boolean;
  /** Tokenize the selected pages' code blocks up front (the thread that renders most pages). */
  prepareCode?: boolean;
  /** A thread that tokenizes the selected pages' code blocks meanwhile (instead of `prepareCode`). */
  codeThread?: CodeTokenizerThread;
  /** The positions this renderer will be asked for, in order (default: every page); code is prepared for them alone. */
  positions?: readonly number[];
  /** Hears of every module (snippet, component file) a page loads. */
  onModule?: (file: string) => void;
}): Promise<(position: number) => PageContent> {
  const { site, report, sourceDir } = options;
  const highlighter = await createCodeHighlighter({ cacheDir: options.cacheDir, languages: options.languages });
  const prepared = new Set<number>();
  const { codeThread } = options;
  const wanted = options.positions ? options.positions.map((p) => site.selected[p]) : site.selected;
  const ordinal = new Map(options.positions?.map((p, i) => [p, i]));
  if (codeThread) highlighter.tokenizeAhead(fencedBlocksOf(wanted, site.texts), codeThread);
  const deps = {
    components: builtInComponents,
    highlight: highlighter.highlight.bind(highlighter),
    renderMath,
    loader: new ModuleLoader(sourceDir, options.onModule),
    openapi: createOperationRenderer(site),
  };
  const islands = createIslandCompiler(deps.loader);
  return (position) => {
    const chunk = Math.floor((ordinal.get(position) ?? position) / PREPARE_PAGES);
    if (!codeThread && options.prepareCode && !prepared.has(chunk)) {
      prepared.add(chunk);
      highlighter.prepare(fencedBlocksOf(wanted.slice(chunk * PREPARE_PAGES, (chunk + 1) * PREPARE_PAGES), site.texts));
    }
    const page = site.selected[position];
    const ctx = createPageContext({
      pagePath: page.path,
      sourceDir,
      site: site.index,
      report,
      iconLibrary: site.config.iconLibrary,
      keepRemote: options.keepRemote,
      allowAuthorScripts: options.allowAuthorScripts,
      shipWarnings: options.shipWarnings,
      text: interfaceText(pageLanguageTag(site.nav, page.path)),
    });
    ctx.islands = islands.forPage();
    return { page, ctx, content: renderPageContent(page, site.texts, site.frontmatter.get(page.path) ?? {}, ctx, deps) };
  };
}

/**
 * Pages whose code blocks are tokenized together, ahead of the first of them: enough for the
 * tokenizer to run at full speed, few enough that progress and abort requests keep flowing.
 */
const PREPARE_PAGES = 64;

/** The fenced code blocks written in `pages`' own sources (not snippets), in page order. */
function* fencedBlocksOf(pages: LoadedSite['selected'], texts: LoadedSite['texts']): Generator<FencedBlock> {
  for (const page of pages) {
    const text = page.source.kind === 'operation' ? undefined : texts.get(page.source.file);
    if (text !== undefined) yield* scanFencedBlocks(text);
  }
}

/**
 * Builds the per-page renderer shared by the main thread and worker threads: for each page, its
 * body (content → HTML, search text, Markdown copy, what it reported) and then the theme shell
 * around it. A page that throws gets an error page. Files are returned, not written: the thread
 * that owns the bundle writes them. `body` rides along so the incremental export can keep it.
 */
export async function createPageRenderer(options: BodyRendererOptions & { shell: ShellParts }): Promise<PageRenderer> {
  const renderBody = await createBodyRenderer(options);
  const assemble = createPageAssembler(options.site, options.shell);
  return (position) => assemble(position, renderBody(position));
}

/** What createBodyRenderer needs: createContentRenderer's options, less the report it records itself. */
export type BodyRendererOptions = Omit<Parameters<typeof createContentRenderer>[0], 'report' | 'onModule'>;

/**
 * Builds what renders a page's body: everything its own inputs decide (see PageBody). What the
 * page reports is recorded into the body, not sent to a collector, so a reused body reports the
 * same; the modules it loads are recorded as its inputs.
 */
export async function createBodyRenderer(options: BodyRendererOptions): Promise<(position: number) => PageBody> {
  const { site } = options;
  const recorder = createReportRecorder();
  let modules = new Set<string>();
  const renderContent = await createContentRenderer({ ...options, report: recorder.collector, onModule: (file) => modules.add(file) });
  return (position) => {
    modules = new Set();
    recorder.take();
    const page = site.selected[position];
    let rendered: PageContent;
    try {
      rendered = renderContent(position);
    } catch (err) {
      const reason = (err as Error).message?.split('\n')[0] || String(err);
      return failedBody(page.path, reason, recorder.take(), [...modules]);
    }
    const { ctx, content } = rendered;
    const tryIt = ctx.tryItServers === null ? undefined : { connect: tryItOrigins(ctx.tryItServers) };
    // A "Try it" page may reach the spec's servers: no custom script runs with that policy.
    if (tryIt && site.inventory.customJs.length > 0) ctx.report.warning('custom scripts are left off this page: it has a "Try it" form');
    // Islands are the author's code, like custom scripts: none runs with a Try it page's wider policy.
    let islandScript = ctx.islands?.script() ?? null;
    if (islandScript && tryIt) {
      ctx.report.warning('interactive components stay static on this page: it has a "Try it" form');
      islandScript = null;
    }
    if (islandScript) ctx.features.add('islands');
    const fm = content.frontmatter;
    return {
      path: page.path,
      title: content.title,
      ...(content.description === undefined ? {} : { description: content.description }),
      ...(content.descriptionHtml === undefined ? {} : { descriptionHtml: content.descriptionHtml }),
      ...(fm.noindex ? { noindex: true } : {}),
      ...(fm.hidden ? { hidden: true } : {}),
      ...(typeof fm.mode === 'string' ? { mode: fm.mode } : {}),
      contentHtml: hastToHtml(content.hast) + (islandScript ?? ''),
      ...(typeof fm.tag === 'string' ? { tag: fm.tag } : {}),
      toc: content.summary.toc,
      ...(tryIt ? { tryIt } : {}),
      features: [...ctx.features],
      markdown: content.markdown,
      headings: content.summary.headings,
      sections: content.summary.sections,
      text: content.summary.text,
      agentText: agentText(ctx.agentContent),
      fellBack: ctx.fellBack(),
      ids: [...content.summary.ids],
      anchorChecks: ctx.anchorChecks,
      classes: [...content.summary.classes],
      events: recorder.take(),
      modules: [...modules],
    };
  };
}

/** The body of a page whose content threw. */
function failedBody(path: string, reason: string, events: ReportEvent[], modules: string[]): PageBody {
  return {
    path,
    failedReason: reason,
    title: '',
    contentHtml: '',
    toc: [],
    features: [],
    markdown: null,
    headings: [],
    sections: [],
    text: '',
    agentText: '',
    fellBack: false,
    ids: [],
    anchorChecks: [],
    classes: [],
    events,
    modules,
  };
}

/** Agent-only content flattened to one line of text ('' for none). */
function agentText(content: ElementContent[]): string {
  if (content.length === 0) return '';
  return toText({ type: 'root', children: content }).replace(/\s+/g, ' ').trim();
}

/**
 * The origins a "Try it" page may send to: those of the spec's absolute http(s) servers (a
 * relative server is the page's own origin). The site server turns them into `connect-src`.
 */
export function tryItOrigins(servers: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const server of servers) {
    try {
      const url = new URL(server);
      if (url.protocol === 'http:' || url.protocol === 'https:') origins.add(url.origin);
    } catch {
      // relative or unparsable: nothing beyond the page's own origin
    }
  }
  return [...origins];
}
