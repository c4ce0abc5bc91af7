import { toText } from 'hast-util-to-text';
import type { ComponentProps, ComponentRenderer, Element, ElementContent, RenderContext } from '../types.js';
import { el } from './buildElement.js';
import { Tree, TreeFile, TreeFolder } from './Tree.js';

/** One entry of a file tree, whichever way the author wrote it. */
interface Entry {
  name: string;
  comment?: string;
  open: boolean;
  children: Entry[] | null;
}

/** `- name comment` → name and comment; `src/` marks a folder, `^src/` a closed one. */
function readLabel(text: string): { name: string; comment?: string; folder: boolean; closed: boolean } {
  const m = /^\s*(\^?)(\S+)\s*(?:(?:\/\/|#|--?|—|:)\s*)?(.*)$/s.exec(text.replace(/\s+/g, ' ')) ?? ['', '', text.trim(), ''];
  const folder = m[2].endsWith('/');
  const comment = m[3].trim();
  return { name: folder ? m[2].replace(/\/+$/, '') : m[2], comment: comment || undefined, folder, closed: m[1] === '^' };
}

/** Entries of a Markdown list (`ul > li`, nested lists are folders). */
function fromList(list: Element): Entry[] {
  const out: Entry[] = [];
  for (const li of list.children) {
    if (li.type !== 'element' || li.tagName !== 'li') continue;
    const nested = li.children.find((c): c is Element => c.type === 'element' && (c.tagName === 'ul' || c.tagName === 'ol'));
    const label = readLabel(
      li.children
        .filter((c) => c !== nested)
        .map((c) => toText(c as ElementContent))
        .join(' '),
    );
    if (!label.name) continue;
    const children = nested ? fromList(nested) : label.folder ? [] : null;
    out.push({ name: label.name, comment: label.comment, open: !label.closed, children });
  }
  return out;
}

/** Entries of the `items` prop: strings, `{name, items?, note|comment?, open?, kind?}` and nested arrays. */
function fromItems(items: unknown[]): Entry[] {
  const out: Entry[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      const label = readLabel(item === '...' ? '…' : item);
      out.push({ name: label.name, comment: label.comment, open: true, children: label.folder ? [] : null });
    } else if (Array.isArray(item)) {
      const last = out[out.length - 1];
      if (last) last.children = [...(last.children ?? []), ...fromItems(item)];
    } else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      const name = typeof o.name === 'string' ? o.name : '';
      if (!name) continue;
      const folder = o.kind === 'folder' || Array.isArray(o.items) || name.endsWith('/');
      const comment = typeof o.note === 'string' ? o.note : typeof o.comment === 'string' ? o.comment : undefined;
      out.push({
        name: name.replace(/\/+$/, ''),
        comment,
        open: o.open !== false,
        children: folder ? fromItems(Array.isArray(o.items) ? o.items : []) : null,
      });
    }
  }
  return out;
}

/** Renders entries with Tree's own markup, so both forms look and behave the same. */
function renderEntries(entries: Entry[], ctx: RenderContext): ElementContent[] {
  return entries.map((e) => {
    const props: ComponentProps = { name: e.name, ...(e.comment ? { comment: e.comment } : {}), defaultOpen: e.open };
    return e.children === null
      ? (TreeFile(props, [], ctx) as ElementContent)
      : (TreeFolder(props, renderEntries(e.children, ctx), ctx) as ElementContent);
  });
}

/**
 * `FileTree`: a file tree written as a Markdown list (`- src/` with nested items for folders,
 * text after a name as its comment, `^name/` for a folder shown closed) or as an `items` array.
 * Folders start open, so the structure reads at a glance without JavaScript.
 */
export const FileTree: ComponentRenderer = (props, children, ctx) => {
  let entries: Entry[] = [];
  if (Array.isArray(props.items)) entries = fromItems(props.items);
  else {
    const lists = children.filter((c): c is Element => c.type === 'element' && (c.tagName === 'ul' || c.tagName === 'ol'));
    entries = lists.flatMap(fromList);
  }
  if (entries.length === 0) {
    ctx.report.warning('FileTree has neither a Markdown list nor an items array; nothing to show', ctx.pagePath);
    return el('div', { className: ['enclave-tree-empty'] }, children);
  }
  return Tree({}, renderEntries(entries, ctx), ctx);
};
