import { createRequire } from 'node:module';
import type Katex from 'katex';
import { fromHtml } from 'hast-util-from-html';
import type { ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';
import { cloneHast } from '../page/cloneHast.js';

/** TeX longer than this is refused (KaTeX time grows with input; a docs formula is far shorter). */
const MAX_TEX_CHARS = 20_000;

/** KaTeX is loaded with the first formula: memory that sites without math never pay. */
let katex: typeof Katex | undefined;
const loadKatex = () => (katex ??= createRequire(import.meta.url)('katex') as typeof Katex);

/** Rendered formulas by source; the same formula recurs across pages (and KaTeX + parsing cost adds up). */
const memo = new Map<string, ElementContent>();
const MEMO_MAX = 5_000;

/** Typesets TeX with KaTeX at build time (HTML + MathML, no client script); invalid TeX shows inline as an error and is reported. */
export function renderMath(tex: string, display: boolean, ctx: RenderContext): ElementContent {
  ctx.assets.use('katex');
  const key = `${display ? 'D' : 'I'}${tex}`;
  const hit = memo.get(key);
  if (hit) return cloneHast(hit);
  let html: string;
  try {
    if (tex.length > MAX_TEX_CHARS) throw new Error(`formula longer than ${MAX_TEX_CHARS} characters`);
    html = loadKatex().renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      output: 'htmlAndMathml',
      // Untrusted docs: no \href/\url to arbitrary protocols, no \htmlClass etc., bounded macro expansion.
      trust: false,
      maxExpand: 1000,
      strict: 'ignore',
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.report.warning(`Invalid TeX: ${message}`, ctx.pagePath);
    return el(display ? 'div' : 'span', { className: ['enclave-math-error'], role: 'note', title: message }, [el('code', {}, tex)]);
  }
  const tree = fromHtml(html, { fragment: true });
  const node = el(
    display ? 'div' : 'span',
    { className: ['enclave-math', display ? 'enclave-math-display' : 'enclave-math-inline'] },
    tree.children as ElementContent[],
  );
  if (memo.size < MEMO_MAX) memo.set(key, node);
  return cloneHast(node);
}
