import type { Element, ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';
import { renderIcon } from '../icons/renderIcon.js';
import type { CodeMeta } from './parseCodeMeta.js';
import type { LineMarks } from './extractNotation.js';
import type { TokenLines } from './TokenCache.js';
import { FONT_STYLE_SHIFT, TOKEN_KINDS } from './createShikiTokenizer.js';
import { copyButton } from './copyButton.js';

/** Blocks with more lines than this start collapsed when marked `expandable`. */
const EXPANDABLE_MIN_LINES = 10;

function tokenNode(token: TokenLines[number][number]): ElementContent {
  if (typeof token === 'string') return { type: 'text', value: token };
  const [value, code] = token;
  const kind = TOKEN_KINDS[code & 0xffff];
  const style = code >>> FONT_STYLE_SHIFT;
  const className = [kind ? `ec-${kind}` : '', style & 1 ? 'ec-i' : '', style & 2 ? 'ec-b' : '', style & 4 ? 'ec-u' : ''].filter(Boolean);
  return el('span', { className }, value);
}

/** Classes for one line from the meta (highlight/focus) and the notation/diff marks. */
function lineClasses(n: number, meta: CodeMeta, marks: LineMarks, diffSign: string | undefined): string[] {
  const cls = ['line'];
  if (meta.highlight.has(n) || marks.highlight.has(n)) cls.push('highlighted');
  if (meta.focus.has(n) || marks.focus.has(n)) cls.push('focused');
  if (marks.add.has(n) || diffSign === '+') cls.push('diff', 'add');
  if (marks.remove.has(n) || diffSign === '-') cls.push('diff', 'remove');
  if (marks.error.has(n)) cls.push('highlighted', 'error');
  if (marks.warning.has(n)) cls.push('highlighted', 'warning');
  return cls;
}

/** Inputs for one rendered code block. */
export interface CodeFigureInput {
  lines: TokenLines;
  /** Language name as written on the fence (for `data-lang`). */
  lang: string | null;
  meta: CodeMeta;
  marks: LineMarks;
  /** True for the `diff` language: lines starting with `+`/`-` are marked as additions/removals. */
  isDiff: boolean;
  ctx: RenderContext;
}

/** The `<figure>` for a highlighted block: header (icon, title, copy button) and the `<pre>`. */
export function buildCodeFigure({ lines, lang, meta, marks, isDiff, ctx }: CodeFigureInput): Element {
  const children: ElementContent[] = [];
  lines.forEach((tokens, i) => {
    if (i > 0) children.push({ type: 'text', value: '\n' });
    const first = typeof tokens[0] === 'string' ? tokens[0] : tokens[0]?.[0];
    const sign = isDiff && first && !/^(\+\+\+|---)/.test(first) ? first[0] : undefined;
    children.push(el('span', { className: lineClasses(i + 1, meta, marks, sign) }, tokens.map(tokenNode)));
  });
  const hasFocus = meta.focus.size > 0 || marks.focus.size > 0;
  const expandable = meta.expandable && lines.length > EXPANDABLE_MIN_LINES;
  const header = el('div', { className: ['enclave-code-header'] }, [
    meta.icon ? renderIcon(meta.icon, ctx, { size: 14 }) : null,
    meta.title ? el('span', { className: ['enclave-code-title'] }, meta.title) : null,
    copyButton(),
  ]);
  const figureClass = ['enclave-code', meta.title ? 'has-title' : 'no-title'];
  if (meta.lineNumbers) figureClass.push('with-line-numbers');
  if (meta.wrap) figureClass.push('wrap');
  if (hasFocus) figureClass.push('has-focused');
  if (expandable) figureClass.push('expandable', 'collapsed');
  return el(
    'figure',
    {
      className: figureClass,
      dataEnclaveCode: '',
      dataLang: lang ?? 'text',
      dataFilename: meta.title,
    },
    [
      header,
      // tabindex makes a horizontally scrolling block reachable by keyboard.
      el('pre', { className: ['enclave-pre'], tabIndex: 0 }, el('code', { className: lang ? [`language-${lang}`] : [] }, children)),
      expandable
        ? el(
            'button',
            { type: 'button', className: ['enclave-code-expand'], ariaExpanded: 'false', dataEnclaveExpand: '' },
            `Show all ${lines.length} lines`,
          )
        : null,
    ],
  );
}
