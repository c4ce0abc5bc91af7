import { interfaceText } from '../theme/interfaceText.js';
import { pageLanguageTag } from '../nav/pageLanguageTag.js';
import { toText } from 'hast-util-to-text';
import type { ElementContent } from 'hast';
import { createCodeHighlighter } from '../code/createCodeHighlighter.js';
import type { CodeTokenizerThread } from '../code/CodeTokenizerThread.js';
import { type FencedBlock, scanFencedBlocks } from '../code/scanFencedBlocks.js';
import type { AgentSearchEntry } from '../search/agentSearchChannel.js';
import { builtInComponents } from '../components/index.js';
import { featureAssets } from '../components/featureAssets.js';
import { createPageContext } from '../links/createPageContext.js';
import { pageFile } from '../links/SiteIndex.js';
import { renderMath } from '../math/renderMath.js';
import { ModuleLoader } from '../mdx/ModuleLoader.js';
import { hastToHtml } from '../page/hastToHtml.js';
import { renderPageContent, type RenderedContent } from '../page/renderPageContent.js';
import type { ReportCollector } from '../types.js';
import { createOperationRenderer } from '../site/createOperationRenderer.js';
import type { ShellParts } from '../site/createShellParts.js';
import type { LoadedSite } from '../site/loadSite.js';
import { renderPageShell } from '../theme/renderPageShell.js';
import type { PageFeature, PageResult } from './PageResult.js';
import { sectionChunks } from '../search/sectionChunks.js';

/** Renders one page of a prepared site: its files and what it contributes to the site-wide outputs. */
export type PageRenderer = (position: number) => PageResult;

/** Bundle paths of a feature's stylesheets and scripts (the files themselves are copied once, at the end). */
export function featureTargets(feature: PageFeature): { css: string[]; js: string[] } {
  const files = featureAssets(feature);
  return {
    css: files.filter((f) => f.target.endsWith('.css')).map((f) => f.target),
    js: files.filter((f) => f.target.endsWith('.js')).map((f) => f.target),
  };
}

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
}): Promise<(position: number) => PageContent> {
  const { site, report, sourceDir } = options;
  const highlighter = await createCodeHighlighter({ cacheDir: options.cacheDir, languages: options.languages });
  const prepared = new Set<number>();
  const { codeThread } = options;
  if (codeThread) highlighter.tokenizeAhead(fencedBlocksOf(site.selected, site.texts), codeThread);
  const deps = {
    components: builtInComponents,
    highlight: highlighter.highlight.bind(highlighter),
    renderMath,
    loader: new ModuleLoader(sourceDir),
    openapi: createOperationRenderer(site),
  };
  return (position) => {
    const chunk = Math.floor(position / PREPARE_PAGES);
    if (!codeThread && options.prepareCode && !prepared.has(chunk)) {
      prepared.add(chunk);
      highlighter.prepare(fencedBlocksOf(site.selected.slice(chunk * PREPARE_PAGES, (chunk + 1) * PREPARE_PAGES), site.texts));
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
 * Builds the per-page renderer shared by the main thread and worker threads: for each page,
 * content → theme shell → `page.html` and `page.md`. A page that throws gets an error page.
 * Files are returned, not written: the thread that owns the bundle writes them.
 */
// size: a factory: most lines are the small closures it returns, which share its private state
export async function createPageRenderer(options: {
  site: LoadedSite;
  shell: ShellParts;
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
  /** See createContentRenderer. */
  prepareCode?: boolean;
  codeThread?: CodeTokenizerThread;
}): Promise<PageRenderer> {
  const { site, shell } = options;
  const renderContent = await createContentRenderer(options);
  const targets = new Map<PageFeature, { css: string[]; js: string[] }>();

  // size: one page through the pipeline's stages in order, with the error page as the fallback of each
  return function renderPage(position) {
    let rendered: PageContent;
    try {
      rendered = renderContent(position);
    } catch (err) {
      const page = site.selected[position];
      const reason = (err as Error).message?.split('\n')[0] || String(err);
      const title = shell.label(page.path);
      const file = pageFile(page.path);
      return {
        position,
        files: [[file, shell.errorPage(page, title, reason)]],
        manifest: { path: page.path, title, file },
        failedReason: reason,
        fellBack: false,
        ids: [],
        anchorChecks: [],
        markdown: null,
        features: [],
        classes: [],
      };
    }
    const { page, ctx, content } = rendered;
    const file = pageFile(page.path);
    const tryIt = ctx.tryItServers === null ? undefined : { connect: tryItOrigins(ctx.tryItServers) };
    // A "Try it" page may reach the spec's servers: no custom script runs with that policy.
    if (tryIt && site.inventory.customJs.length > 0) ctx.report.warning('custom scripts are left off this page: it has a "Try it" form');
    const extra = { styles: [] as string[], scripts: [] as string[], customScripts: tryIt === undefined };
    for (const feature of ctx.features) {
      if (!targets.has(feature)) targets.set(feature, featureTargets(feature));
      extra.styles.push(...targets.get(feature)!.css);
      extra.scripts.push(...targets.get(feature)!.js);
    }
    const html = renderPageShell(shell.site, shell.page(page, content, hastToHtml(content.hast), extra), shell.rootPrefix(page.path));
    const fm = content.frontmatter;
    const listed = site.nav.locations.has(page.path) && !fm.hidden;
    const indexed = !fm.noindex && (listed || site.config.seoIndexing === 'all');
    return {
      position,
      files: [
        [file, html],
        [`${page.path}.md`, content.markdown],
      ],
      manifest: tryIt ? { path: page.path, title: content.title, file, tryIt } : { path: page.path, title: content.title, file },
      indexed: indexed
        ? {
            search: [
              page.path,
              content.title,
              content.summary.headings,
              content.description ?? '',
              content.summary.text,
              content.summary.sections,
              shell.scope(page.path),
            ],
            llms: {
              path: page.path,
              title: content.title,
              description: content.description,
              section: site.nav.locations.get(page.path)?.groups[0],
            },
            agents: agentEntry(page.path, content.title, shell.scope(page.path), ctx.agentContent),
            chunks: sectionChunks({
              path: page.path,
              title: content.title,
              description: content.description ?? '',
              markdown: content.markdown,
              headings: content.summary.headings.map((text, i) => ({ text, id: content.summary.sections[i]?.[0] ?? '' })),
              scope: shell.scope(page.path),
              tag: typeof fm.tag === 'string' ? fm.tag : undefined,
            }),
          }
        : undefined,
      fellBack: ctx.fellBack(),
      ids: [...content.summary.ids],
      anchorChecks: ctx.anchorChecks,
      markdown: content.markdown,
      features: [...ctx.features],
      classes: [...content.summary.classes],
    };
  };
}

/** A page's entry in the agent channel, or undefined when it has no agent-only content. */
function agentEntry(path: string, title: string, scope: string, content: ElementContent[]): AgentSearchEntry | undefined {
  if (content.length === 0) return undefined;
  const text = toText({ type: 'root', children: content }).replace(/\s+/g, ' ').trim();
  return text ? { path, title, scope, text } : undefined;
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
