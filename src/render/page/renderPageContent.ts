import type { Element, Root } from 'hast';
import type { Root as MdRoot } from 'mdast';
import type { PageContext } from '../links/createPageContext.js';
import type { SitePage } from '../nav/resolveNavigation.js';
import type { ElementContent } from '../types.js';
import { mdastToHast, type ConverterDeps } from '../mdx/mdastToHast.js';
import { normalizeSource, parseSource } from '../mdx/parseSource.js';
import type { Frontmatter } from '../mdx/readFrontmatter.js';
import { inlineMarkdown } from '../mdx/inlineMarkdown.js';
import { finalizeContent, textOf, type ContentSummary } from './finalizeContent.js';
import { hastToHtml } from './hastToHtml.js';
import { markdownCopy } from './markdownCopy.js';

/** Finds an operation's document and renders its body (provided by the OpenAPI module). */
export interface OperationRenderer {
  /** `pageContent` is a written page's own text, placed under the method bar. */
  render(
    method: string,
    path: string,
    specHint: string | undefined,
    ctx: PageContext,
    pageContent?: ElementContent[],
  ): ElementContent[] | null;
}

/** A page rendered to hast, before it is wrapped in the theme. */
export interface RenderedContent {
  title: string;
  /** The frontmatter description as plain text (meta tags, search). */
  description?: string;
  /** The description's inline Markdown as HTML (links made relative), when it has any. */
  descriptionHtml?: string;
  frontmatter: Frontmatter;
  hast: Root;
  summary: ContentSummary;
  markdown: string;
}

/** Humanises a path segment for pages without a title: `getting-started` → `Getting started`. */
export function titleFromPath(path: string): string {
  const last = path.split('/').pop() ?? path;
  const words = last.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Home';
}

const OPENAPI_FRONTMATTER = /^(?:(\S+\.(?:json|ya?ml))\s+)?([A-Za-z]+)\s+(\S+)$/;

/**
 * Renders one page's content (markdown/MDX file or generated API page) to hast plus what the
 * shell needs. `texts` and `fm` are the page texts and this page's frontmatter as the site's
 * one read of the source found them: the export renders that snapshot instead of reading and
 * parsing each page's file again.
 */
export function renderPageContent(
  page: SitePage,
  texts: ReadonlyMap<string, string>,
  fm: Frontmatter,
  ctx: PageContext,
  deps: ConverterDeps & { openapi: OperationRenderer },
): RenderedContent {
  if (page.source.kind === 'operation') {
    const { method, path, spec, title } = page.source;
    const body = deps.openapi.render(method, path, spec, ctx) ?? [];
    const hast: Root = { type: 'root', children: body };
    const summary = finalizeContent(hast, ctx);
    return { title, frontmatter: { title }, hast, summary, markdown: `# ${title}\n\n\`${method} ${path}\`\n\n${summary.text}\n` };
  }
  const text = texts.get(page.source.file);
  if (text === undefined) throw new Error(`cannot read ${page.source.file}`);
  const prepared = normalizeSource(text, page.source.format);
  const mdast: MdRoot = parseSource(prepared, page.source.format);
  const hast = mdastToHast(mdast, page.source.file, ctx, deps);

  let title = fm.title;
  if (!title) {
    // A page without a frontmatter title uses its leading `# Heading`, which then isn't repeated.
    const firstIndex = hast.children.findIndex((c) => c.type === 'element' || (c.type === 'text' && c.value.trim() !== ''));
    const first = hast.children[firstIndex];
    if (first?.type === 'element' && first.tagName === 'h1') {
      title = textOf(first as Element).trim();
      hast.children.splice(firstIndex, 1);
    }
  }
  if (fm.openapi) {
    const m = OPENAPI_FRONTMATTER.exec(fm.openapi.trim());
    const own = hast.children as ElementContent[];
    const rendered = m ? deps.openapi.render(m[2].toUpperCase(), m[3], m[1], ctx, own) : null;
    if (rendered) hast.children = rendered as Root['children'];
    else ctx.report.warning(`frontmatter openapi "${fm.openapi}" does not match an operation in a loaded OpenAPI file`);
  }
  const summary = finalizeContent(hast, ctx);
  const finalTitle = title ?? titleFromPath(page.path);
  const description = fm.description ? renderDescription(fm.description, ctx) : undefined;
  return {
    title: finalTitle,
    description: description?.text,
    descriptionHtml: description?.html,
    frontmatter: fm,
    hast,
    summary,
    markdown: markdownCopy(prepared, mdast, finalTitle, fm.description),
  };
}

/**
 * A frontmatter description shown under the title: its inline Markdown (code, links, emphasis) is
 * rendered as in the hosted product, its links resolved like the body's; meta tags get its text.
 */
function renderDescription(text: string, ctx: PageContext): { text: string; html?: string } {
  const children = inlineMarkdown(text);
  if (!children) return { text };
  const root: Root = { type: 'root', children };
  finalizeContent(root, ctx);
  return { text: textOf(root).trim(), html: hastToHtml(root) };
}
