import GithubSlugger from 'github-slugger';
import type { Element, Root, RootContent } from 'hast';
import type { PageContext } from '../links/createPageContext.js';
import { isRemoteUrl } from '../offline/isRemoteUrl.js';
import { remotePlaceholder } from '../offline/remotePlaceholder.js';
import { stripRemoteFromElement } from '../offline/stripRemoteFromElement.js';
import { neutraliseActiveContent } from './neutraliseActiveContent.js';
import type { RemovedRemote } from '../report/BuildReport.js';
import { rewriteSvgRef, SVG_REF_TAGS } from './rewriteSvgRef.js';
import { unnestLinks } from './unnestLinks.js';

/** A heading shown in the table of contents. */
export interface TocEntry {
  depth: number;
  id: string;
  text: string;
}

/** What the page shell and the search index need from the rendered content. */
export interface ContentSummary {
  toc: TocEntry[];
  ids: Set<string>;
  /** Headings h2–h4 text, for search ranking. */
  headings: string[];
  /** For each of `headings`: its id and where its section starts in `text` (-1 past the cap), so search can link to the section. */
  sections: [id: string, offset: number][];
  /** Plain text of the body (code excluded), capped, for search. */
  text: string;
  /** Class names authored on the page (not the theme's `enclave-*` ones), for the utility stylesheet. */
  classes: Set<string>;
}

const HEADING = /^h[1-6]$/;
const URL_ATTRS: Record<string, string[]> = {
  a: ['href'],
  area: ['href'],
  img: ['src'],
  source: ['src'],
  video: ['src', 'poster'],
  audio: ['src'],
  iframe: ['src'],
  embed: ['src'],
  object: ['data'],
  track: ['src'],
};
const MEDIA_KIND: Record<string, RemovedRemote['kind']> = { img: 'image', iframe: 'frame', embed: 'frame', object: 'frame' };
const SKIP_TEXT = new Set(['script', 'style', 'svg', 'pre', 'template', 'button']);
/** Subtrees whose classes belong to generated markup (highlighted code, drawings), never to utilities. */
const NO_UTILITIES = new Set(['svg', 'pre', 'math']);
const MAX_SEARCH_TEXT = 4000;

/**
 * Walks the rendered content once: gives headings Mintlify-style ids (github-slugger, `{#id}`
 * kept) and anchor links, then the anchors components requested, rewrites every link and media
 * URL through the page context (relative output, broken/missing/external recorded), and collects
 * the TOC, ids and search text.
 */
// size: one tree walk that rewrites links, assigns ids and collects the TOC and search text together, so the page is walked once
export function finalizeContent(root: Root, ctx: PageContext): ContentSummary {
  const slugger = new GithubSlugger();
  const summary: ContentSummary = { toc: [], ids: new Set(), headings: [], sections: [], text: '', classes: new Set() };
  const sectionIds: string[] = [];
  const textParts: string[] = [];
  let textLength = 0;
  /** Headings and changelog `Update`s in document order: both feed the table of contents. */
  const headings: Element[] = [];
  const anchored: Element[] = [];
  /** Headings inside an `Update`: the entry's label stands for them in the table of contents. */
  const inUpdates = new WeakSet<Element>();
  let updateDepth = 0;

  // Explicit ids first, so generated slugs never collide with an author's `{#id}`.
  const collectIds = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (typeof child.properties.id === 'string') {
        summary.ids.add(child.properties.id);
        slugger.slug(child.properties.id);
      }
      if (child.tagName === 'a' && typeof child.properties.name === 'string') summary.ids.add(child.properties.name);
      collectIds(child);
    }
  };
  collectIds(root);

  const collectClasses = (el: Element): boolean => {
    const names = el.properties.className;
    if (!Array.isArray(names)) return true;
    for (const n of names) {
      if (typeof n !== 'string') continue;
      if (n === 'katex' || n === 'katex-display') return false;
      if (!n.startsWith('enclave-')) summary.classes.add(n);
    }
    return true;
  };
  // size: the walk's one visitor: links, ids, TOC and search text per node, in one pass
  const visit = (node: Root | Element, inCode: boolean, inGenerated = false) => {
    const children = node.children as RootContent[];
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child.type === 'text') {
        if (!inCode && textLength < MAX_SEARCH_TEXT) {
          textParts.push(child.value);
          textLength += child.value.length;
        }
        continue;
      }
      if (child.type !== 'element') continue;
      if ((!ctx.keepsRemote && !stripRemoteFromElement(child, ctx.pagePath, ctx.report)) || !neutraliseActiveContent(child, ctx)) {
        children.splice(i--, 1);
        continue;
      }
      const attrs = URL_ATTRS[child.tagName];
      if (attrs) {
        for (const attr of attrs) {
          const v = child.properties[attr];
          if (typeof v !== 'string') continue;
          if (child.tagName === 'a' || child.tagName === 'area') {
            if (!ctx.emitted(v)) child.properties[attr] = ctx.href(v);
          } else if (isRemoteUrl(v)) {
            const kind = MEDIA_KIND[child.tagName] ?? 'media';
            const replacement = ctx.offlineMedia(v, kind);
            if (replacement !== null) child.properties[attr] = replacement;
            else if (attr === 'poster') delete child.properties.poster;
            else {
              children[i] = remotePlaceholder(child, v, kind);
              break;
            }
          } else child.properties[attr] = ctx.assetUrl(v);
        }
        if (children[i] !== child) {
          collectClasses(children[i] as Element);
          continue;
        }
        // A remote `srcset` would load even when `src` is local: it goes unless the export keeps remote loads.
        // (JSX in pages may spell it `srcset`, which reaches hast under that name.)
        for (const key of ['srcSet', 'srcset']) {
          const srcSet = child.properties[key];
          if (typeof srcSet !== 'string' || !isRemoteUrl(srcSet) || ctx.keepsRemote) continue;
          ctx.report.removedRemote({ page: ctx.pagePath, kind: 'image', url: srcSet, action: 'removed' });
          delete child.properties[key];
        }
      }
      if (SVG_REF_TAGS.has(child.tagName)) rewriteSvgRef(child, ctx);
      const isUpdate = child.properties.dataEnclaveUpdate !== undefined;
      if (HEADING.test(child.tagName)) {
        headings.push(child);
        if (updateDepth > 0) inUpdates.add(child);
      } else if (isUpdate) headings.push(child);
      if (child.properties.dataEnclaveAnchor !== undefined) anchored.push(child);
      const generated = inGenerated || NO_UTILITIES.has(child.tagName) || !collectClasses(child);
      if (isUpdate) updateDepth++;
      // The API playground's form labels are controls, not content to search or copy.
      visit(
        child,
        inCode ||
          SKIP_TEXT.has(child.tagName) ||
          child.properties.dataEnclaveCode !== undefined ||
          child.properties.dataEnclaveTry !== undefined,
        generated,
      );
      if (isUpdate) updateDepth--;
    }
  };
  visit(root, false);

  for (const h of headings) {
    if (!HEADING.test(h.tagName)) {
      // A changelog entry: listed by its label, under the id Update.ts gave it.
      const label = findByClass(h, 'enclave-update-label');
      const text = label ? textOf(label).trim() : '';
      if (text && typeof h.properties.id === 'string') {
        summary.toc.push({ depth: 2, id: h.properties.id, text });
        summary.headings.push(text);
        sectionIds.push(h.properties.id);
      }
      continue;
    }
    const text = textOf(h).trim();
    if (!text) continue;
    let id = typeof h.properties.id === 'string' ? h.properties.id : undefined;
    if (!id) {
      id = slugger.slug(text);
      h.properties.id = id;
      summary.ids.add(id);
    }
    const depth = Number(h.tagName[1]);
    if (depth >= 2 && depth <= 4) {
      summary.headings.push(text);
      sectionIds.push(id);
    }
    if ((depth === 2 || depth === 3) && !inUpdates.has(h)) summary.toc.push({ depth, id, text });
    if (depth >= 2) {
      h.children.push({
        type: 'element',
        tagName: 'a',
        properties: { className: ['enclave-anchor'], href: `#${id}`, ariaLabel: `Link to section: ${text}` },
        children: [{ type: 'text', value: '#' }],
      });
    }
  }
  // Last, once heading anchors exist: a heading inside a JSX link now holds a link too.
  unnestLinks(root);
  // Component anchors (componentAnchors.ts) come last so heading slugs match Mintlify's; one an
  // id on the page already holds is dropped rather than duplicated (the heading keeps it).
  for (const node of anchored) {
    const id = String(node.properties.dataEnclaveAnchor);
    delete node.properties.dataEnclaveAnchor;
    if (summary.ids.has(id)) continue;
    node.properties.id = id;
    summary.ids.add(id);
  }
  summary.text = textParts.join(' ').replace(/\s+/g, ' ').trim().slice(0, MAX_SEARCH_TEXT);
  // Headings are in the text in document order: find each after the previous one.
  let from = 0;
  summary.sections = summary.headings.map((heading, i) => {
    const at = summary.text.indexOf(heading.replace(/\s+/g, ' '), from);
    if (at >= 0) from = at + 1;
    return [sectionIds[i], at];
  });
  return summary;
}

/** Concatenated text of a hast subtree (svg and scripts skipped). */
export function textOf(node: Element | Root): string {
  let out = '';
  for (const child of node.children as RootContent[]) {
    if (child.type === 'text') out += child.value;
    else if (child.type === 'element' && child.tagName !== 'svg' && child.tagName !== 'script' && child.tagName !== 'style')
      out += textOf(child);
  }
  return out;
}

/** The first descendant element carrying a class. */
function findByClass(node: Element, className: string): Element | undefined {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (Array.isArray(child.properties.className) && child.properties.className.includes(className)) return child;
    const found = findByClass(child, className);
    if (found) return found;
  }
  return undefined;
}
