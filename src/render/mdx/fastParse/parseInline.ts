import type { PhrasingContent } from 'mdast';
import type { MdxJsxTextElement } from 'mdast-util-mdx-jsx';
import { bail } from './FastPathBail.js';
import { parseJsxTag } from './parseJsxTag.js';
import { scanBraces } from './scanBraces.js';
import { readCharacterReference } from './readCharacterReference.js';
import { AUTOLINK_START, LINKABLE_TEXT, readAutolinkLiteral } from './readAutolinkLiteral.js';
import { delimiterAt, resolveEmphasis, type Delimiter, type InlineItem } from './resolveEmphasis.js';

/** A span still being read: the paragraph itself, an open `[`/`![`, or an open JSX element. */
interface Frame {
  kind: 'root' | 'link' | 'image' | 'jsx';
  items: InlineItem[];
  element?: MdxJsxTextElement;
  /** A `[` that can no longer make a link, because a link formed inside it (links do not nest). */
  inactive?: boolean;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
// Simple link destinations only: no escapes, references, brackets, spaces or angle brackets.
const DESTINATION = /[^\s<>()\\&"'`]*/y;

/**
 * Reads the inline content of a paragraph, heading or table cell (`s` already has line prefixes
 * and the final line's trailing whitespace removed) into mdast phrasing nodes, or bails.
 * `exactLineEnds` says no spaces were trimmed before a line ending in `s`: a code span keeps
 * such spaces in micromark, so only then may one run across lines.
 */
// size: a CommonMark inline parser's main loop: one branch per delimiter, sharing the delimiter stack
export function parseInline(s: string, mdx: boolean, exactLineEnds = false): PhrasingContent[] {
  const stack: Frame[] = [{ kind: 'root', items: [] }];
  let frame = stack[0];
  let textStart = 0;
  let i = 0;

  // Whether an autolink literal could be anywhere here; most text has none, and skips the checks.
  const mayLink = AUTOLINK_START.test(s);
  const flushText = (end: number) => {
    if (end > textStart) frame.items.push({ type: 'text', value: s.slice(textStart, end) });
  };
  const push = (node: InlineItem, next: number) => {
    frame.items.push(node);
    i = next;
    textStart = next;
  };
  const open = (kind: Frame['kind'], next: number, element?: MdxJsxTextElement) => {
    frame = { kind, items: [], element };
    stack.push(frame);
    i = next;
    textStart = next;
  };
  const outerOpeners = (marker: string) =>
    stack.some(
      (f) => f !== frame && f.items.some((it) => it.type === 'delimiter' && (it as Delimiter).open && (it as Delimiter).marker === marker),
    );
  // Without definitions (those bail) `[label]` not followed by a resource is plain text: its
  // content rejoins the enclosing span, where its delimiters may still pair with outer ones.
  const literalBrackets = (closed = true) => {
    const { kind, items } = frame;
    stack.pop();
    frame = stack[stack.length - 1];
    frame.items.push({ type: 'text', value: kind === 'image' ? '![' : '[' }, ...items);
    if (closed) {
      frame.items.push({ type: 'text', value: ']' });
      i++;
      textStart = i;
    }
  };
  const close = (): PhrasingContent[] => {
    const children = resolveEmphasis(frame.items, frame.kind === 'jsx', outerOpeners);
    stack.pop();
    frame = stack[stack.length - 1];
    return children;
  };

  while (i < s.length) {
    const c = s[i];
    switch (c) {
      case '`': {
        let n = 1;
        while (s[i + n] === '`') n++;
        const end = closingBackticks(s, i + n, n);
        if (end < 0) {
          // An unmatched run is literal text.
          i += n;
          break;
        }
        flushText(i);
        let value = s.slice(i + n, end);
        if (!exactLineEnds && value.includes('\n')) bail('code span across a trimmed line end');
        // One space or line ending comes off each side when both sides have one and something else is inside.
        if (/^[ \n][\s\S]*[ \n]$/.test(value) && /[^ \n]/.test(value)) value = value.slice(1, -1);
        push({ type: 'inlineCode', value }, end + n);
        break;
      }
      case '*':
      case '_': {
        flushText(i);
        let n = 1;
        while (s[i + n] === c) n++;
        push(delimiterAt(s, i, n), i + n);
        break;
      }
      case '!':
        if (s[i + 1] !== '[') {
          i++;
          break;
        }
        flushText(i);
        if (stack.some((f) => f.kind === 'image')) bail('nested image');
        open('image', i + 2);
        break;
      case '[':
        flushText(i);
        if (s[i + 1] === '^') bail('footnote');
        if (stack.some((f) => f.kind === 'image')) bail('brackets in an image');
        open('link', i + 1);
        break;
      case ']': {
        if (frame.kind !== 'link' && frame.kind !== 'image') {
          // Inside a JSX span the bracket could still end an enclosing label; elsewhere it is text.
          if (stack.some((f) => f.kind === 'link' || f.kind === 'image')) bail('bracket in a JSX span inside a label');
          i++;
          break;
        }
        flushText(i);
        if (s[i + 1] !== '(' || frame.inactive) {
          literalBrackets();
          break;
        }
        const resource = readResource(s, i + 1);
        const kind = frame.kind;
        const children = close();
        if (kind === 'link') {
          for (const f of stack) if (f.kind === 'link') f.inactive = true;
          push({ type: 'link', title: resource.title, url: resource.url, children }, resource.end);
        } else {
          if (children.some((n) => n.type !== 'text')) bail('image alt with markup');
          const alt = children.map((n) => (n as { value: string }).value).join('');
          push({ type: 'image', title: resource.title, url: resource.url, alt }, resource.end);
        }
        break;
      }
      case '<': {
        if (!mdx) bail('html in markdown');
        flushText(i);
        const tag = parseJsxTag(s, i);
        if (tag.closing) {
          if (frame.kind !== 'jsx' || frame.element!.name !== tag.name) bail('unbalanced jsx text tag');
          const element = frame.element!;
          element.children = close();
          push(element, tag.end);
        } else {
          const element: MdxJsxTextElement = { type: 'mdxJsxTextElement', name: tag.name, attributes: tag.attributes, children: [] };
          if (tag.selfClosing) push(element, tag.end);
          else open('jsx', tag.end, element);
        }
        break;
      }
      case '{': {
        if (!mdx) {
          i++;
          break;
        }
        flushText(i);
        const end = scanBraces(s, i);
        push({ type: 'mdxTextExpression', value: s.slice(i + 1, end - 1) }, end);
        break;
      }
      case '}':
        // Nothing in MDX starts with `}` (expressions and attribute values consume their own
        // closing braces), so micromark keeps a stray one as text.
        i++;
        break;
      case '\\': {
        const next = s[i + 1];
        if (next === '\n') bail('hard break');
        // Escaped ASCII punctuation is plain text; any other backslash is itself.
        if (next === undefined || !ASCII_PUNCTUATION.test(next)) {
          i++;
          break;
        }
        flushText(i);
        push({ type: 'text', value: next }, i + 2);
        break;
      }
      case '&': {
        const reference = readCharacterReference(s, i);
        if (!reference) {
          i++;
          break;
        }
        flushText(i);
        push({ type: 'text', value: reference.value }, reference.end);
        break;
      }
      case 'h':
      case 'H':
      case 'w':
      case 'W':
      case '@': {
        // Inside a link or image label micromark links no literals (and the text joins a link or
        // an alt, which mdast-util-gfm-autolink-literal skips); if the brackets turn out to be
        // text, the check on the finished text nodes below catches it.
        const literal =
          mayLink && !stack.some((f) => f.kind === 'link' || f.kind === 'image') ? readAutolinkLiteral(s, i, textStart) : null;
        if (!literal) {
          i++;
          break;
        }
        // An e-mail address starts back at its local part, still in the current text run. Up to
        // its end everything is the literal's, even characters that would otherwise be syntax.
        flushText(literal.start);
        push(literal.link, literal.end);
        break;
      }
      case '~':
        return bail('tilde');
      case '$':
        return bail('dollar');
      default:
        i++;
    }
  }
  flushText(s.length);
  // A `[` that never closed is text too.
  while (frame.kind === 'link' || frame.kind === 'image') literalBrackets(false);
  if (stack.length !== 1) bail('unclosed inline span');
  const children = close();
  // mdast-util-gfm-autolink-literal also searches the finished text nodes outside links, where
  // literal delimiters, brackets and decoded references have joined the text around them, and
  // where its own rules may link what micromark's declined (`a.www.x.com`, `a/b@c.com`).
  if (hasAutolinkText(children)) bail('autolink literal in joined text');
  return children;
}

function hasAutolinkText(nodes: PhrasingContent[]): boolean {
  return nodes.some((n) =>
    n.type === 'text'
      ? LINKABLE_TEXT.test(n.value)
      : n.type !== 'link' && 'children' in n && hasAutolinkText(n.children as PhrasingContent[]),
  );
}

/** Start of the next backtick run of exactly `size` at or after `from`, or -1. */
function closingBackticks(s: string, from: number, size: number): number {
  let i = s.indexOf('`', from);
  while (i >= 0) {
    let n = 1;
    while (s[i + n] === '`') n++;
    if (n === size) return i;
    i = s.indexOf('`', i + n);
  }
  return -1;
}

/** The `(destination "title")` after a link's `]`, in its simple one-line forms only. */
function readResource(s: string, at: number): { url: string; title: string | null; end: number } {
  if (s[at] !== '(') return bail('bracket without resource');
  DESTINATION.lastIndex = at + 1;
  const url = DESTINATION.exec(s)![0];
  let i = DESTINATION.lastIndex;
  let title: string | null = null;
  if (s[i] === ' ') {
    while (s[i] === ' ') i++;
    if (s[i] === '"') {
      const end = s.indexOf('"', i + 1);
      if (end < 0) bail('link title');
      title = s.slice(i + 1, end);
      if (/[\\&\n]/.test(title)) bail('link title escapes or lines');
      i = end + 1;
      while (s[i] === ' ') i++;
    }
  }
  if (s[i] !== ')') bail('link resource shape');
  return { url, title, end: i + 1 };
}
